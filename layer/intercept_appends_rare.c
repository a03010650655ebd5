/*
 * The rarer appends: region copies and ranged barriers (recorded), global
 * timestamps and kernel timestamp queries (checked only: they submit no
 * work of their own).
 */
#include "intercepts.h"

#include "checks.h"
#include "hazards/hazards.h"
#include "records.h"

static size_t region_bytes(const ze_copy_region_t *region, uint32_t pitch)
{
    if (!region)
        return 0;
    size_t rows = (size_t)region->height * (region->depth ? region->depth : 1);
    return rows * (rows > 1 && pitch ? pitch : region->width);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendMemoryCopyRegion(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList, void *dstptr,
    const ze_copy_region_t *dstRegion, uint32_t dstPitch, uint32_t dstSlicePitch,
    const void *srcptr, const ze_copy_region_t *srcRegion, uint32_t srcPitch,
    uint32_t srcSlicePitch, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListAppendMemoryCopyRegion");
    zeil_obj_t *list, *signal;
    ze_result_t r = check_append(&call, hCommandList, &list, hSignalEvent, &signal,
                                 numWaitEvents, phWaitEvents);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_list_dditable_t, pfnAppendMemoryCopyRegion)(
            hCommandList, dstptr, dstRegion, dstPitch, dstSlicePitch, srcptr, srcRegion,
            srcPitch, srcSlicePitch, hSignalEvent, numWaitEvents, phWaitEvents);
    if (r == ZE_RESULT_SUCCESS) {
        if (signal)
            atomic_store(&signal->signalled_by_call, call.number);
        records_add(list, &(zeil_submission_t){ZEIL_RECORD_COPY, &call, NULL, NULL,
                                               region_bytes(dstRegion, dstPitch), hSignalEvent,
                                               numWaitEvents, phWaitEvents});
        /* Regions start at their origin's offset: the ranges from the
         * pointers on are an over-estimate, clipped to the allocations. */
        HAZARDS_APPENDED(.call = &call, .list = list, .kind = HAZARDS_COPY,
                         .dst = dstptr, .src = srcptr, .size = SIZE_MAX, .signal = hSignalEvent,
                         .num_waits = numWaitEvents, .waits = phWaitEvents);
    }
    return CALLS_END(&call, r, "hCommandList=%p dstptr=%p srcptr=%p", (void *)hCommandList,
                     dstptr, srcptr);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendMemoryRangesBarrier(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList, uint32_t numRanges,
    const size_t *pRangeSizes, const void **pRanges, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListAppendMemoryRangesBarrier");
    zeil_obj_t *list, *signal;
    ze_result_t r = check_append(&call, hCommandList, &list, hSignalEvent, &signal,
                                 numWaitEvents, phWaitEvents);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_list_dditable_t, pfnAppendMemoryRangesBarrier)(
            hCommandList, numRanges, pRangeSizes, pRanges, hSignalEvent, numWaitEvents,
            phWaitEvents);
    if (r == ZE_RESULT_SUCCESS) {
        if (signal)
            atomic_store(&signal->signalled_by_call, call.number);
        records_add(list, &(zeil_submission_t){ZEIL_RECORD_BARRIER, &call, NULL, NULL, 0,
                                               hSignalEvent, numWaitEvents, phWaitEvents});
        HAZARDS_APPENDED(.call = &call, .list = list, .kind = HAZARDS_BARRIER,
                         .signal = hSignalEvent, .num_waits = numWaitEvents,
                         .waits = phWaitEvents);
    }
    return CALLS_END(&call, r, "hCommandList=%p numRanges=%u", (void *)hCommandList, numRanges);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendWriteGlobalTimestamp(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList, uint64_t *dstptr,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListAppendWriteGlobalTimestamp");
    zeil_obj_t *list, *signal;
    ze_result_t r = check_append(&call, hCommandList, &list, hSignalEvent, &signal,
                                 numWaitEvents, phWaitEvents);
    CHECK_KEEP_FIRST(r, check_usm_range(&call, list, "dstptr", dstptr, sizeof *dstptr));
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_list_dditable_t, pfnAppendWriteGlobalTimestamp)(
            hCommandList, dstptr, hSignalEvent, numWaitEvents, phWaitEvents);
    if (r == ZE_RESULT_SUCCESS && signal)
        atomic_store(&signal->signalled_by_call, call.number);
    if (r == ZE_RESULT_SUCCESS)
        HAZARDS_APPENDED(.call = &call, .list = list, .kind = HAZARDS_FILL,
                         .dst = dstptr, .size = sizeof *dstptr, .signal = hSignalEvent,
                         .num_waits = numWaitEvents, .waits = phWaitEvents);
    return CALLS_END(&call, r, "hCommandList=%p dstptr=%p", (void *)hCommandList,
                     (void *)dstptr);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListAppendQueryKernelTimestamps(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList, uint32_t numEvents,
    ze_event_handle_t *phEvents, void *dstptr, const size_t *pOffsets,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListAppendQueryKernelTimestamps");
    zeil_obj_t *list, *signal;
    ze_result_t r = check_append(&call, hCommandList, &list, hSignalEvent, &signal,
                                 numWaitEvents, phWaitEvents);
    CHECK_KEEP_FIRST(r, check_handle_array(&call, "phEvents[]", numEvents,
                                           (const void *const *)phEvents, ZEIL_KIND_EVENT));
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_list_dditable_t, pfnAppendQueryKernelTimestamps)(
            hCommandList, numEvents, phEvents, dstptr, pOffsets, hSignalEvent, numWaitEvents,
            phWaitEvents);
    if (r == ZE_RESULT_SUCCESS && signal)
        atomic_store(&signal->signalled_by_call, call.number);
    if (r == ZE_RESULT_SUCCESS)
        HAZARDS_APPENDED(.call = &call, .list = list, .kind = HAZARDS_SIGNAL,
                         .signal = hSignalEvent, .num_waits = numWaitEvents,
                         .waits = phWaitEvents);
    return CALLS_END(&call, r, "hCommandList=%p numEvents=%u", (void *)hCommandList, numEvents);
}
