/* Kernel launches. A launch a loop makes takes a hand-tuned fast path: no
 * lock, no allocation, no shared read-modify-write in steady state. Any other
 * takes the generated intercept (zeil_checked_<api>), whose checks and hooks
 * below decide whether the fast path may repeat it. */
#include "zeil_hooks.h"

#include "records_plain_launch.h"
#include "zo_trace_launch.h"

/* A plain launch takes no call number (its record's key orders it, calls.h). */
ZEIL_UNNUMBERED(zeCommandListAppendLaunchKernel);
ZEIL_UNNUMBERED(zeCommandListAppendLaunchCooperativeKernel);
ZEIL_HOOKS_OF(zeCommandListAppendLaunchCooperativeKernel, zeCommandListAppendLaunchKernel);
ZEIL_HOOKS_OF(zeCommandListAppendLaunchKernelWithParameters, zeCommandListAppendLaunchKernel);

/* What the fast path hands its checked intercept (zero for a launch that came
 * otherwise): the cache generation it loaded before the checks looked the
 * objects up (launch_cache.h), and the driver's launch, for timing_launch. */
static _Thread_local struct {
    uint64_t generation;
    ze_pfnCommandListAppendLaunchKernel_t forward;
} launch_via;

/* Traced, with neither the calls log nor the hazard checks to hear of it. */
static inline int launch_trace_only(void)
{
    return zo_trace_enabled() && zeil_settings_data.log_level < ZEIL_LOG_CALLS &&
           !hazards_plain_launch_checked();
}

/* The end of an unnumbered cached launch's API span, and its one trace entry
 * (zo_trace_launch), once its record took the description desc and key seq. */
static inline __attribute__((always_inline)) void launch_trace_end(
    calls_thread_t *t, const zeil_call_t *call, uint64_t seq, ze_command_list_handle_t list,
    const ze_group_count_t *groups, const records_launch_desc_t *desc)
{
    uint64_t end = zo_now_ns();
    const uint32_t counts[3] = {groups->groupCountX, groups->groupCountY, groups->groupCountZ};
    zo_trace_launch(&t->trace_ring, t->number, call->name, 0, seq, call->start_ns,
                    end < call->start_ns ? call->start_ns : end, list, counts, &desc->shared);
}

/* A cached launch traced, with neither the calls log nor the hazard checks
 * on: timed as calls_begin_unnumbered and CALLS_END time it (the trace's
 * clock), recorded through the entry's description and handed to the trace
 * in one entry (records_add_timed_launch: else as launch_cached does). */
static inline __attribute__((always_inline)) ze_result_t launch_traced(
    const char *name, ze_pfnCommandListAppendLaunchKernel_t forward, calls_thread_t *t,
    launch_cache_t *cached, ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *groups, ze_event_handle_t *phWaitEvents)
{
    const zeil_call_t call = {name, 0, zo_now_ns(), t};
    ze_result_t r = forward(hCommandList, hKernel, groups, NULL, 0, phWaitEvents);
    if (r != ZE_RESULT_SUCCESS)
        return calls_end_span(&call, r);
    uint64_t seq;
    const records_launch_desc_t *desc = records_add_timed_launch(t, cached, &call, groups, &seq);
    if (!desc)
        return calls_end_span(&call, r);
    launch_trace_end(t, &call, seq, hCommandList, groups, desc);
    return ZE_RESULT_SUCCESS;
}

/* A cached launch (launch_cache.h) with a calls log or trace to time it for,
 * or hazard checks on: unnumbered and unchecked as on the fast path, and
 * recorded as ZEIL_AFTER(zeCommandListAppendLaunchKernel) records it. Traced
 * without the calls log, its record points at the entry's description and
 * the trace gets the submission and the API span in one entry of a few
 * stores (zo_trace_launch), formatted later by the trace's writer. */
static __attribute__((noinline)) ze_result_t launch_cached(
    const char *name, ze_pfnCommandListAppendLaunchKernel_t forward, launch_cache_t *cached,
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchFuncArgs, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents)
{
    zeil_call_t call;
    zeil_obj_t *list = cached->list, *kernel = cached->kernel;
    calls_begin_unnumbered(&call, name);
    ze_result_t r = forward(hCommandList, hKernel, pLaunchFuncArgs, NULL, 0, phWaitEvents);
    if (r != ZE_RESULT_SUCCESS)
        return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeCommandListAppendLaunchKernel,
                         ZEIL_ARGS_zeCommandListAppendLaunchKernel);
    calls_thread_t *t = calls_thread_here();
    const records_launch_desc_t *desc = NULL;
    uint64_t seq = 0;
    if (call.start_ns && !call.number && zo_trace_enabled() &&
        zeil_settings_data.log_level < ZEIL_LOG_CALLS)
        desc = records_add_timed_launch(t, cached, &call, pLaunchFuncArgs, &seq);
    else
        records_add_held(list->records, list,
                         &(zeil_submission_t){.kind = ZEIL_RECORD_LAUNCH,
                                              .call = &call,
                                              .kernel = kernel,
                                              .group_count = pLaunchFuncArgs});
    if (hazards_plain_launch_checked())
        hazards_appended(&(hazards_append_t){
            .call = &call, .list = list, .kind = HAZARDS_LAUNCH, .kernel = kernel});
    if (!desc)
        return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeCommandListAppendLaunchKernel,
                         ZEIL_ARGS_zeCommandListAppendLaunchKernel);
    launch_trace_end(t, &call, seq, hCommandList, pLaunchFuncArgs, desc);
    return r;
}

/* A cached plain launch the fast path leaves to its own call (so that its
 * one branch before the driver's call is all a plain launch pays): timed or
 * not settled (launch_cached), or one the hazard checks hear of (guesses,
 * declared accesses), after the driver took it, with the plain record. */
static __attribute__((noinline)) ze_result_t launch_heard(
    const char *name, ze_pfnCommandListAppendLaunchKernel_t forward, calls_thread_t *t,
    launch_cache_t *cached, ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *groups, ze_event_handle_t *phWaitEvents)
{
    if (!calls_are_quiet()) {
        if (launch_trace_only())
            return launch_traced(name, forward, t, cached, hCommandList, hKernel, groups,
                                 phWaitEvents);
        return launch_cached(name, forward, cached, hCommandList, hKernel, groups, NULL, 0,
                             phWaitEvents);
    }
    ze_result_t r = forward(hCommandList, hKernel, groups, NULL, 0, phWaitEvents);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    hazards_plain_launched(name, cached->list, cached->kernel, t->attribution);
    return records_add_plain_launch(t, cached, groups, name);
}

/* One of this thread's last plain launches again, with nothing to log or
 * trace: a call of its own would cost more than what it does. The hazard
 * checks, when a plain launch means anything to them (guesses, declared
 * accesses), hear of it after the driver took it, as launch_cached tells them.
 * The loader calls it straight (zeil_direct_<api>_<shim>, generated with the
 * other direct entries: zeil_directs_t) or through the shim's trampoline
 * (zeil_icpt_<api>). */
#define FAST_LAUNCH(api, member) \
    static inline __attribute__((always_inline)) ze_result_t zeil_fast_##api( \
        const zeil_next_t *next, ze_command_list_handle_t hCommandList, \
        ze_kernel_handle_t hKernel, const ze_group_count_t *groups, \
        ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) \
    { \
        calls_thread_t *t = calls_thread_here(); \
        uint64_t generation = launch_cache_now(); \
        launch_cache_t *cached = launch_cache_find(t, hCommandList, hKernel, generation); \
        if (__builtin_expect(cached && !hSignalEvent && !numWaitEvents && groups && \
                                 !atomic_load_explicit(cached->closed, memory_order_acquire), \
                             1)) { \
            /* timed, not settled yet, or heard by the hazard checks */ \
            if (__builtin_expect(!calls_are_quiet() || hazards_plain_launch_checked(), 0)) \
                return launch_heard(#api, NEXT(ze_command_list_dditable_t, member), t, cached, \
                                    hCommandList, hKernel, groups, phWaitEvents); \
            ze_result_t r = NEXT(ze_command_list_dditable_t, \
                                 member)(hCommandList, hKernel, groups, NULL, 0, phWaitEvents); \
            return r != ZE_RESULT_SUCCESS ? r : records_add_plain_launch(t, cached, groups, #api); \
        } \
        launch_via.generation = generation; \
        launch_via.forward = NEXT(ze_command_list_dditable_t, member); \
        return zeil_checked_##api(next, hCommandList, hKernel, groups, hSignalEvent, \
                                  numWaitEvents, phWaitEvents); \
    } \
    ze_result_t ZE_APICALL zeil_icpt_##api( \
        const zeil_next_t *next, ze_command_list_handle_t hCommandList, \
        ze_kernel_handle_t hKernel, const ze_group_count_t *groups, \
        ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) \
    { \
        return zeil_fast_##api(next, hCommandList, hKernel, groups, hSignalEvent, numWaitEvents, \
                               phWaitEvents); \
    }
FAST_LAUNCH(zeCommandListAppendLaunchKernel, pfnAppendLaunchKernel)
FAST_LAUNCH(zeCommandListAppendLaunchCooperativeKernel, pfnAppendLaunchCooperativeKernel)

/* A timed launch (ZEIL_TIMING) is answered by timing_launch, which forwards
 * it with a timestamp event and records it. */
ZEIL_PRE(zeCommandListAppendLaunchKernel)
{
    zeil_obj_t *kernel;
    if (a->hSignalEvent || a->numWaitEvents) /* a number orders its events */
        calls_number(call);
    /* Null arguments are the driver's to refuse, with its own codes. */
    ze_result_t r = a->pLaunchFuncArgs && (!a->numWaitEvents || a->phWaitEvents)
                        ? check_launch_kernel(call, objs[0], a->hKernel, &kernel)
                        : ZE_RESULT_SUCCESS;
    if (r != ZE_RESULT_SUCCESS || !objs[0] || !timing_wanted(objs[0]) || !launch_via.forward)
        return r;
    calls_number(call);
    st->answered = 1;
    return timing_launch(next, objs[0],
                         &(zeil_submission_t){
                             .kind = ZEIL_RECORD_LAUNCH,
                             .call = call,
                             .kernel = objs[2],
                             .group_count = a->pLaunchFuncArgs,
                             .signal_event = a->hSignalEvent,
                             .num_wait_events = a->numWaitEvents,
                             .wait_events = a->phWaitEvents,
                         },
                         launch_via.forward, a->hKernel);
}
ZEIL_AFTER(zeCommandListAppendLaunchKernel)
{
    zeil_obj_t *list = objs[0], *kernel = objs[2];
    uint64_t generation = launch_via.generation;
    launch_via.generation = 0;
    launch_via.forward = NULL;
    if (result == ZE_RESULT_SUCCESS && !st->answered)
        records_add(list, &(zeil_submission_t){
                              .kind = ZEIL_RECORD_LAUNCH,
                              .call = call,
                              .kernel = kernel,
                              .group_count = a->pLaunchFuncArgs,
                              .signal_event = a->hSignalEvent,
                              .num_wait_events = a->numWaitEvents,
                              .wait_events = a->phWaitEvents,
                          });
    if (result == ZE_RESULT_SUCCESS)
        HAZARDS_APPENDED(.call = call, .list = list, .kind = HAZARDS_LAUNCH, .kernel = kernel,
                         .signal = a->hSignalEvent, .num_waits = a->numWaitEvents,
                         .waits = a->phWaitEvents);
    /* Plain: every check found nothing (their own predicates, checks.h) and
     * nothing is timed. The fast path may repeat it while both live. */
    if (result == ZE_RESULT_SUCCESS && generation && list && kernel && !a->hSignalEvent &&
        !a->numWaitEvents && a->pLaunchFuncArgs && list->records && !timing_wanted(list) &&
        check_contexts_agree(list, kernel) && check_devices_related(list->device, kernel->device) &&
        check_kernel_arg_missing(kernel) < 0)
        launch_cache_remember(a->hCommandList, a->hKernel, list, kernel, generation);
}

/* API 1.14: the launch passes the kernel's arguments and group size itself,
 * so none can be missing (no E041); afterwards they are the kernel's. */
ZEIL_PRE(zeCommandListAppendLaunchKernelWithArguments)
{
    zeil_obj_t *kernel;
    return check_kernel_of_list(call, objs[0], a->hKernel, &kernel);
}
ZEIL_POST(zeCommandListAppendLaunchKernelWithArguments)
{
    zeil_obj_t *kernel = objs[2];
    records_add(objs[0], &(zeil_submission_t){
                             .kind = ZEIL_RECORD_LAUNCH,
                             .call = call,
                             .kernel = kernel,
                             .group_count = &a->groupCounts,
                             .signal_event = a->hSignalEvent,
                             .num_wait_events = a->numWaitEvents,
                             .wait_events = a->phWaitEvents,
                         });
    const uint32_t size[3] = {a->groupSizes.groupSizeX, a->groupSizes.groupSizeY,
                              a->groupSizes.groupSizeZ};
    if (kernel && a->pArguments)
        registry_set_group_size(kernel, size);
    if (kernel && a->pArguments)
        atomic_store_explicit(&kernel->args_set, ~0ull, memory_order_relaxed);
}
