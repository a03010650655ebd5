/*
 * Entries of API versions after 1.4 (declared by compat/ze_compat.h where
 * the installed headers are older). rd_ddi.c fills each only for loaders
 * that ask for a version that has it.
 */
#include "rd_api.h"
#include "rd_cmdlist.h"
#include "rd_driver.h"
#include "rd_event.h"
#include "rd_kernel.h"

/* API 1.10. Programs written for current Level Zero (oneDNN among them)
 * start here and never call zeInit. The desc's flags name GPU or NPU
 * drivers; a CPU driver is neither, and answers whatever the flags (a loader
 * that asks a custom driver wants its drivers). */
ze_result_t ZE_APICALL rd_zeInitDrivers(uint32_t *pCount, ze_driver_handle_t *phDrivers,
                                        ze_init_driver_type_desc_t *desc)
{
    RD_NOT_NULL(pCount);
    RD_NOT_NULL(desc);
    ze_result_t r = rd_zeInit(0);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    return rd_zeDriverGet(pCount, phDrivers);
}

/* ---- API 1.9: what a command list is ---- */

ze_result_t ZE_APICALL rd_zeCommandListGetDeviceHandle(ze_command_list_handle_t hCommandList,
                                                       ze_device_handle_t *phDevice)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    RD_ANSWER(phDevice, (ze_device_handle_t)list->device);
}

ze_result_t ZE_APICALL rd_zeCommandListGetContextHandle(ze_command_list_handle_t hCommandList,
                                                        ze_context_handle_t *phContext)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    RD_ANSWER(phContext, (ze_context_handle_t)list->context);
}

ze_result_t ZE_APICALL rd_zeCommandListGetOrdinal(ze_command_list_handle_t hCommandList,
                                                  uint32_t *pOrdinal)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    RD_ANSWER(pOrdinal, list->ordinal);
}

ze_result_t ZE_APICALL rd_zeCommandListIsImmediate(ze_command_list_handle_t hCommandList,
                                                   ze_bool_t *pIsImmediate)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    RD_ANSWER(pIsImmediate, list->immediate ? 1 : 0);
}

/* The pool an event was created from (the layer asks it of an event it
 * never saw created). */
ze_result_t ZE_APICALL rd_zeEventGetEventPool(ze_event_handle_t hEvent,
                                              ze_event_pool_handle_t *phEventPool)
{
    rd_event_t *event;
    RD_TRY(rd_event_from_handle(hEvent, &event));
    RD_ANSWER(phEventPool, (ze_event_pool_handle_t)event->pool);
}

/* The queries of an immediate list's queue: a regular list has none. */
#define RD_IMMEDIATE(list, handle) \
    RD_HANDLE(rd_cmdlist_t, list, handle, RD_MAGIC_CMDLIST); \
    if (!list->immediate) \
    return ZE_RESULT_ERROR_INVALID_ARGUMENT

ze_result_t ZE_APICALL rd_zeCommandListImmediateGetIndex(ze_command_list_handle_t hCommandList,
                                                         uint32_t *pIndex)
{
    RD_IMMEDIATE(list, hCommandList);
    RD_ANSWER(pIndex, list->queue_desc.index);
}

/* ---- API 1.17 ---- */

ze_result_t ZE_APICALL rd_zeCommandListGetFlags(ze_command_list_handle_t hCommandList,
                                                ze_command_list_flags_t *pFlags)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    RD_ANSWER(pFlags, list->flags);
}

ze_result_t ZE_APICALL rd_zeCommandListImmediateGetFlags(ze_command_list_handle_t hCommandList,
                                                         ze_command_queue_flags_t *pFlags)
{
    RD_IMMEDIATE(list, hCommandList);
    RD_ANSWER(pFlags, list->queue_desc.flags);
}

ze_result_t ZE_APICALL rd_zeCommandListImmediateGetMode(ze_command_list_handle_t hCommandList,
                                                        ze_command_queue_mode_t *pMode)
{
    RD_IMMEDIATE(list, hCommandList);
    RD_ANSWER(pMode, list->queue_desc.mode);
}

ze_result_t ZE_APICALL rd_zeCommandListImmediateGetPriority(ze_command_list_handle_t hCommandList,
                                                            ze_command_queue_priority_t *pPriority)
{
    RD_IMMEDIATE(list, hCommandList);
    RD_ANSWER(pPriority, list->queue_desc.priority);
}

/* ---- API 1.14 and 1.16: appends with extensions in pNext ----
 * The driver knows none of the extensions: a chain it would have to honour
 * is refused rather than ignored. */

#define RD_NO_EXTENSIONS(pNext) \
    if (pNext) \
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE

ze_result_t ZE_APICALL rd_zeCommandListAppendLaunchKernelWithParameters(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pGroupCounts, const void *pNext, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    RD_NO_EXTENSIONS(pNext);
    return rd_zeCommandListAppendLaunchKernel(hCommandList, hKernel, pGroupCounts, hSignalEvent,
                                              numWaitEvents, phWaitEvents);
}

/* The arguments and group size become the kernel's, as if set by
 * zeKernelSetArgumentValue and zeKernelSetGroupSize, then it launches. */
ze_result_t ZE_APICALL rd_zeCommandListAppendLaunchKernelWithArguments(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t groupCounts, const ze_group_size_t groupSizes, void **pArguments,
    const void *pNext, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents)
{
    RD_HANDLE(rd_kernel_t, kernel, hKernel, RD_MAGIC_KERNEL);
    RD_NO_EXTENSIONS(pNext);
    if (kernel->abi->num_args)
        RD_NOT_NULL(pArguments);
    RD_TRY(rd_zeKernelSetGroupSize(hKernel, groupSizes.groupSizeX, groupSizes.groupSizeY,
                                   groupSizes.groupSizeZ));
    for (uint32_t i = 0; i < kernel->abi->num_args; i++)
        RD_TRY(rd_zeKernelSetArgumentValue(hKernel, i, kernel->abi->arg_sizes[i], pArguments[i]));
    return rd_zeCommandListAppendLaunchKernel(hCommandList, hKernel, &groupCounts, hSignalEvent,
                                              numWaitEvents, phWaitEvents);
}

ze_result_t ZE_APICALL rd_zeCommandListAppendMemoryCopyWithParameters(
    ze_command_list_handle_t hCommandList, void *dstptr, const void *srcptr, size_t size,
    const void *pNext, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents)
{
    RD_NO_EXTENSIONS(pNext);
    return rd_zeCommandListAppendMemoryCopy(hCommandList, dstptr, srcptr, size, hSignalEvent,
                                            numWaitEvents, phWaitEvents);
}

ze_result_t ZE_APICALL rd_zeCommandListAppendMemoryFillWithParameters(
    ze_command_list_handle_t hCommandList, void *ptr, const void *pattern, size_t patternSize,
    size_t size, const void *pNext, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents)
{
    RD_NO_EXTENSIONS(pNext);
    return rd_zeCommandListAppendMemoryFill(hCommandList, ptr, pattern, patternSize, size,
                                            hSignalEvent, numWaitEvents, phWaitEvents);
}
