/*
 * Intercepts of the appends and launches of API versions after 1.4
 * (declared by compat/ze_compat.h where the installed headers are older;
 * the shim installs each only for loaders that ask for its version).
 *
 * Each is the same three steps as zeCommandListAppendLaunchKernel's general
 * path: a pre step that checks the list, its events and what the entry adds
 * (kernel, ranges, lists), the driver's call, and a post step that notes the
 * signal and records the submission. The steps are shared helpers here, so
 * that each intercept only says what is particular to its entry.
 */
#include "intercepts.h"

#include "checks.h"
#include "zeil_hooks.h"
#include "records.h"

/* One append in flight. */
typedef struct append {
    zeil_call_t call;
    zeil_obj_t *list, *signal, *kernel;
    ze_result_t result; /* the first finding, or success: the call may go on */
} append_t;

/* Pre: the list (alive, open), its signal and wait events (alive, of its
 * context, signal reset since its last signal). */
static void append_pre(append_t *a, const char *name, ze_command_list_handle_t list,
                       ze_event_handle_t signal, uint32_t num_waits,
                       const ze_event_handle_t *waits)
{
    calls_begin(&a->call, name);
    a->kernel = NULL;
    a->result = check_append(&a->call, list, &a->list, signal, &a->signal, num_waits, waits);
}

/* Post: after the driver accepted it, the signal is pending until a reset and
 * the submission is on the list's records (kind: what it records, or -1). */
static ze_result_t append_post(append_t *a, ze_result_t driver_result, int kind,
                               const ze_group_count_t *groups, size_t bytes,
                               ze_event_handle_t signal, uint32_t num_waits,
                               ze_event_handle_t *waits)
{
    if (driver_result != ZE_RESULT_SUCCESS)
        return driver_result;
    check_note_signal(a->signal, &a->call);
    if (kind >= 0)
        records_add(a->list, &(zeil_submission_t){(zeil_record_kind_t)kind, &a->call, a->kernel,
                                                  groups, bytes, signal, num_waits, waits});
    return driver_result;
}

/* API 1.14: a launch whose extensions come in pNext (cooperative, ...). */
ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendLaunchKernelWithParameters(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pGroupCounts, const void *pNext, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    append_t a;
    append_pre(&a, "zeCommandListAppendLaunchKernelWithParameters", hCommandList, hSignalEvent,
               numWaitEvents, phWaitEvents);
    CHECK_KEEP_FIRST(a.result, check_launch_kernel(&a.call, a.list, hKernel, &a.kernel));
    ze_result_t r = a.result;
    if (r == ZE_RESULT_SUCCESS)
        r = append_post(&a,
                        NEXT(ze_command_list_dditable_t, pfnAppendLaunchKernelWithParameters)(
                            hCommandList, hKernel, pGroupCounts, pNext, hSignalEvent,
                            numWaitEvents, phWaitEvents),
                        ZEIL_RECORD_LAUNCH, pGroupCounts, 0, hSignalEvent, numWaitEvents,
                        phWaitEvents);
    return CALLS_END(&a.call, r, ZEIL_ARGS_FMT_zeCommandListAppendLaunchKernelWithParameters, ZEIL_ARGS_zeCommandListAppendLaunchKernelWithParameters);
}

/* API 1.14: the launch passes the kernel's arguments and group size itself,
 * so no argument can be missing; afterwards they are the kernel's. */
ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendLaunchKernelWithArguments(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t groupCounts, const ze_group_size_t groupSizes, void **pArguments,
    const void *pNext, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents)
{
    append_t a;
    append_pre(&a, "zeCommandListAppendLaunchKernelWithArguments", hCommandList, hSignalEvent,
               numWaitEvents, phWaitEvents);
    CHECK_KEEP_FIRST(a.result, check_kernel_of_list(&a.call, a.list, hKernel, &a.kernel));
    ze_result_t r = a.result;
    if (r == ZE_RESULT_SUCCESS)
        r = append_post(&a,
                        NEXT(ze_command_list_dditable_t, pfnAppendLaunchKernelWithArguments)(
                            hCommandList, hKernel, groupCounts, groupSizes, pArguments, pNext,
                            hSignalEvent, numWaitEvents, phWaitEvents),
                        ZEIL_RECORD_LAUNCH, &groupCounts, 0, hSignalEvent, numWaitEvents,
                        phWaitEvents);
    if (r == ZE_RESULT_SUCCESS && a.kernel && pArguments) {
        atomic_store_explicit(&a.kernel->args_set, ~0ull, memory_order_relaxed);
        atomic_store_explicit(&a.kernel->group_size[0], groupSizes.groupSizeX,
                              memory_order_relaxed);
        atomic_store_explicit(&a.kernel->group_size[1], groupSizes.groupSizeY,
                              memory_order_relaxed);
        atomic_store_explicit(&a.kernel->group_size[2], groupSizes.groupSizeZ,
                              memory_order_relaxed);
    }
    return CALLS_END(&a.call, r, ZEIL_ARGS_FMT_zeCommandListAppendLaunchKernelWithArguments, ZEIL_ARGS_zeCommandListAppendLaunchKernelWithArguments);
}

/* API 1.16: a copy with extensions in pNext. */
ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendMemoryCopyWithParameters(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList, void *dstptr,
    const void *srcptr, size_t size, const void *pNext, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    append_t a;
    append_pre(&a, "zeCommandListAppendMemoryCopyWithParameters", hCommandList, hSignalEvent,
               numWaitEvents, phWaitEvents);
    CHECK_KEEP_FIRST(a.result, check_usm_range(&a.call, a.list, "dstptr", dstptr, size));
    CHECK_KEEP_FIRST(a.result, check_usm_range(&a.call, a.list, "srcptr", srcptr, size));
    ze_result_t r = a.result;
    if (r == ZE_RESULT_SUCCESS)
        r = append_post(&a,
                        NEXT(ze_command_list_dditable_t, pfnAppendMemoryCopyWithParameters)(
                            hCommandList, dstptr, srcptr, size, pNext, hSignalEvent,
                            numWaitEvents, phWaitEvents),
                        ZEIL_RECORD_COPY, NULL, size, hSignalEvent, numWaitEvents, phWaitEvents);
    return CALLS_END(&a.call, r, ZEIL_ARGS_FMT_zeCommandListAppendMemoryCopyWithParameters, ZEIL_ARGS_zeCommandListAppendMemoryCopyWithParameters);
}

/* API 1.16: a fill with extensions in pNext. */
ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendMemoryFillWithParameters(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList, void *ptr,
    const void *pattern, size_t patternSize, size_t size, const void *pNext,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    append_t a;
    append_pre(&a, "zeCommandListAppendMemoryFillWithParameters", hCommandList, hSignalEvent,
               numWaitEvents, phWaitEvents);
    CHECK_KEEP_FIRST(a.result, check_usm_range(&a.call, a.list, "ptr", ptr, size));
    ze_result_t r = a.result;
    if (r == ZE_RESULT_SUCCESS)
        r = append_post(&a,
                        NEXT(ze_command_list_dditable_t, pfnAppendMemoryFillWithParameters)(
                            hCommandList, ptr, pattern, patternSize, size, pNext, hSignalEvent,
                            numWaitEvents, phWaitEvents),
                        ZEIL_RECORD_FILL, NULL, size, hSignalEvent, numWaitEvents, phWaitEvents);
    return CALLS_END(&a.call, r, ZEIL_ARGS_FMT_zeCommandListAppendMemoryFillWithParameters, ZEIL_ARGS_zeCommandListAppendMemoryFillWithParameters);
}

/* API 1.17: a host function runs in the list's order; nothing of it is a
 * device submission to record. */
ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendHostFunction(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList,
    ze_host_function_callback_t pHostFunction, void *pUserData, const void *pNext,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    append_t a;
    append_pre(&a, "zeCommandListAppendHostFunction", hCommandList, hSignalEvent, numWaitEvents,
               phWaitEvents);
    ze_result_t r = a.result;
    if (r == ZE_RESULT_SUCCESS)
        r = append_post(&a,
                        NEXT(ze_command_list_dditable_t, pfnAppendHostFunction)(
                            hCommandList, pHostFunction, pUserData, pNext, hSignalEvent,
                            numWaitEvents, phWaitEvents),
                        -1, NULL, 0, hSignalEvent, numWaitEvents, phWaitEvents);
    return CALLS_END(&a.call, r, ZEIL_ARGS_FMT_zeCommandListAppendHostFunction, ZEIL_ARGS_zeCommandListAppendHostFunction);
}

/* The lists an immediate list runs: closed regular lists, as a queue runs
 * them (E021, E022); the target is an append like any other. */
static void append_lists_pre(append_t *a, const char *name, ze_command_list_handle_t target,
                             uint32_t count, ze_command_list_handle_t *lists,
                             ze_event_handle_t signal, uint32_t num_waits,
                             ze_event_handle_t *waits)
{
    append_pre(a, name, target, signal, num_waits, waits);
    CHECK_KEEP_FIRST(a->result, check_execute(&a->call, NULL, count, lists, NULL));
}

/* API 1.9 (experimental, its own table). */
ze_result_t ZE_APICALL zeil_icpt_zeCommandListImmediateAppendCommandListsExp(
    const zeil_next_t *next, ze_command_list_handle_t hCommandListImmediate,
    uint32_t numCommandLists, ze_command_list_handle_t *phCommandLists,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    append_t a;
    append_lists_pre(&a, "zeCommandListImmediateAppendCommandListsExp", hCommandListImmediate,
                     numCommandLists, phCommandLists, hSignalEvent, numWaitEvents, phWaitEvents);
    ze_result_t r = a.result;
    if (r == ZE_RESULT_SUCCESS)
        r = append_post(&a,
                        NEXT(ze_command_list_exp_dditable_t, pfnImmediateAppendCommandListsExp)(
                            hCommandListImmediate, numCommandLists, phCommandLists,
                            hSignalEvent, numWaitEvents, phWaitEvents),
                        -1, NULL, 0, hSignalEvent, numWaitEvents, phWaitEvents);
    return CALLS_END(&a.call, r, ZEIL_ARGS_FMT_zeCommandListImmediateAppendCommandListsExp, ZEIL_ARGS_zeCommandListImmediateAppendCommandListsExp);
}

/* API 1.16: the same in the core table, with extensions in pNext. */
ze_result_t ZE_APICALL zeil_icpt_zeCommandListImmediateAppendCommandListsWithParameters(
    const zeil_next_t *next, ze_command_list_handle_t hCommandListImmediate,
    uint32_t numCommandLists, ze_command_list_handle_t *phCommandLists, const void *pNext,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    append_t a;
    append_lists_pre(&a, "zeCommandListImmediateAppendCommandListsWithParameters",
                     hCommandListImmediate, numCommandLists, phCommandLists, hSignalEvent,
                     numWaitEvents, phWaitEvents);
    ze_result_t r = a.result;
    if (r == ZE_RESULT_SUCCESS)
        r = append_post(&a,
                        NEXT(ze_command_list_dditable_t,
                             pfnImmediateAppendCommandListsWithParameters)(
                            hCommandListImmediate, numCommandLists, phCommandLists, pNext,
                            hSignalEvent, numWaitEvents, phWaitEvents),
                        -1, NULL, 0, hSignalEvent, numWaitEvents, phWaitEvents);
    return CALLS_END(&a.call, r, ZEIL_ARGS_FMT_zeCommandListImmediateAppendCommandListsWithParameters, ZEIL_ARGS_zeCommandListImmediateAppendCommandListsWithParameters);
}

/* API 1.15: an event of no pool; it belongs to the context and device. */
ze_result_t ZE_APICALL zeil_icpt_zeEventCounterBasedCreate(const zeil_next_t *next,
                                                           ze_context_handle_t hContext,
                                                           ze_device_handle_t hDevice,
                                                           const ze_event_counter_based_desc_t *desc,
                                                           ze_event_handle_t *phEvent)
{
    zeil_call_t call;
    calls_begin(&call, "zeEventCounterBasedCreate");
    zeil_obj_t *context, *device;
    ze_result_t r = check_handle(&call, "hContext", hContext, ZEIL_KIND_CONTEXT, &context);
    CHECK_KEEP_FIRST(r, check_handle(&call, "hDevice", hDevice, ZEIL_KIND_DEVICE, &device));
    CHECK_KEEP_FIRST(r, check_device_in_context(&call, context, hDevice));
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_event_dditable_t, pfnCounterBasedCreate)(hContext, hDevice, desc, phEvent);
    if (r == ZE_RESULT_SUCCESS && phEvent)
        intercept_register(&call, next,
                           &(zeil_obj_t){.handle = *phEvent, .kind = ZEIL_KIND_EVENT,
                                         .driver = context ? context->driver : NULL,
                                         .device = hDevice, .context = hContext});
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeEventCounterBasedCreate, ZEIL_ARGS_zeEventCounterBasedCreate);
}
