/*
 * Intercepts of what is appended to command lists: launches, copies, fills,
 * barriers and event operations. This is the launch path: lock-free registry
 * lookups, a record in the list's preallocated ring written by its only
 * writer, no allocation and no read-modify-write of memory another thread
 * writes, in steady state.
 */
#include "intercepts.h"

#include "checks.h"
#include "hazards/hazards.h"
#include "launch_cache.h"
#include "records.h"
#include "timing.h"
#include "zeil_hooks.h"

static inline int alive(const zeil_obj_t *obj)
{
    return atomic_load_explicit(&obj->alive, memory_order_acquire);
}

/* The launch a loop makes: a live open list and a live kernel of the same
 * context and device with every argument set, no events, no timing. Exactly
 * the conditions under which check_append and check_launch_kernel find
 * nothing, evaluated inline: anything else takes the general path, which
 * finds and reports what is wrong. */
static inline int launch_is_plain(const zeil_obj_t *list, const zeil_obj_t *kernel,
                                  const ze_group_count_t *groups, ze_event_handle_t signal,
                                  uint32_t num_waits)
{
    if (!list || !kernel || signal || num_waits || !groups ||
        list->kind != ZEIL_KIND_COMMAND_LIST || kernel->kind != ZEIL_KIND_KERNEL ||
        !alive(list) || !alive(kernel) || !list->records || timing_wanted(list))
        return 0;
    if (!list->is_immediate && atomic_load_explicit(&list->is_closed, memory_order_acquire))
        return 0;
    if (list->context != kernel->context && list->context && kernel->context)
        return 0;
    if (list->device != kernel->device && list->device && kernel->device)
        return 0;
    uint32_t count = kernel->arg_count < 64 ? kernel->arg_count : 64;
    uint64_t wanted = count == 64 ? ~0ull : ((1ull << count) - 1);
    return (wanted & ~atomic_load_explicit(&((zeil_obj_t *)kernel)->args_set,
                                           memory_order_relaxed)) == 0;
}

/* Both launches log as the generated intercepts do, the kernel's name and
 * the group count added. */
#define LAUNCH_LOG_FMT "hCommandList=command_list:%p hKernel=kernel:%p (%s) pLaunchFuncArgs=%p " \
                       "(%ux%ux%u) hSignalEvent=event:%p numWaitEvents=%u phWaitEvents=%p"
#define LAUNCH_LOG_ARGS(kernel)                                                              \
    (void *)hCommandList, (void *)hKernel, (kernel) ? (kernel)->name : "?", (const void *)groups, \
        groups ? groups->groupCountX : 0, groups ? groups->groupCountY : 0,                   \
        groups ? groups->groupCountZ : 0, (void *)hSignalEvent, numWaitEvents,                \
        (const void *)phWaitEvents

/* Every launch but the cached plain one without calls log or trace. */
static __attribute__((noinline)) ze_result_t
launch_checked(const zeil_next_t *next, const char *name,
               ze_pfnCommandListAppendLaunchKernel_t forward,
               ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
               const ze_group_count_t *groups, ze_event_handle_t hSignalEvent,
               uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents, uint64_t generation)
{
    /* A plain launch takes no call number (its record's key orders it:
     * calls.h); any other takes one before it is checked, as every call
     * that can be reported does. */
    zeil_call_t call;
    calls_begin_unnumbered(&call, name);
    launch_cache_t *cached = launch_cache_find(hCommandList, hKernel, generation);
    zeil_obj_t *list, *kernel;
    int plain;
    if (cached) {
        list = cached->list;
        kernel = cached->kernel;
        plain = !hSignalEvent && !numWaitEvents && groups &&
                (list->is_immediate ||
                 !atomic_load_explicit(&list->is_closed, memory_order_acquire));
    } else {
        list = registry_find(hCommandList);
        kernel = registry_find(hKernel);
        plain = launch_is_plain(list, kernel, groups, hSignalEvent, numWaitEvents);
        if (plain)
            launch_cache_remember(hCommandList, hKernel, list, kernel, generation);
    }
    if (plain) {
        ze_result_t r = forward(hCommandList, hKernel, groups, NULL, 0, phWaitEvents);
        if (r == ZE_RESULT_SUCCESS)
            records_add_held(list->records, list,
                             &(zeil_submission_t){ZEIL_RECORD_LAUNCH, &call, kernel, groups, 0,
                                                  NULL, 0, NULL});
        if (r == ZE_RESULT_SUCCESS)
            HAZARDS_APPENDED(.call = &call, .list = list, .kind = HAZARDS_LAUNCH,
                             .kernel = kernel);
        return CALLS_END(&call, r, LAUNCH_LOG_FMT, LAUNCH_LOG_ARGS(kernel));
    }
    calls_number(&call);
    zeil_obj_t *signal;
    kernel = NULL;
    ze_result_t r = check_append(&call, hCommandList, &list, hSignalEvent, &signal,
                                 numWaitEvents, phWaitEvents);
    /* Null arguments are the driver's to refuse, with its own codes. */
    if (groups && (numWaitEvents == 0 || phWaitEvents))
        CHECK_KEEP_FIRST(r, check_launch_kernel(&call, list, hKernel, &kernel));
    if (r == ZE_RESULT_SUCCESS) {
        zeil_submission_t s = {ZEIL_RECORD_LAUNCH, &call, kernel, groups, 0, hSignalEvent,
                               numWaitEvents, phWaitEvents};
        if (list && timing_wanted(list)) {
            r = timing_launch(next, list, &s, forward, hKernel); /* records it too */
        } else {
            r = forward(hCommandList, hKernel, groups, hSignalEvent, numWaitEvents, phWaitEvents);
            if (r == ZE_RESULT_SUCCESS)
                records_add(list, &s);
        }
        if (r == ZE_RESULT_SUCCESS)
            check_note_signal(signal, &call);
        if (r == ZE_RESULT_SUCCESS)
            HAZARDS_APPENDED(.call = &call, .list = list, .kind = HAZARDS_LAUNCH,
                             .kernel = kernel, .signal = hSignalEvent,
                             .num_waits = numWaitEvents, .waits = phWaitEvents);
    }
    return CALLS_END(&call, r, LAUNCH_LOG_FMT, LAUNCH_LOG_ARGS(kernel));
}

/* The launch a loop makes, inline in each entry: this thread's last plain
 * launch again (launch_cache.h), with neither calls log nor trace to time it
 * for. It is then untimed and unnumbered, and a call of its own would cost
 * more than what it does. */
static inline __attribute__((always_inline)) ze_result_t
launch(const zeil_next_t *next, const char *name, ze_pfnCommandListAppendLaunchKernel_t forward,
       ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
       const ze_group_count_t *groups, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
       ze_event_handle_t *phWaitEvents)
{
    uint64_t generation = launch_cache_now();
    launch_cache_t *cached = launch_cache_find(hCommandList, hKernel, generation);
    /* The hazard checks see every launch: with them on, the checked path. */
    if (__builtin_expect(cached && !hSignalEvent && !numWaitEvents && groups &&
                             !calls_timed_settled() && !hazards_active(),
                         1)) {
        zeil_obj_t *list = cached->list;
        if (list->is_immediate || !atomic_load_explicit(&list->is_closed, memory_order_acquire)) {
            ze_result_t r = forward(hCommandList, hKernel, groups, NULL, 0, phWaitEvents);
            return r != ZE_RESULT_SUCCESS ? r : records_add_plain_launch(cached, groups, name);
        }
    }
    return launch_checked(next, name, forward, hCommandList, hKernel, groups, hSignalEvent,
                          numWaitEvents, phWaitEvents, generation);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendLaunchKernel(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchFuncArgs, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    return launch(next, "zeCommandListAppendLaunchKernel",
                  NEXT(ze_command_list_dditable_t, pfnAppendLaunchKernel), hCommandList, hKernel,
                  pLaunchFuncArgs, hSignalEvent, numWaitEvents, phWaitEvents);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendLaunchCooperativeKernel(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchFuncArgs, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    return launch(next, "zeCommandListAppendLaunchCooperativeKernel",
                  NEXT(ze_command_list_dditable_t, pfnAppendLaunchCooperativeKernel),
                  hCommandList, hKernel, pLaunchFuncArgs, hSignalEvent, numWaitEvents,
                  phWaitEvents);
}

/*
 * The other appends are generated (check_append on the list, objs[0], and
 * its events, the signal event objs[1] noted on success); their hooks check
 * the memory they touch, then record the work and tell the hazard checks.
 */

/* The group count lives in device memory: recorded as zero. */
ZEIL_PRE(zeCommandListAppendLaunchKernelIndirect)
{
    zeil_obj_t *kernel;
    ze_result_t r = check_launch_kernel(call, objs[0], a->hKernel, &kernel);
    CHECK_KEEP_FIRST(r, check_usm_range(call, objs[0], "pLaunchArgumentsBuffer",
                                        a->pLaunchArgumentsBuffer, sizeof(ze_group_count_t)));
    return r;
}

ZEIL_POST(zeCommandListAppendLaunchKernelIndirect)
{
    if (result != ZE_RESULT_SUCCESS)
        return;
    records_add(objs[0], &(zeil_submission_t){ZEIL_RECORD_LAUNCH, call, objs[2], NULL, 0,
                                              a->hSignalEvent, a->numWaitEvents,
                                              a->phWaitEvents});
    HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_LAUNCH, .kernel = objs[2],
                     .signal = a->hSignalEvent, .num_waits = a->numWaitEvents,
                     .waits = a->phWaitEvents);
}

ZEIL_PRE(zeCommandListAppendMemoryCopy)
{
    ze_result_t r = check_usm_range(call, objs[0], "dstptr", a->dstptr, a->size);
    CHECK_KEEP_FIRST(r, check_usm_range(call, objs[0], "srcptr", a->srcptr, a->size));
    return r;
}

ZEIL_POST(zeCommandListAppendMemoryCopy)
{
    if (result != ZE_RESULT_SUCCESS)
        return;
    records_add(objs[0], &(zeil_submission_t){ZEIL_RECORD_COPY, call, NULL, NULL, a->size,
                                              a->hSignalEvent, a->numWaitEvents,
                                              a->phWaitEvents});
    HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_COPY, .dst = a->dstptr,
                     .src = a->srcptr, .size = a->size, .signal = a->hSignalEvent,
                     .num_waits = a->numWaitEvents, .waits = a->phWaitEvents);
}

ZEIL_PRE(zeCommandListAppendMemoryFill)
{
    return check_usm_range(call, objs[0], "ptr", a->ptr, a->size);
}

ZEIL_POST(zeCommandListAppendMemoryFill)
{
    if (result != ZE_RESULT_SUCCESS)
        return;
    records_add(objs[0], &(zeil_submission_t){ZEIL_RECORD_FILL, call, NULL, NULL, a->size,
                                              a->hSignalEvent, a->numWaitEvents,
                                              a->phWaitEvents});
    HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_FILL, .dst = a->ptr,
                     .size = a->size, .signal = a->hSignalEvent, .num_waits = a->numWaitEvents,
                     .waits = a->phWaitEvents);
}

ZEIL_POST(zeCommandListAppendBarrier)
{
    if (result != ZE_RESULT_SUCCESS)
        return;
    records_add(objs[0], &(zeil_submission_t){ZEIL_RECORD_BARRIER, call, NULL, NULL, 0,
                                              a->hSignalEvent, a->numWaitEvents,
                                              a->phWaitEvents});
    HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_BARRIER,
                     .signal = a->hSignalEvent, .num_waits = a->numWaitEvents,
                     .waits = a->phWaitEvents);
}

ZEIL_POST(zeCommandListAppendWaitOnEvents)
{
    if (result == ZE_RESULT_SUCCESS)
        HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_WAIT,
                         .num_waits = a->numEvents, .waits = a->phEvents);
}

/* The event is checked as the list's signal event (objs[1]: the event). */
ZEIL_PRE(zeCommandListAppendSignalEvent)
{
    zeil_obj_t *list, *signal;
    return check_append(call, a->hCommandList, &list, a->hEvent, &signal, 0, NULL);
}

ZEIL_POST(zeCommandListAppendSignalEvent)
{
    if (result != ZE_RESULT_SUCCESS)
        return;
    check_note_signal(objs[1], call);
    HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_SIGNAL, .signal = a->hEvent);
}

/* A reset is no signal: the event is checked as a wait event would be. */
ZEIL_PRE(zeCommandListAppendEventReset)
{
    zeil_obj_t *list, *none;
    return check_append(call, a->hCommandList, &list, NULL, &none, 1, &a->hEvent);
}

ZEIL_POST(zeCommandListAppendEventReset)
{
    if (result != ZE_RESULT_SUCCESS)
        return;
    if (objs[1])
        atomic_store_explicit(&objs[1]->signalled_by_call, 0, memory_order_release);
    HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_RESET, .signal = a->hEvent);
}
