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

/* After a successful append: the event's signal is pending until a reset. */
static void note_signal(zeil_obj_t *signal, const zeil_call_t *call)
{
    if (signal)
        atomic_store_explicit(&signal->signalled_by_call, call->number, memory_order_relaxed);
}

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
    const launch_cache_t *cached = launch_cache_find(hCommandList, hKernel, generation);
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
        return CALLS_END(&call, r, "hCommandList=%p hKernel=%p (%s) groups=%ux%ux%u",
                         (void *)hCommandList, (void *)hKernel, kernel->name,
                         groups->groupCountX, groups->groupCountY, groups->groupCountZ);
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
            note_signal(signal, &call);
        if (r == ZE_RESULT_SUCCESS)
            HAZARDS_APPENDED(.call = &call, .list = list, .kind = HAZARDS_LAUNCH,
                             .kernel = kernel, .signal = hSignalEvent,
                             .num_waits = numWaitEvents, .waits = phWaitEvents);
    }
    return CALLS_END(&call, r, "hCommandList=%p hKernel=%p (%s) groups=%ux%ux%u hSignalEvent=%p "
                     "numWaitEvents=%u",
                     (void *)hCommandList, (void *)hKernel, kernel ? kernel->name : "?",
                     groups ? groups->groupCountX : 0, groups ? groups->groupCountY : 0,
                     groups ? groups->groupCountZ : 0, (void *)hSignalEvent, numWaitEvents);
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
    const launch_cache_t *cached = launch_cache_find(hCommandList, hKernel, generation);
    /* The hazard checks see every launch: with them on, the checked path. */
    if (__builtin_expect(cached && !hSignalEvent && !numWaitEvents && groups && !calls_timed() &&
                             !hazards_active(),
                         1)) {
        zeil_obj_t *list = cached->list;
        if (list->is_immediate || !atomic_load_explicit(&list->is_closed, memory_order_acquire)) {
            zeil_obj_t *kernel = cached->kernel;
            ze_result_t r = forward(hCommandList, hKernel, groups, NULL, 0, phWaitEvents);
            if (r == ZE_RESULT_SUCCESS)
                records_add_plain_launch(list->records, list, kernel, groups, name);
            return r;
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

/* The group count lives in device memory: recorded as zero. */
ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendLaunchKernelIndirect(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchArgumentsBuffer, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListAppendLaunchKernelIndirect");
    zeil_obj_t *list, *kernel, *signal;
    ze_result_t r = check_append(&call, hCommandList, &list, hSignalEvent, &signal,
                                 numWaitEvents, phWaitEvents);
    CHECK_KEEP_FIRST(r, check_launch_kernel(&call, list, hKernel, &kernel));
    CHECK_KEEP_FIRST(r, check_usm_range(&call, list, "pLaunchArgumentsBuffer",
                                        pLaunchArgumentsBuffer, sizeof(ze_group_count_t)));
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_list_dditable_t, pfnAppendLaunchKernelIndirect)(
            hCommandList, hKernel, pLaunchArgumentsBuffer, hSignalEvent, numWaitEvents,
            phWaitEvents);
    if (r == ZE_RESULT_SUCCESS) {
        note_signal(signal, &call);
        records_add(list, &(zeil_submission_t){ZEIL_RECORD_LAUNCH, &call, kernel, NULL, 0,
                                               hSignalEvent, numWaitEvents, phWaitEvents});
        HAZARDS_APPENDED(.call = &call, .list = list, .kind = HAZARDS_LAUNCH,
                         .kernel = kernel, .signal = hSignalEvent, .num_waits = numWaitEvents,
                         .waits = phWaitEvents);
    }
    return CALLS_END(&call, r, "hCommandList=%p hKernel=%p (%s)", (void *)hCommandList,
                     (void *)hKernel, kernel ? kernel->name : "?");
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendMemoryCopy(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList, void *dstptr,
    const void *srcptr, size_t size, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListAppendMemoryCopy");
    zeil_obj_t *list, *signal;
    ze_result_t r = check_append(&call, hCommandList, &list, hSignalEvent, &signal,
                                 numWaitEvents, phWaitEvents);
    CHECK_KEEP_FIRST(r, check_usm_range(&call, list, "dstptr", dstptr, size));
    CHECK_KEEP_FIRST(r, check_usm_range(&call, list, "srcptr", srcptr, size));
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_list_dditable_t, pfnAppendMemoryCopy)(
            hCommandList, dstptr, srcptr, size, hSignalEvent, numWaitEvents, phWaitEvents);
    if (r == ZE_RESULT_SUCCESS) {
        note_signal(signal, &call);
        records_add(list, &(zeil_submission_t){ZEIL_RECORD_COPY, &call, NULL, NULL, size,
                                               hSignalEvent, numWaitEvents, phWaitEvents});
        HAZARDS_APPENDED(.call = &call, .list = list, .kind = HAZARDS_COPY,
                         .dst = dstptr, .src = srcptr, .size = size, .signal = hSignalEvent,
                         .num_waits = numWaitEvents, .waits = phWaitEvents);
    }
    return CALLS_END(&call, r, "hCommandList=%p dstptr=%p srcptr=%p size=%zu",
                     (void *)hCommandList, dstptr, srcptr, size);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendMemoryFill(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList, void *ptr,
    const void *pattern, size_t pattern_size, size_t size, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListAppendMemoryFill");
    zeil_obj_t *list, *signal;
    ze_result_t r = check_append(&call, hCommandList, &list, hSignalEvent, &signal,
                                 numWaitEvents, phWaitEvents);
    CHECK_KEEP_FIRST(r, check_usm_range(&call, list, "ptr", ptr, size));
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_list_dditable_t, pfnAppendMemoryFill)(
            hCommandList, ptr, pattern, pattern_size, size, hSignalEvent, numWaitEvents,
            phWaitEvents);
    if (r == ZE_RESULT_SUCCESS) {
        note_signal(signal, &call);
        records_add(list, &(zeil_submission_t){ZEIL_RECORD_FILL, &call, NULL, NULL, size,
                                               hSignalEvent, numWaitEvents, phWaitEvents});
        HAZARDS_APPENDED(.call = &call, .list = list, .kind = HAZARDS_FILL, .dst = ptr,
                         .size = size, .signal = hSignalEvent, .num_waits = numWaitEvents,
                         .waits = phWaitEvents);
    }
    return CALLS_END(&call, r, "hCommandList=%p ptr=%p pattern_size=%zu size=%zu",
                     (void *)hCommandList, ptr, pattern_size, size);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendBarrier(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListAppendBarrier");
    zeil_obj_t *list, *signal;
    ze_result_t r = check_append(&call, hCommandList, &list, hSignalEvent, &signal,
                                 numWaitEvents, phWaitEvents);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_list_dditable_t, pfnAppendBarrier)(hCommandList, hSignalEvent,
                                                               numWaitEvents, phWaitEvents);
    if (r == ZE_RESULT_SUCCESS) {
        note_signal(signal, &call);
        records_add(list, &(zeil_submission_t){ZEIL_RECORD_BARRIER, &call, NULL, NULL, 0,
                                               hSignalEvent, numWaitEvents, phWaitEvents});
        HAZARDS_APPENDED(.call = &call, .list = list, .kind = HAZARDS_BARRIER,
                         .signal = hSignalEvent, .num_waits = numWaitEvents,
                         .waits = phWaitEvents);
    }
    return CALLS_END(&call, r, "hCommandList=%p hSignalEvent=%p numWaitEvents=%u",
                     (void *)hCommandList, (void *)hSignalEvent, numWaitEvents);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendSignalEvent(const zeil_next_t *next,
                                                                ze_command_list_handle_t hCommandList,
                                                                ze_event_handle_t hEvent)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListAppendSignalEvent");
    zeil_obj_t *list, *signal;
    ze_result_t r = check_append(&call, hCommandList, &list, hEvent, &signal, 0, NULL);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_list_dditable_t, pfnAppendSignalEvent)(hCommandList, hEvent);
    if (r == ZE_RESULT_SUCCESS) {
        note_signal(signal, &call);
        HAZARDS_APPENDED(.call = &call, .list = list, .kind = HAZARDS_SIGNAL,
                         .signal = hEvent);
    }
    return CALLS_END(&call, r, "hCommandList=%p hEvent=%p", (void *)hCommandList, (void *)hEvent);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendWaitOnEvents(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList, uint32_t numEvents,
    ze_event_handle_t *phEvents)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListAppendWaitOnEvents");
    zeil_obj_t *list, *signal;
    ze_result_t r = check_append(&call, hCommandList, &list, NULL, &signal, numEvents, phEvents);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_list_dditable_t, pfnAppendWaitOnEvents)(hCommandList, numEvents,
                                                                    phEvents);
    if (r == ZE_RESULT_SUCCESS)
        HAZARDS_APPENDED(.call = &call, .list = list, .kind = HAZARDS_WAIT,
                         .num_waits = numEvents, .waits = phEvents);
    return CALLS_END(&call, r, "hCommandList=%p numEvents=%u", (void *)hCommandList, numEvents);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendEventReset(const zeil_next_t *next,
                                                               ze_command_list_handle_t hCommandList,
                                                               ze_event_handle_t hEvent)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListAppendEventReset");
    zeil_obj_t *list, *event;
    /* A reset is no signal: check the event as a wait event would be. */
    ze_result_t r = check_append(&call, hCommandList, &list, NULL, &event, 1, &hEvent);
    if (r == ZE_RESULT_SUCCESS)
        r = check_handle(&call, "hEvent", hEvent, ZEIL_KIND_EVENT, &event);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_list_dditable_t, pfnAppendEventReset)(hCommandList, hEvent);
    if (r == ZE_RESULT_SUCCESS && event)
        atomic_store_explicit(&event->signalled_by_call, 0, memory_order_release);
    if (r == ZE_RESULT_SUCCESS)
        HAZARDS_APPENDED(.call = &call, .list = list, .kind = HAZARDS_RESET,
                         .signal = hEvent);
    return CALLS_END(&call, r, "hCommandList=%p hEvent=%p", (void *)hCommandList, (void *)hEvent);
}
