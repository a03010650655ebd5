/*
 * Kernel launches. A launch a loop makes goes through a hand-tuned fast
 * path: no lock, no allocation, no shared read-modify-write in steady state.
 * Any other launch takes the generated intercept (zeil_checked_<api>), whose
 * checks and hooks below decide whether the fast path may repeat it.
 */
#include "intercepts.h"

#include "checks.h"
#include "hazards/hazards.h"
#include "launch_cache.h"
#include "records.h"
#include "timing.h"
#include "zeil_hooks.h"

#include <string.h>

/* Plain launches take no call number (their record's key orders them); the
 * hooks number one that signals, waits or is timed. */
ZEIL_UNNUMBERED(zeCommandListAppendLaunchKernel);
ZEIL_UNNUMBERED(zeCommandListAppendLaunchCooperativeKernel);
ZEIL_HOOKS_OF(zeCommandListAppendLaunchCooperativeKernel, zeCommandListAppendLaunchKernel);
ZEIL_HOOKS_OF(zeCommandListAppendLaunchKernelWithParameters, zeCommandListAppendLaunchKernel);

/* The cache generation the fast path loaded before the checks looked the
 * objects up (launch_cache.h); 0 when the launch did not come that way. */
static _Thread_local uint64_t launch_generation;

typedef ze_result_t (*launch_checked_t)(const zeil_next_t *, ze_command_list_handle_t,
                                       ze_kernel_handle_t, const ze_group_count_t *,
                                       ze_event_handle_t, uint32_t, ze_event_handle_t *);

static inline __attribute__((always_inline)) ze_result_t
launch(const zeil_next_t *next, const char *name, ze_pfnCommandListAppendLaunchKernel_t forward,
       launch_checked_t checked, ze_command_list_handle_t hCommandList,
       ze_kernel_handle_t hKernel, const ze_group_count_t *groups, ze_event_handle_t hSignalEvent,
       uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    uint64_t generation = launch_cache_now();
    const launch_cache_t *cached = launch_cache_find(hCommandList, hKernel, generation);
    /* This thread's last plain launch again, with nothing to log, trace or
     * check for hazards: a call of its own would cost more than it does. */
    if (__builtin_expect(cached && !hSignalEvent && !numWaitEvents && groups && !calls_timed() &&
                             !hazards_active(),
                         1)) {
        zeil_obj_t *list = cached->list;
        if (list->is_immediate || !atomic_load_explicit(&list->is_closed, memory_order_acquire)) {
            ze_result_t r = forward(hCommandList, hKernel, groups, NULL, 0, phWaitEvents);
            if (r == ZE_RESULT_SUCCESS)
                records_add_plain_launch(list->records, list, cached->kernel, groups, name);
            return r;
        }
    }
    launch_generation = generation;
    return checked(next, hCommandList, hKernel, groups, hSignalEvent,
                   numWaitEvents, phWaitEvents);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendLaunchKernel(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchFuncArgs, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    return launch(next, "zeCommandListAppendLaunchKernel",
                  NEXT(ze_command_list_dditable_t, pfnAppendLaunchKernel),
                  zeil_checked_zeCommandListAppendLaunchKernel, hCommandList, hKernel,
                  pLaunchFuncArgs, hSignalEvent, numWaitEvents, phWaitEvents);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendLaunchCooperativeKernel(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchFuncArgs, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    return launch(next, "zeCommandListAppendLaunchCooperativeKernel",
                  NEXT(ze_command_list_dditable_t, pfnAppendLaunchCooperativeKernel),
                  zeil_checked_zeCommandListAppendLaunchCooperativeKernel, hCommandList, hKernel,
                  pLaunchFuncArgs, hSignalEvent, numWaitEvents, phWaitEvents);
}

/* The hooks of every launch but the indirect one. A timed launch (ZEIL_TIMING)
 * is answered by timing_launch, which forwards it with a timestamp event. */
ZEIL_PRE(zeCommandListAppendLaunchKernel)
{
    if (a->hSignalEvent || a->numWaitEvents)
        calls_number(call);
    zeil_obj_t *kernel;
    /* Null arguments are the driver's to refuse, with its own codes. */
    ze_result_t r = a->pLaunchFuncArgs && (!a->numWaitEvents || a->phWaitEvents)
                        ? check_launch_kernel(call, objs[0], a->hKernel, &kernel)
                        : ZE_RESULT_SUCCESS;
    ze_pfnCommandListAppendLaunchKernel_t forward =
        strcmp(call->name, "zeCommandListAppendLaunchKernel") == 0
            ? NEXT(ze_command_list_dditable_t, pfnAppendLaunchKernel)
        : strcmp(call->name, "zeCommandListAppendLaunchCooperativeKernel") == 0
            ? NEXT(ze_command_list_dditable_t, pfnAppendLaunchCooperativeKernel)
            : NULL;
    if (r != ZE_RESULT_SUCCESS || !objs[0] || !timing_wanted(objs[0]) || !forward)
        return r;
    calls_number(call);
    st->answered = 1;
    return timing_launch(next, objs[0],
                         &(zeil_submission_t){ZEIL_RECORD_LAUNCH, call, objs[2],
                                              a->pLaunchFuncArgs, 0, a->hSignalEvent,
                                              a->numWaitEvents, a->phWaitEvents},
                         forward, a->hKernel);
}

ZEIL_POST(zeCommandListAppendLaunchKernel)
{
    zeil_obj_t *list = objs[0], *kernel = objs[2];
    uint64_t generation = launch_generation;
    launch_generation = 0;
    if (result != ZE_RESULT_SUCCESS)
        return;
    if (!st->answered) /* a timed launch is recorded already */
        records_add(list, &(zeil_submission_t){ZEIL_RECORD_LAUNCH, call, kernel,
                                               a->pLaunchFuncArgs, 0, a->hSignalEvent,
                                               a->numWaitEvents, a->phWaitEvents});
    HAZARDS_APPENDED(.call = call, .list = list, .kind = HAZARDS_LAUNCH, .kernel = kernel,
                     .signal = a->hSignalEvent, .num_waits = a->numWaitEvents,
                     .waits = a->phWaitEvents);
    /* Plain: every check above found nothing (their own predicates, checks.h),
     * and nothing is timed. The fast path may repeat it while both live. */
    if (generation && list && kernel && !a->hSignalEvent && !a->numWaitEvents &&
        a->pLaunchFuncArgs && list->records && !timing_wanted(list) &&
        check_contexts_agree(list, kernel) &&
        check_devices_related(list->device, kernel->device) &&
        check_kernel_arg_missing(kernel) < 0)
        launch_cache_remember(a->hCommandList, a->hKernel, list, kernel, generation);
}

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

/* API 1.14: the launch passes the kernel's arguments and group size itself,
 * so no argument can be missing (E041 does not apply); afterwards they are
 * the kernel's. */
ZEIL_PRE(zeCommandListAppendLaunchKernelWithArguments)
{
    zeil_obj_t *kernel;
    return check_kernel_of_list(call, objs[0], a->hKernel, &kernel);
}

ZEIL_POST(zeCommandListAppendLaunchKernelWithArguments)
{
    zeil_obj_t *kernel = objs[2];
    if (result != ZE_RESULT_SUCCESS)
        return;
    records_add(objs[0], &(zeil_submission_t){ZEIL_RECORD_LAUNCH, call, kernel, &a->groupCounts,
                                              0, a->hSignalEvent, a->numWaitEvents,
                                              a->phWaitEvents});
    if (!kernel || !a->pArguments)
        return;
    atomic_store_explicit(&kernel->args_set, ~0ull, memory_order_relaxed);
    atomic_store_explicit(&kernel->group_size[0], a->groupSizes.groupSizeX, memory_order_relaxed);
    atomic_store_explicit(&kernel->group_size[1], a->groupSizes.groupSizeY, memory_order_relaxed);
    atomic_store_explicit(&kernel->group_size[2], a->groupSizes.groupSizeZ, memory_order_relaxed);
}
