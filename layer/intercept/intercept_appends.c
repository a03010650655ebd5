/* Hooks of the appends but direct launches (intercept_launch.c). The
 * generated intercept checks the list (objs[0]) and its events (signal:
 * objs[1]) and notes the signal; these check the memory an append touches,
 * and ZEIL_APPENDED records its work and tells the hazard checks. */
#include "zeil_hooks.h"

/* The appends of API 1.16+ with extensions in pNext are the same appends. */
ZEIL_HOOKS_OF(zeCommandListAppendMemoryCopyWithParameters, zeCommandListAppendMemoryCopy);
ZEIL_HOOKS_OF(zeCommandListAppendMemoryFillWithParameters, zeCommandListAppendMemoryFill);
ZEIL_HOOKS_OF(zeCommandListImmediateAppendCommandListsWithParameters,
              zeCommandListImmediateAppendCommandListsExp);

ZEIL_PRE(zeCommandListAppendMemoryCopy)
{
    ze_result_t r = check_usm_range(call, objs[0], "dstptr", a->dstptr, a->size);
    CHECK_KEEP_FIRST(r, check_usm_range(call, objs[0], "srcptr", a->srcptr, a->size));
    return r;
}
ZEIL_APPENDED(zeCommandListAppendMemoryCopy, ZEIL_RECORD_COPY, NULL, a->size,
              .kind = HAZARDS_COPY, .dst = a->dstptr, .src = a->srcptr, .size = a->size)

/* Regions start at their origin's offset: the ranges from the pointers on
 * are an over-estimate, clipped to the allocations. */
static size_t region_bytes(const ze_copy_region_t *region, uint32_t pitch)
{
    size_t rows = region ? (size_t)region->height * (region->depth ? region->depth : 1) : 0;
    return region ? rows * (rows > 1 && pitch ? pitch : region->width) : 0;
}
ZEIL_APPENDED(zeCommandListAppendMemoryCopyRegion, ZEIL_RECORD_COPY, NULL,
              region_bytes(a->dstRegion, a->dstPitch), .kind = HAZARDS_COPY, .dst = a->dstptr,
              .src = a->srcptr, .size = SIZE_MAX)

ZEIL_PRE(zeCommandListAppendMemoryFill)
{
    return check_usm_range(call, objs[0], "ptr", a->ptr, a->size);
}
ZEIL_APPENDED(zeCommandListAppendMemoryFill, ZEIL_RECORD_FILL, NULL, a->size,
              .kind = HAZARDS_FILL, .dst = a->ptr, .size = a->size)

ZEIL_APPENDED(zeCommandListAppendBarrier, ZEIL_RECORD_BARRIER, NULL, 0, .kind = HAZARDS_BARRIER)
ZEIL_APPENDED(zeCommandListAppendMemoryRangesBarrier, ZEIL_RECORD_BARRIER, NULL, 0,
              .kind = HAZARDS_BARRIER)

/* Timestamps submit no work of their own: checked, not recorded. */
ZEIL_PRE(zeCommandListAppendWriteGlobalTimestamp)
{
    return check_usm_range(call, objs[0], "dstptr", a->dstptr, sizeof *a->dstptr);
}
ZEIL_APPENDED(zeCommandListAppendWriteGlobalTimestamp, -1, NULL, 0, .kind = HAZARDS_FILL,
              .dst = a->dstptr, .size = sizeof *a->dstptr)

ZEIL_APPENDED(zeCommandListAppendQueryKernelTimestamps, -1, NULL, 0, .kind = HAZARDS_SIGNAL)

/* The group count lives in device memory: recorded as zero. */
ZEIL_PRE(zeCommandListAppendLaunchKernelIndirect)
{
    zeil_obj_t *kernel;
    ze_result_t r = check_launch_kernel(call, objs[0], a->hKernel, &kernel);
    CHECK_KEEP_FIRST(r, check_usm_range(call, objs[0], "pLaunchArgumentsBuffer",
                                        a->pLaunchArgumentsBuffer, sizeof(ze_group_count_t)));
    return r;
}
ZEIL_APPENDED(zeCommandListAppendLaunchKernelIndirect, ZEIL_RECORD_LAUNCH, objs[2], 0,
              .kind = HAZARDS_LAUNCH, .kernel = objs[2])

ZEIL_POST(zeCommandListAppendWaitOnEvents)
{
    HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_WAIT,
                     .num_waits = a->numEvents, .waits = a->phEvents);
}

/* The generated intercept checks and notes the event as the list's signal. */
ZEIL_POST(zeCommandListAppendSignalEvent)
{
    HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_SIGNAL, .signal = a->hEvent);
}

/* A reset is no signal: the event is checked as a wait event would be. */
ZEIL_PRE(zeCommandListAppendEventReset)
{
    zeil_obj_t *list, *none;
    return check_append(call, a->hCommandList, &list, NULL, &none, 1, &a->hEvent, "hCommandList",
                        "", "hEvent");
}
ZEIL_POST(zeCommandListAppendEventReset)
{
    if (objs[1])
        atomic_store_explicit(&objs[1]->signalled_by_call, 0, memory_order_release);
    HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_RESET, .signal = a->hEvent);
}

/* API 1.9: an immediate list runs closed regular lists, as a queue runs
 * them (E021, E022). */
ZEIL_PRE(zeCommandListImmediateAppendCommandListsExp)
{
    return check_execute(call, NULL, a->numCommandLists, a->phCommandLists, NULL);
}
