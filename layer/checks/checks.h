/*
 * checks.h: the validation helpers the intercepts run before calling the
 * driver. Each returns ZE_RESULT_SUCCESS when the call may proceed, else the
 * error the intercepted call returns (the finding is already reported).
 * A null handle is left to the driver (it is the driver's validation).
 */
#ifndef ZEIL_CHECKS_H
#define ZEIL_CHECKS_H

#include "calls.h"
#include "registry.h"

/* Keeps the first error of several checks; all of them still run. */
#define CHECK_KEEP_FIRST(result, expr) \
    do { \
        ze_result_t check_r_ = (expr); \
        if ((result) == ZE_RESULT_SUCCESS) \
            (result) = check_r_; \
    } while (0)

/* check_handles.c */
/* The findings behind check_handle, check_same_context and
 * check_devices_related when their inline fast path does not succeed. */
ze_result_t check_handle_finding(const zeil_call_t *call, const char *arg, const void *handle,
                                 zeil_kind_t kind, zeil_obj_t *obj, zeil_obj_t **out);
/* " (destroyed: ...)" when zeil saw context destroyed, else "": for E004's messages. */
const char *check_context_gone(ze_context_handle_t context);
ze_result_t check_context_mix(const zeil_call_t *call, const char *arg_a, const zeil_obj_t *a,
                              const char *arg_b, const zeil_obj_t *b);
int check_devices_related_by_parent(ze_device_handle_t a, ze_device_handle_t b);

/* Inline, always (the compiler declines in the large generated unit): every
 * intercepted call checks one handle or more, and a live object of the right
 * kind is by far the common case. */
static inline int check_handle_live(const void *handle, zeil_kind_t kind, zeil_obj_t **out)
    __attribute__((always_inline));
static inline int check_handle_live_in(calls_thread_t *self, const void *handle, zeil_kind_t kind,
                                       zeil_obj_t **out) __attribute__((always_inline));
static inline int check_handle_hit(calls_thread_t *self, const void *handle, zeil_kind_t kind,
                                   zeil_obj_t **out) __attribute__((always_inline));
static inline int check_handle_hit_at(calls_thread_t *self, uint64_t retirements,
                                      const void *handle, zeil_kind_t kind, zeil_obj_t **out)
    __attribute__((always_inline));
static inline int check_handle_seek(calls_thread_t *self, const void *handle, zeil_kind_t kind,
                                    zeil_obj_t **out) __attribute__((always_inline));

/* The mark of a cache entry filled while calls were not quiet: the full path
 * (check_handle_live_in) hits it, so a traced or logged call does not ask the
 * registry each time; the fast block (exact compare) never does. */
#define CHECK_HANDLE_LOUD (UINT64_C(1) << 63)

/* The current generation of the threads' handle caches (registry_retirements). */
static inline uint64_t check_handle_generation(void)
{
    return atomic_load_explicit(&registry_retirements.value, memory_order_acquire);
}
static inline int check_handle_quiet_in(calls_thread_t *self, const void *handle, zeil_kind_t kind,
                                        zeil_obj_t **out) __attribute__((always_inline));
static inline ze_result_t check_handle(const zeil_call_t *call, const char *arg, const void *handle,
                                       zeil_kind_t kind, zeil_obj_t **out)
    __attribute__((always_inline));

/* check_handle's hit path alone: 1 when handle is null or a live object of
 * its kind (*out: that object or null), 0 when check_handle has more to say
 * (*out: what the registry found, if anything). */
static inline int check_handle_live(const void *handle, zeil_kind_t kind, zeil_obj_t **out)
{
    return check_handle_live_in(&calls_thread, handle, kind, out);
}

/* 1 when handle is the thread's last live object of its kind (*out: that
 * object, never null), found while calls were quiet, and no object has been
 * retired since (a handle the driver gives again must be retired first): a
 * loop on one event or context skips the registry, in two loads and two
 * compares. So a hit also says that calls are quiet (calls_quiet only ever
 * turns on, once). Never for a null handle: no entry holds one with a
 * current generation (registry_retirements starts at 1, an entry's 0 is
 * never current). The count is loaded before the registry is asked, so an
 * entry is never newer than what it says. */
static inline int check_handle_hit(calls_thread_t *self, const void *handle, zeil_kind_t kind,
                                   zeil_obj_t **out)
{
    return check_handle_hit_at(self, check_handle_generation(), handle, kind, out);
}

/* The same for an intercept checking several handles, with the count loaded
 * once (check_handle_generation) before all of them. */
static inline int check_handle_hit_at(calls_thread_t *self, uint64_t retirements,
                                      const void *handle, zeil_kind_t kind, zeil_obj_t **out)
{
    const struct checked_handle *c = &self->checked[kind];
    if (__builtin_expect(c->handle == handle && c->generation == retirements, 1)) {
        *out = c->obj;
        if (!*out) /* never: an entry of a current generation holds an object */
            __builtin_unreachable();
        return 1;
    }
    return 0;
}

/* check_handle_live past a miss of the thread's cache: a null handle, or
 * the registry asked (and the cache told of a live object found). */
static inline int check_handle_seek(calls_thread_t *self, const void *handle, zeil_kind_t kind,
                                    zeil_obj_t **out)
{
    if (!handle) {
        *out = NULL;
        return 1;
    }
    uint64_t retirements = check_handle_generation();
    zeil_obj_t *obj = registry_find(handle);
    *out = obj;
    if (!obj || obj->kind != kind || !atomic_load_explicit(&obj->alive, memory_order_acquire))
        return 0;
    /* Found while calls are not quiet (a calls log, a trace): marked, a hit
     * of check_handle_live_in's but never of the fast block's. */
    self->checked[kind] = (struct checked_handle){
        handle, obj, calls_are_quiet() ? retirements : retirements | CHECK_HANDLE_LOUD};
    return 1;
}

/* check_handle_live with the calling thread's state at hand (self ==
 * &calls_thread): an intercept checking several handles looks the
 * thread-local up once. */
static inline int check_handle_live_in(calls_thread_t *self, const void *handle, zeil_kind_t kind,
                                       zeil_obj_t **out)
{
    const struct checked_handle *c = &self->checked[kind];
    if (__builtin_expect(c->handle == handle &&
                             (c->generation & ~CHECK_HANDLE_LOUD) == check_handle_generation(),
                         1)) {
        *out = c->obj;
        return 1;
    }
    return check_handle_seek(self, handle, kind, out);
}

/* The generated intercepts' fast block asks this of each handle before
 * anything else: 1 when calls are quiet and handle is null or a live object
 * of its kind (check_handle_live), a cache hit first (which says both). */
static inline int check_handle_quiet_in(calls_thread_t *self, const void *handle, zeil_kind_t kind,
                                        zeil_obj_t **out)
{
    return check_handle_hit(self, handle, kind, out) ||
           (calls_are_quiet() && check_handle_seek(self, handle, kind, out));
}

/* *out is the live object, or null (null handle, unknown driver/device, or a
 * finding). */
static inline ze_result_t check_handle(const zeil_call_t *call, const char *arg, const void *handle,
                                       zeil_kind_t kind, zeil_obj_t **out)
{
    zeil_obj_t *obj;
    if (check_handle_live(handle, kind, &obj)) {
        *out = obj;
        return ZE_RESULT_SUCCESS;
    }
    *out = NULL;
    return check_handle_finding(call, arg, handle, kind, obj, out);
}

/* first_sight.c: registers a handle zeil never saw created, of a kind not
 * every creator of which zeil intercepts at the API version in use (*out,
 * null when zeil ran out of memory) and returns 1; returns 0 when the
 * driver says it is no handle of that kind. */
int first_sight_register(const zeil_call_t *call, const char *arg, const void *handle,
                         zeil_kind_t kind, zeil_obj_t **out);

ze_result_t check_handle_array(const zeil_call_t *call, const char *arg, uint32_t count,
                               const void *const *handles, zeil_kind_t kind);

/* The predicates of the checks below, also asked by the launch fast path
 * (intercept_appends.c) so that it holds exactly when they find nothing. */
static inline int check_contexts_agree(const zeil_obj_t *a, const zeil_obj_t *b)
{
    return !a || !b || !a->context || !b->context || a->context == b->context;
}
/* The first argument of the kernel never set, or -1 (E041). */
static inline int check_kernel_arg_missing(const zeil_obj_t *k)
{
    uint32_t count = k->arg_count < 64 ? k->arg_count : 64;
    uint64_t wanted = count == 64 ? ~0ull : ((1ull << count) - 1);
    uint64_t missing =
        wanted & ~atomic_load_explicit(&((zeil_obj_t *)k)->args_set, memory_order_relaxed);
    return missing ? __builtin_ctzll(missing) : -1;
}

static inline ze_result_t check_same_context(const zeil_call_t *call, const char *arg_a,
                                             const zeil_obj_t *a, const char *arg_b,
                                             const zeil_obj_t *b)
{
    if (check_contexts_agree(a, b))
        return ZE_RESULT_SUCCESS;
    return check_context_mix(call, arg_a, a, arg_b, b);
}

ze_result_t check_device_in_context(const zeil_call_t *call, const zeil_obj_t *context,
                                    ze_device_handle_t device);
/* The same when the caller already holds the device's live object (from
 * check_handle, or null): a context's first device, or a device of the
 * driver of a context of all its devices, is one compare, inline (every
 * allocation asks). Anything else goes to check_device_in_context. */
static inline ze_result_t check_device_of_context(const zeil_call_t *call,
                                                  const zeil_obj_t *context,
                                                  ze_device_handle_t device,
                                                  const zeil_obj_t *device_obj)
{
    if (context && device_obj &&
        (context->device_count ? context->devices[0] == device
                               : !device_obj->driver || device_obj->driver == context->driver))
        return ZE_RESULT_SUCCESS;
    return check_device_in_context(call, context, device);
}
/* Two devices that are the same, or one a sub-device of the other. */
static inline int check_devices_related(ze_device_handle_t a, ze_device_handle_t b)
{
    return !a || !b || a == b || check_devices_related_by_parent(a, b);
}

/* check_lists.c */
ze_result_t check_list_closed_finding(const zeil_call_t *call, const zeil_obj_t *list);
static inline ze_result_t check_list_open(const zeil_call_t *call, const zeil_obj_t *list)
{
    if (!list || list->is_immediate ||
        !atomic_load_explicit(&list->is_closed, memory_order_acquire))
        return ZE_RESULT_SUCCESS;
    return check_list_closed_finding(call, list);
}
/* The list, its signal and wait events: alive, one context, reset between
 * signals; list_arg, signal_arg and waits_arg name them in findings. */
ze_result_t check_append(const zeil_call_t *call, ze_command_list_handle_t list,
                         zeil_obj_t **list_obj, ze_event_handle_t signal, zeil_obj_t **signal_obj,
                         uint32_t num_waits, const ze_event_handle_t *waits, const char *list_arg,
                         const char *signal_arg, const char *waits_arg);
/* check_signals.c: W031 in execution order. A regular list's signal or
 * reset (reset: 1) of event is recorded, an immediate list's applied; each
 * execution of regular lists replays theirs; a reset or destroyed list
 * forgets them. */
void check_signal_appended(zeil_obj_t *list, zeil_obj_t *event, uint64_t call, int reset);
void check_signals_executed(const zeil_call_t *call, uint32_t count,
                            const ze_command_list_handle_t *lists);
void check_signals_forget(zeil_obj_t *list);
/* After a successful append that signals an event: its signal is pending
 * until a reset (what check_append's reset-between-signals rule reads). The
 * one place every append, generated or hand-tuned, notes it. */
static inline void check_note_signal(zeil_obj_t *list, zeil_obj_t *signal, const zeil_call_t *call)
{
    if (signal && list && !list->is_immediate)
        check_signal_appended(list, signal, call->number, 0);
    else if (signal)
        atomic_store_explicit(&signal->signalled_by_call, call->number, memory_order_relaxed);
}
ze_result_t check_execute(const zeil_call_t *call, const zeil_obj_t *queue, uint32_t count,
                          const ze_command_list_handle_t *lists, ze_fence_handle_t fence);

/* check_usm.c */
/* A copy region's bytes: from offset (its origin) the span to the end of its
 * last row; pitches of zero are packed rows and slices. */
size_t check_region_offset(const ze_copy_region_t *r, uint32_t pitch, uint32_t slice);
size_t check_region_span(const ze_copy_region_t *r, uint32_t pitch, uint32_t slice);
/* check_usm_range for memory of context (named context_arg in E004), not the list's. */
ze_result_t check_usm_range_of(const zeil_call_t *call, const zeil_obj_t *list, const char *arg,
                               const void *ptr, size_t size, const char *context_arg,
                               ze_context_handle_t context);
ze_result_t check_usm_range(const zeil_call_t *call, const zeil_obj_t *list, const char *arg,
                            const void *ptr, size_t size);
ze_result_t check_usm_free(const zeil_call_t *call, ze_context_handle_t context, const void *ptr);
/* check_usm_free for a free whose allocation another thread's free of the
 * same pointer buried between its lookup and its burial: a double free
 * (E012) for certain while that tombstone is the newest at ptr, even if
 * the driver still knows the address (its free may not have reached it). */
ze_result_t check_usm_free_raced(const zeil_call_t *call, ze_context_handle_t context,
                                 const void *ptr);
void check_kernel_argument(const zeil_call_t *call, const zeil_obj_t *kernel, uint32_t index,
                           size_t size, const void *value);

/* check_freed_ranges.c */
/* The driver's answer for ptr in context: 1 when it is USM now, 0 when not
 * or when it cannot say. */
int driver_says_usm(const zeil_next_t *next, ze_context_handle_t context, const void *ptr);
/* What a pointer inside a freed USM range (and no live one) is now. */
typedef enum freed_range_verdict {
    FREED_RANGE_DANGLING,      /* nothing the driver accepts: the "freed" finding holds */
    FREED_RANGE_REUSED_BY_USM, /* the driver knows it as USM (zeil missed the allocation) */
    FREED_RANGE_SYSTEM_MEMORY, /* mapped host memory, and the device accepts system memory */
    FREED_RANGE_HOST_MEMORY,   /* a copy's or fill's mapped host memory where host USM was */
} freed_range_verdict_t;
typedef enum freed_range_use {
    FREED_RANGE_TRANSFER, /* copies and fills: drivers also take plain host memory there */
    FREED_RANGE_ACCESS,   /* kernel arguments: the device itself reads or writes it */
    FREED_RANGE_FREE,     /* zeMemFree: only USM can be freed */
} freed_range_use_t;
/* owner: the object whose driver and context are asked (list, kernel or
 * context); device: the device that would access ptr; freed: the freed
 * allocation ptr lies in. */
freed_range_verdict_t check_freed_range(const zeil_obj_t *owner, ze_device_handle_t device,
                                        const void *ptr, const zeil_alloc_t *freed,
                                        freed_range_use_t use);
/* W016 for a pointer the verdict found valid. */
void check_freed_range_reused(const zeil_call_t *call, const char *arg, const void *ptr,
                              const zeil_alloc_t *freed, freed_range_verdict_t verdict);

/* check_kernels.c */
/* The kernel of a launch: alive, of the list's context and device, every
 * argument set. */
ze_result_t check_launch_kernel(const zeil_call_t *call, const zeil_obj_t *list,
                                ze_kernel_handle_t kernel, zeil_obj_t **kernel_obj);
/* The same without the arguments (a launch that passes them itself). */
ze_result_t check_kernel_of_list(const zeil_call_t *call, const zeil_obj_t *list,
                                 ze_kernel_handle_t kernel, zeil_obj_t **kernel_obj);

/* check_lifetime.c */
ze_result_t check_context_children(const zeil_call_t *call, const zeil_obj_t *context);
ze_result_t check_pool_events(const zeil_call_t *call, const zeil_obj_t *pool);
ze_result_t check_module_kernels(const zeil_call_t *call, const zeil_obj_t *module);
/* At exit: leaked objects and allocations as one warning. */
void check_leaks_at_exit(void);

#endif
