/*
 * The rarer appends: region copies and ranged barriers (recorded), global
 * timestamps and kernel timestamp queries (checked only: they submit no
 * work of their own).
 */
#include "intercepts.h"

#include "checks.h"
#include "hazards/hazards.h"
#include "records.h"
#include "zeil_hooks.h"

static size_t region_bytes(const ze_copy_region_t *region, uint32_t pitch)
{
    if (!region)
        return 0;
    size_t rows = (size_t)region->height * (region->depth ? region->depth : 1);
    return rows * (rows > 1 && pitch ? pitch : region->width);
}

#define APPEND_HOOK_PARAMS zeil_call_t *call, const zeil_next_t *next, zeil_obj_t *const *objs

void zeil_post_zeCommandListAppendMemoryCopyRegion(
    APPEND_HOOK_PARAMS, ze_result_t result, ze_command_list_handle_t hCommandList, void *dstptr,
    const ze_copy_region_t *dstRegion, uint32_t dstPitch, uint32_t dstSlicePitch,
    const void *srcptr, const ze_copy_region_t *srcRegion, uint32_t srcPitch,
    uint32_t srcSlicePitch, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents)
{
    (void)next, (void)hCommandList, (void)dstSlicePitch, (void)srcRegion, (void)srcPitch,
        (void)srcSlicePitch;
    if (result != ZE_RESULT_SUCCESS)
        return;
    records_add(objs[0], &(zeil_submission_t){ZEIL_RECORD_COPY, call, NULL, NULL,
                                              region_bytes(dstRegion, dstPitch), hSignalEvent,
                                              numWaitEvents, phWaitEvents});
    /* Regions start at their origin's offset: the ranges from the pointers
     * on are an over-estimate, clipped to the allocations. */
    HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_COPY, .dst = dstptr,
                     .src = srcptr, .size = SIZE_MAX, .signal = hSignalEvent,
                     .num_waits = numWaitEvents, .waits = phWaitEvents);
}

void zeil_post_zeCommandListAppendMemoryRangesBarrier(
    APPEND_HOOK_PARAMS, ze_result_t result, ze_command_list_handle_t hCommandList,
    uint32_t numRanges, const size_t *pRangeSizes, const void **pRanges,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    (void)next, (void)hCommandList, (void)numRanges, (void)pRangeSizes, (void)pRanges;
    if (result != ZE_RESULT_SUCCESS)
        return;
    records_add(objs[0], &(zeil_submission_t){ZEIL_RECORD_BARRIER, call, NULL, NULL, 0,
                                              hSignalEvent, numWaitEvents, phWaitEvents});
    HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_BARRIER,
                     .signal = hSignalEvent, .num_waits = numWaitEvents, .waits = phWaitEvents);
}

ze_result_t zeil_pre_zeCommandListAppendWriteGlobalTimestamp(
    APPEND_HOOK_PARAMS, ze_command_list_handle_t hCommandList, uint64_t *dstptr,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    (void)next, (void)hCommandList, (void)hSignalEvent, (void)numWaitEvents, (void)phWaitEvents;
    return check_usm_range(call, objs[0], "dstptr", dstptr, sizeof *dstptr);
}

void zeil_post_zeCommandListAppendWriteGlobalTimestamp(
    APPEND_HOOK_PARAMS, ze_result_t result, ze_command_list_handle_t hCommandList,
    uint64_t *dstptr, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents)
{
    (void)next, (void)hCommandList;
    if (result == ZE_RESULT_SUCCESS)
        HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_FILL, .dst = dstptr,
                         .size = sizeof *dstptr, .signal = hSignalEvent,
                         .num_waits = numWaitEvents, .waits = phWaitEvents);
}

ze_result_t zeil_pre_zeCommandListAppendQueryKernelTimestamps(
    APPEND_HOOK_PARAMS, ze_command_list_handle_t hCommandList, uint32_t numEvents,
    ze_event_handle_t *phEvents, void *dstptr, const size_t *pOffsets,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    (void)next, (void)objs, (void)hCommandList, (void)dstptr, (void)pOffsets, (void)hSignalEvent,
        (void)numWaitEvents, (void)phWaitEvents;
    return check_handle_array(call, "phEvents[]", numEvents, (const void *const *)phEvents,
                              ZEIL_KIND_EVENT);
}

void zeil_post_zeCommandListAppendQueryKernelTimestamps(
    APPEND_HOOK_PARAMS, ze_result_t result, ze_command_list_handle_t hCommandList,
    uint32_t numEvents, ze_event_handle_t *phEvents, void *dstptr, const size_t *pOffsets,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
    (void)next, (void)hCommandList, (void)numEvents, (void)phEvents, (void)dstptr, (void)pOffsets;
    if (result == ZE_RESULT_SUCCESS)
        HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_SIGNAL,
                         .signal = hSignalEvent, .num_waits = numWaitEvents,
                         .waits = phWaitEvents);
}
