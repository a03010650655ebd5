/*
 * The zeCommandListAppend* entry points: check the arguments, build the
 * command, hand it to the list (rd_cmdlist.c).
 */
#include "rd_api.h"
#include "rd_cmdlist.h"
#include "rd_driver.h"
#include "rd_kernel.h"
#include "rd_launch.h"

#include <stdlib.h>
#include <string.h>

/* A command that only waits and signals. */
static ze_result_t append_plain(rd_cmdlist_t *list, ze_event_handle_t signal, uint32_t num_waits,
                                ze_event_handle_t *waits)
{
    rd_command_t cmd;
    RD_TRY(rd_command_init(&cmd, RD_CMD_BARRIER,
                           rd_cmdlist_arena(list, rd_cmdlist_bytes(num_waits, 0)), signal,
                           num_waits, waits));
    return rd_cmdlist_append(list, &cmd);
}

ze_result_t ZE_APICALL rd_zeCommandListAppendBarrier(ze_command_list_handle_t hCommandList,
                                                     ze_event_handle_t hSignalEvent,
                                                     uint32_t numWaitEvents,
                                                     ze_event_handle_t *phWaitEvents)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    /* Commands already run one after the other: a barrier only waits and signals. */
    return append_plain(list, hSignalEvent, numWaitEvents, phWaitEvents);
}

ze_result_t ZE_APICALL rd_zeCommandListAppendMemoryRangesBarrier(
    ze_command_list_handle_t hCommandList, uint32_t numRanges, const size_t *pRangeSizes,
    const void **pRanges, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    RD_NOT_NULL(pRangeSizes);
    RD_NOT_NULL(pRanges);
    (void)numRanges;
    return append_plain(list, hSignalEvent, numWaitEvents, phWaitEvents);
}

ze_result_t ZE_APICALL rd_zeCommandListAppendMemoryCopy(ze_command_list_handle_t hCommandList,
                                                        void *dstptr, const void *srcptr,
                                                        size_t size, ze_event_handle_t hSignalEvent,
                                                        uint32_t numWaitEvents,
                                                        ze_event_handle_t *phWaitEvents)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    RD_NOT_NULL(dstptr);
    RD_NOT_NULL(srcptr);
    rd_command_t cmd;
    RD_TRY(rd_command_init(&cmd, RD_CMD_COPY,
                           rd_cmdlist_arena(list, rd_cmdlist_bytes(numWaitEvents, 0)), hSignalEvent,
                           numWaitEvents, phWaitEvents));
    cmd.u.copy.dst = dstptr;
    cmd.u.copy.src = srcptr;
    cmd.u.copy.size = size;
    return rd_cmdlist_append(list, &cmd);
}

ze_result_t ZE_APICALL rd_zeCommandListAppendMemoryCopyFromContext(
    ze_command_list_handle_t hCommandList, void *dstptr, ze_context_handle_t hContextSrc,
    const void *srcptr, size_t size, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents)
{
    RD_HANDLE(rd_context_t, src_ctx, hContextSrc, RD_MAGIC_CONTEXT);
    (void)src_ctx; /* all contexts share the host's address space */
    return rd_zeCommandListAppendMemoryCopy(hCommandList, dstptr, srcptr, size, hSignalEvent,
                                            numWaitEvents, phWaitEvents);
}

static int ranges_meet(uint32_t a, uint32_t a_len, uint32_t b, uint32_t b_len)
{
    return (uint64_t)a < (uint64_t)b + b_len && (uint64_t)b < (uint64_t)a + a_len;
}

/* Two boxes of the same buffer laid out the same way that share a byte. */
static int boxes_overlap(const ze_copy_region_t *a, const ze_copy_region_t *b)
{
    return ranges_meet(a->originX, a->width, b->originX, b->width) &&
           ranges_meet(a->originY, a->height, b->originY, b->height) &&
           ranges_meet(a->originZ, a->depth ? a->depth : 1, b->originZ, b->depth ? b->depth : 1);
}

ze_result_t ZE_APICALL rd_zeCommandListAppendMemoryCopyRegion(
    ze_command_list_handle_t hCommandList, void *dstptr, const ze_copy_region_t *dstRegion,
    uint32_t dstPitch, uint32_t dstSlicePitch, const void *srcptr,
    const ze_copy_region_t *srcRegion, uint32_t srcPitch, uint32_t srcSlicePitch,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    RD_NOT_NULL(dstptr);
    RD_NOT_NULL(dstRegion);
    RD_NOT_NULL(srcptr);
    RD_NOT_NULL(srcRegion);
    if (dstRegion->width != srcRegion->width || dstRegion->height != srcRegion->height ||
        (dstRegion->depth ? dstRegion->depth : 1) != (srcRegion->depth ? srcRegion->depth : 1))
        return ZE_RESULT_ERROR_INVALID_SIZE;
    if (dstRegion->width == 0 || dstRegion->height == 0) /* nothing to copy */
        return append_plain(list, hSignalEvent, numWaitEvents, phWaitEvents);
    if (dstRegion->width > dstPitch || srcRegion->width > srcPitch ||
        (dstRegion->depth > 1 && (uint64_t)dstPitch * dstRegion->height > dstSlicePitch) ||
        (srcRegion->depth > 1 && (uint64_t)srcPitch * srcRegion->height > srcSlicePitch))
        return ZE_RESULT_ERROR_INVALID_SIZE;
    if (dstptr == srcptr && dstPitch == srcPitch && dstSlicePitch == srcSlicePitch &&
        boxes_overlap(dstRegion, srcRegion))
        return ZE_RESULT_ERROR_OVERLAPPING_REGIONS;
    rd_command_t cmd;
    RD_TRY(rd_command_init(&cmd, RD_CMD_COPY_REGION,
                           rd_cmdlist_arena(list, rd_cmdlist_bytes(numWaitEvents, 0)), hSignalEvent,
                           numWaitEvents, phWaitEvents));
    cmd.u.region.dst = (rd_region_t){dstptr, *dstRegion, dstPitch, dstSlicePitch};
    cmd.u.region.src =
        (rd_region_t){(char *)(uintptr_t)srcptr, *srcRegion, srcPitch, srcSlicePitch};
    return rd_cmdlist_append(list, &cmd);
}

ze_result_t ZE_APICALL rd_zeCommandListAppendMemoryFill(ze_command_list_handle_t hCommandList,
                                                        void *ptr, const void *pattern,
                                                        size_t pattern_size, size_t size,
                                                        ze_event_handle_t hSignalEvent,
                                                        uint32_t numWaitEvents,
                                                        ze_event_handle_t *phWaitEvents)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    RD_NOT_NULL(ptr);
    RD_NOT_NULL(pattern);
    /* A power of two up to maxMemoryFillPatternSize, as the specification says. */
    if (pattern_size == 0 || pattern_size > RD_MAX_FILL_PATTERN ||
        (pattern_size & (pattern_size - 1)))
        return ZE_RESULT_ERROR_INVALID_SIZE;
    rd_command_t cmd;
    RD_TRY(rd_command_init(&cmd, RD_CMD_FILL,
                           rd_cmdlist_arena(list, rd_cmdlist_bytes(numWaitEvents, 0)), hSignalEvent,
                           numWaitEvents, phWaitEvents));
    cmd.u.fill.dst = ptr;
    cmd.u.fill.size = size;
    cmd.u.fill.pattern_size = pattern_size;
    memcpy(cmd.u.fill.pattern, pattern, pattern_size);
    return rd_cmdlist_append(list, &cmd);
}

ze_result_t ZE_APICALL rd_zeCommandListAppendMemoryPrefetch(ze_command_list_handle_t hCommandList,
                                                            const void *ptr, size_t size)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    RD_NOT_NULL(ptr);
    (void)size; /* shared memory already is where the device reads it */
    return append_plain(list, NULL, 0, NULL);
}

ze_result_t ZE_APICALL rd_zeCommandListAppendMemAdvise(ze_command_list_handle_t hCommandList,
                                                       ze_device_handle_t hDevice, const void *ptr,
                                                       size_t size, ze_memory_advice_t advice)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    RD_CHECK(hDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(ptr);
    (void)size;
    if (advice > ZE_MEMORY_ADVICE_BIAS_UNCACHED)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    return append_plain(list, NULL, 0, NULL);
}

ze_result_t ZE_APICALL rd_zeCommandListAppendSignalEvent(ze_command_list_handle_t hCommandList,
                                                         ze_event_handle_t hEvent)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    if (!hEvent)
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    return append_plain(list, hEvent, 0, NULL);
}

ze_result_t ZE_APICALL rd_zeCommandListAppendWaitOnEvents(ze_command_list_handle_t hCommandList,
                                                          uint32_t numEvents,
                                                          ze_event_handle_t *phEvents)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    RD_NOT_NULL(phEvents);
    return append_plain(list, NULL, numEvents, phEvents);
}

ze_result_t ZE_APICALL rd_zeCommandListAppendEventReset(ze_command_list_handle_t hCommandList,
                                                        ze_event_handle_t hEvent)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    rd_event_t *event = NULL;
    RD_TRY(rd_event_from_handle(hEvent, &event));
    rd_command_t cmd;
    RD_TRY(rd_command_init(&cmd, RD_CMD_EVENT_RESET, rd_cmdlist_arena(list, 0), NULL, 0, NULL));
    cmd.u.reset = event;
    return rd_cmdlist_append(list, &cmd);
}

ze_result_t ZE_APICALL rd_zeCommandListAppendWriteGlobalTimestamp(
    ze_command_list_handle_t hCommandList, uint64_t *dstptr, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    RD_NOT_NULL(dstptr);
    rd_command_t cmd;
    RD_TRY(rd_command_init(&cmd, RD_CMD_WRITE_TIMESTAMP,
                           rd_cmdlist_arena(list, rd_cmdlist_bytes(numWaitEvents, 0)), hSignalEvent,
                           numWaitEvents, phWaitEvents));
    cmd.u.timestamp_dst = dstptr;
    return rd_cmdlist_append(list, &cmd);
}

ze_result_t ZE_APICALL rd_zeCommandListAppendQueryKernelTimestamps(
    ze_command_list_handle_t hCommandList, uint32_t numEvents, ze_event_handle_t *phEvents,
    void *dstptr, const size_t *pOffsets, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    RD_NOT_NULL(phEvents);
    RD_NOT_NULL(dstptr);
    rd_event_t **events = NULL;
    RD_TRY(rd_event_list(numEvents, phEvents, &events));
    for (uint32_t i = 0; i < numEvents; i++)
        if (!(events[i]->pool->flags & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP)) {
            free(events);
            return ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT;
        }
    size_t *offsets = NULL;
    if (pOffsets && numEvents > 0) {
        offsets = malloc(numEvents * sizeof *offsets);
        if (!offsets) {
            free(events);
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
        memcpy(offsets, pOffsets, numEvents * sizeof *offsets);
    }
    rd_command_t cmd;
    ze_result_t r = rd_command_init(&cmd, RD_CMD_QUERY_TIMESTAMPS,
                                    rd_cmdlist_arena(list, rd_cmdlist_bytes(numWaitEvents, 0)),
                                    hSignalEvent, numWaitEvents, phWaitEvents);
    if (r != ZE_RESULT_SUCCESS) {
        free(events);
        free(offsets);
        return r;
    }
    cmd.u.query.count = numEvents;
    cmd.u.query.events = events;
    cmd.u.query.dst = dstptr;
    cmd.u.query.offsets = offsets;
    return rd_cmdlist_append(list, &cmd);
}

static ze_result_t append_launch(ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
                                 const ze_group_count_t *pLaunchFuncArgs, int indirect,
                                 ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                 ze_event_handle_t *phWaitEvents)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    RD_HANDLE(rd_kernel_t, kernel, hKernel, RD_MAGIC_KERNEL);
    RD_NOT_NULL(pLaunchFuncArgs);
    /* Only an immediate list's job store asks how much the command holds. */
    size_t bytes =
        list->immediate ? rd_cmdlist_bytes(numWaitEvents, rd_launch_capture_size(kernel)) : 0;
    rd_cmd_arena_t *arena = rd_cmdlist_arena(list, bytes);
    /* A regular list holds each module its launches use until its reset,
     * once, instead of every launch taking a reference on the module that
     * all threads' launches share (an immediate list's job, until it ran). */
    if (arena)
        RD_TRY(rd_cmdlist_hold_module(list, kernel->module));
    rd_command_t cmd;
    RD_TRY(rd_command_init(&cmd, RD_CMD_LAUNCH, arena, hSignalEvent, numWaitEvents, phWaitEvents));
    /* The argument values as they are now: later zeKernelSetArgumentValue
     * calls do not change a launch already appended. */
    ze_result_t r = rd_launch_capture(kernel, pLaunchFuncArgs, indirect, arena, &cmd.u.launch);
    if (r != ZE_RESULT_SUCCESS) {
        rd_command_release(&cmd);
        return r;
    }
    return rd_cmdlist_append(list, &cmd);
}

ze_result_t ZE_APICALL rd_zeCommandListAppendLaunchKernel(ze_command_list_handle_t hCommandList,
                                                          ze_kernel_handle_t hKernel,
                                                          const ze_group_count_t *pLaunchFuncArgs,
                                                          ze_event_handle_t hSignalEvent,
                                                          uint32_t numWaitEvents,
                                                          ze_event_handle_t *phWaitEvents)
{
    return append_launch(hCommandList, hKernel, pLaunchFuncArgs, 0, hSignalEvent, numWaitEvents,
                         phWaitEvents);
}

ze_result_t ZE_APICALL rd_zeCommandListAppendLaunchCooperativeKernel(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchFuncArgs, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents)
{
    /* The kernel ABI has no cross-group synchronisation, so a cooperative
     * launch needs nothing more than an ordinary one. */
    return append_launch(hCommandList, hKernel, pLaunchFuncArgs, 0, hSignalEvent, numWaitEvents,
                         phWaitEvents);
}

ze_result_t ZE_APICALL rd_zeCommandListAppendLaunchKernelIndirect(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchArgumentsBuffer, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    /* The group counts are read when the launch runs, not now. */
    return append_launch(hCommandList, hKernel, pLaunchArgumentsBuffer, 1, hSignalEvent,
                         numWaitEvents, phWaitEvents);
}

ze_result_t ZE_APICALL rd_zeCommandListAppendLaunchMultipleKernelsIndirect(
    ze_command_list_handle_t hCommandList, uint32_t numKernels, ze_kernel_handle_t *phKernels,
    const uint32_t *pCountBuffer, const ze_group_count_t *pLaunchArgumentsBuffer,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    RD_HANDLE(rd_cmdlist_t, list, hCommandList, RD_MAGIC_CMDLIST);
    RD_NOT_NULL(phKernels);
    RD_NOT_NULL(pCountBuffer);
    RD_NOT_NULL(pLaunchArgumentsBuffer);
    for (uint32_t i = 0; i < numKernels; i++)
        RD_TRY(rd_check_handle(phKernels[i], RD_MAGIC_KERNEL));
    rd_command_t cmd;
    RD_TRY(rd_command_init(&cmd, RD_CMD_LAUNCH_MULTIPLE,
                           rd_cmdlist_arena(list, rd_cmdlist_bytes(numWaitEvents, 0)), hSignalEvent,
                           numWaitEvents, phWaitEvents));
    cmd.u.multiple.max = numKernels;
    cmd.u.multiple.count = pCountBuffer;
    cmd.u.multiple.launches = calloc(numKernels ? numKernels : 1, sizeof *cmd.u.multiple.launches);
    if (!cmd.u.multiple.launches) {
        rd_command_release(&cmd);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    /* Every kernel's arguments as they are now; how many run is read later. */
    for (uint32_t i = 0; i < numKernels; i++) {
        rd_kernel_t *kernel = (rd_kernel_t *)(void *)phKernels[i];
        ze_result_t r = rd_launch_capture(kernel, &pLaunchArgumentsBuffer[i], 1, NULL,
                                          &cmd.u.multiple.launches[i]);
        if (r != ZE_RESULT_SUCCESS) {
            rd_command_release(&cmd);
            return r;
        }
    }
    return rd_cmdlist_append(list, &cmd);
}
