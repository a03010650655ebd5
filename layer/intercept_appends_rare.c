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

ZEIL_POST(zeCommandListAppendMemoryCopyRegion)
{
    if (result != ZE_RESULT_SUCCESS)
        return;
    records_add(objs[0], &(zeil_submission_t){ZEIL_RECORD_COPY, call, NULL, NULL,
                                              region_bytes(a->dstRegion, a->dstPitch),
                                              a->hSignalEvent, a->numWaitEvents,
                                              a->phWaitEvents});
    /* Regions start at their origin's offset: the ranges from the pointers
     * on are an over-estimate, clipped to the allocations. */
    HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_COPY, .dst = a->dstptr,
                     .src = a->srcptr, .size = SIZE_MAX, .signal = a->hSignalEvent,
                     .num_waits = a->numWaitEvents, .waits = a->phWaitEvents);
}

ZEIL_POST(zeCommandListAppendMemoryRangesBarrier)
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

ZEIL_PRE(zeCommandListAppendWriteGlobalTimestamp)
{
    return check_usm_range(call, objs[0], "dstptr", a->dstptr, sizeof *a->dstptr);
}

ZEIL_POST(zeCommandListAppendWriteGlobalTimestamp)
{
    if (result == ZE_RESULT_SUCCESS)
        HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_FILL, .dst = a->dstptr,
                         .size = sizeof *a->dstptr, .signal = a->hSignalEvent,
                         .num_waits = a->numWaitEvents, .waits = a->phWaitEvents);
}

ZEIL_PRE(zeCommandListAppendQueryKernelTimestamps)
{
    return check_handle_array(call, "phEvents[]", a->numEvents,
                              (const void *const *)a->phEvents, ZEIL_KIND_EVENT);
}

ZEIL_POST(zeCommandListAppendQueryKernelTimestamps)
{
    if (result == ZE_RESULT_SUCCESS)
        HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_SIGNAL,
                         .signal = a->hSignalEvent, .num_waits = a->numWaitEvents,
                         .waits = a->phWaitEvents);
}
