/*
 * hazards.h: the hazard checker's hooks (layer/hazards/README.md). Races
 * between lists, frees of memory in flight and hangs, found from the order
 * Level Zero guarantees (per-timeline vector clocks) and the memory each
 * submission uses.
 *
 * The exact checks are on unless ZEIL_CHECKS switches the group `hazards`
 * off; the guesses (a kernel's pointer arguments, W091) only when it names
 * them (env.c). Every intercept calls a hook behind hazards_active(): one
 * predictable branch on a setting read once, so with the checks off the
 * hooks cost nothing else.
 * Hooks named *_before run ahead of the driver call; the others after it
 * succeeded (they are given the result where it matters).
 */
#ifndef ZEIL_HAZARDS_H
#define ZEIL_HAZARDS_H

#include "calls.h"
#include <stdatomic.h>
#include "registry.h"

#include <stdatomic.h>

static inline int hazards_active(void)
{
    return __builtin_expect(zeil_settings_data.hazards, 1);
}

/* The guesses: a kernel's pointer arguments taken as its accesses. */
static inline int hazards_guessing(void)
{
    return __builtin_expect(zeil_settings_data.hazard_guesses, 0);
}

/* How many threads hold accesses zeil_declare_accesses declared for their
 * next launch (the interop library's execute) and no launch took yet: a
 * global, not a thread-local, so the launch fast path reads one word. */
extern atomic_uint hazards_declares_pending;

/* Whether a plain launch (no signal, no waits) may mean anything to the
 * checks: only with accesses, which are declared ones or guesses. Without,
 * it orders nothing and is ordered by nothing a later append could not see
 * anyway, so the launch fast path leaves the checks out. (Another thread's
 * pending declaration sends this one's launch the checked way too, which
 * finds nothing of its own: slower for a moment, never wrong.) */
static inline int hazards_plain_launch_checked(void)
{
    return __builtin_expect(hazards_guessing() || atomic_load_explicit(&hazards_declares_pending,
                                                                       memory_order_relaxed) != 0,
                            0);
}

/* ---- appends ---------------------------------------------------------- */
typedef enum hazards_append_kind {
    HAZARDS_LAUNCH = 1, /* kernel: declared accesses (zeil.h) or its pointer arguments */
    HAZARDS_COPY,       /* dst written, src read, size bytes each */
    HAZARDS_FILL,       /* dst written */
    HAZARDS_BARRIER,
    HAZARDS_SIGNAL, /* zeCommandListAppendSignalEvent: signal only */
    HAZARDS_WAIT,   /* zeCommandListAppendWaitOnEvents: waits only */
    HAZARDS_RESET,  /* zeCommandListAppendEventReset: signal is the event reset */
    HAZARDS_OPAQUE  /* work whose accesses zeil cannot know: ordered, signals, waits */
} hazards_append_kind_t;

typedef struct hazards_append {
    const zeil_call_t *call;
    zeil_obj_t *list; /* the intercept's (null: zeil does not know it) */
    hazards_append_kind_t kind;
    const zeil_obj_t *kernel;
    uint32_t num_kernels; /* HAZARDS_LAUNCH of several: their handles */
    const ze_kernel_handle_t *kernels;
    void *dst;
    const void *src;
    size_t size;
    size_t src_size; /* HAZARDS_COPY: when not size (region copies) */
    ze_event_handle_t signal;
    uint32_t num_waits;
    const ze_event_handle_t *waits;
} hazards_append_t;

/* A cached plain launch (intercept_launch.c's fast path: no events), after
 * the driver took it: hazards_appended with an unnumbered call, made by a
 * thread whose attribution (records_current_attribution) is attribution. */
void hazards_plain_launched(const char *call_name, zeil_obj_t *list, const zeil_obj_t *kernel,
                            const zeil_attribution_t *attribution);

/* After the driver accepted an append (immediate lists: applied now; regular
 * lists: recorded, applied by each execution). Races are reported, never
 * refused (E090, W091); a wait cycle it closes is E093. */
void hazards_appended(const hazards_append_t *append);
/* The one line an intercept adds: HAZARDS_APPENDED(.call = &call, ...). */
#define HAZARDS_APPENDED(...) \
    do { \
        if (hazards_active()) \
            hazards_appended(&(hazards_append_t){__VA_ARGS__}); \
    } while (0)

/* ---- command lists, queues, fences ------------------------------------ */
/* Immediate lists and queues: the mode (synchronous work is done on return). */
void hazards_list_mode(ze_command_list_handle_t list, ze_command_queue_mode_t mode);
void hazards_queue_mode(ze_command_queue_handle_t queue, ze_command_queue_mode_t mode);
void hazards_list_reset(zeil_obj_t *list);
void hazards_executed(const zeil_call_t *call, zeil_obj_t *queue, uint32_t count,
                      const ze_command_list_handle_t *lists, ze_fence_handle_t fence);
/* Host synchronizations. _before: a hang check when timeout is UINT64_MAX
 * (E094 for a cycle, which zeil can prove; not refused); after: what the
 * host learns on success, the hang check on a finite timeout that expired
 * (W095, once per event). */
void hazards_queue_sync_before(const zeil_call_t *call, zeil_obj_t *queue, uint64_t timeout);
void hazards_queue_synced(const zeil_call_t *call, zeil_obj_t *queue, uint64_t timeout,
                          ze_result_t result);
void hazards_fence_sync_before(const zeil_call_t *call, zeil_obj_t *fence, uint64_t timeout);
void hazards_fence_synced(const zeil_call_t *call, zeil_obj_t *fence, uint64_t timeout,
                          ze_result_t result);
/* For zeCommandListHostSynchronize (API 1.6+): the list's work so far. */
void hazards_list_sync_before(const zeil_call_t *call, zeil_obj_t *list, uint64_t timeout);
void hazards_list_synced(const zeil_call_t *call, zeil_obj_t *list, uint64_t timeout,
                         ze_result_t result);

/* A host wait without timeout still blocked after ZEIL_HANG_WARN_MS
 * (intercept_host.c waits that long first): W097 with the wait graph when
 * what it waits for waits on an event nothing pending signals. */
void hazards_wait_blocked(const zeil_call_t *call, zeil_obj_t *obj, uint64_t blocked_ms);

/* ---- events ----------------------------------------------------------- */
void hazards_event_sync_before(const zeil_call_t *call, zeil_obj_t *event, uint64_t timeout);
void hazards_event_synced(const zeil_call_t *call, zeil_obj_t *event, uint64_t timeout,
                          ze_result_t result);
/* zeEventQueryStatus: ready (ZE_RESULT_SUCCESS) is a host synchronization. */
void hazards_event_queried(zeil_obj_t *event, ze_result_t result);
/* The host's signal and reset write one word of the event's state, without
 * a lock (README.md, "Cost"): bits 63..32 count the host's signals, bits
 * 30..1 its resets (bit 31 takes their carry and is cleared with it), bit 0
 * says the host's signal came last. An event the host signals first gets its
 * state then (hazards_event_host_first). */
typedef struct hazards_event_host {
    _Atomic uint64_t word;
} hazards_event_host_t;
#define HAZARDS_HOST_SIGNALLED 1ull
#define HAZARDS_HOST_SIGNAL_ONE (1ull << 32)
#define HAZARDS_HOST_RESETS_CARRY (1ull << 31)
void hazards_event_host_first(zeil_obj_t *event);

/* The state of an event (an object the calling hook checked as
 * ZEIL_KIND_EVENT: a kind never changes), or null while it has none. Only
 * the checks make it, so with them off every event has none. */
static inline hazards_event_host_t *hazards_event_host_of(zeil_obj_t *event)
{
    return __atomic_load_n((hazards_event_host_t **)&event->hazard, __ATOMIC_ACQUIRE);
}

/* An event with state: one load and one store; the checks' switch is read
 * only for one without (its first host signal). */
static inline void hazards_event_host_signalled(zeil_obj_t *event)
{
    hazards_event_host_t *h = hazards_event_host_of(event);
    if (__builtin_expect(!h, 0)) {
        if (hazards_active())
            hazards_event_host_first(event);
        return;
    }
    uint64_t w = atomic_load_explicit(&h->word, memory_order_relaxed);
    atomic_store_explicit(&h->word, (w | HAZARDS_HOST_SIGNALLED) + HAZARDS_HOST_SIGNAL_ONE,
                          memory_order_release);
}

/* No state: nothing signalled it that the checks know of; nothing to undo.
 * (w | 1) + 1 clears bit 0 and counts the reset in bits 30..1; the count's
 * carry (bit 31) is dropped, never taken for a host signal. */
static inline void hazards_event_host_reset(zeil_obj_t *event)
{
    hazards_event_host_t *h = hazards_event_host_of(event);
    if (__builtin_expect(!h, 0)) /* as hazards_event_host_signalled */
        return;
    uint64_t w = atomic_load_explicit(&h->word, memory_order_relaxed);
    atomic_store_explicit(&h->word, ((w | HAZARDS_HOST_SIGNALLED) + 1) & ~HAZARDS_HOST_RESETS_CARRY,
                          memory_order_release);
}
/* Events of pools opened from another process: never judged unsignalled. */
void hazards_event_external(zeil_obj_t *event);

/* ---- memory and kernels ----------------------------------------------- */
/* zeMemFree: E092 (refused) when a submission not known to be complete uses
 * the allocation; otherwise its history is forgotten. */
ze_result_t hazards_free_checked(const zeil_call_t *call, const void *ptr);
/* How many histories of allocations hash to each counter (hz_access.c):
 * a free of an allocation no checked append touched reads one zero and
 * takes no lock. */
#define HAZARDS_FILTER 4096u
extern _Atomic uint32_t hazards_histories_at[HAZARDS_FILTER];
static inline unsigned hazards_filter_slot(uintptr_t base)
{
    return (unsigned)((base >> 6) ^ (base >> 18)) & (HAZARDS_FILTER - 1);
}
/* Whether hazards_free_before would answer at once (no history hashes
 * near ptr, or the checks off): 1, or 0 when it must look. */
static inline int hazards_free_unseen(const void *ptr)
{
    return !hazards_active() ||
           !atomic_load_explicit(&hazards_histories_at[hazards_filter_slot((uintptr_t)ptr)],
                                 memory_order_acquire);
}
static inline ze_result_t hazards_free_before(const zeil_call_t *call, const void *ptr)
{
    if (!ptr || hazards_free_unseen(ptr))
        return ZE_RESULT_SUCCESS;
    return hazards_free_checked(call, ptr);
}
void hazards_kernel_argument(zeil_obj_t *kernel, uint32_t index, size_t size, const void *value);

/* Any object zeil retires (intercept_retire): its hazard state goes. */
void hazards_retired(zeil_obj_t *obj);

#endif
