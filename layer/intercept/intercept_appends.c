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
ZEIL_APPENDED(zeCommandListAppendMemoryCopy, ZEIL_RECORD_COPY, NULL, a->size, .kind = HAZARDS_COPY,
              .dst = a->dstptr, .src = a->srcptr, .size = a->size)

/* Regions touch [offset, offset + span) of their pointer (check_usm.c). */
#define REGION_AT(ptr, r, pitch, slice) \
    ((ptr) ? (char *)(ptr) + check_region_offset(r, pitch, slice) : NULL)
ZEIL_PRE(zeCommandListAppendMemoryCopyRegion)
{
    ze_result_t r = check_usm_range(
        call, objs[0], "dstptr", REGION_AT(a->dstptr, a->dstRegion, a->dstPitch, a->dstSlicePitch),
        check_region_span(a->dstRegion, a->dstPitch, a->dstSlicePitch));
    CHECK_KEEP_FIRST(
        r, check_usm_range(call, objs[0], "srcptr",
                           REGION_AT(a->srcptr, a->srcRegion, a->srcPitch, a->srcSlicePitch),
                           check_region_span(a->srcRegion, a->srcPitch, a->srcSlicePitch)));
    return r;
}
ZEIL_APPENDED(zeCommandListAppendMemoryCopyRegion, ZEIL_RECORD_COPY, NULL,
              check_region_span(a->dstRegion, a->dstPitch, a->dstSlicePitch), .kind = HAZARDS_COPY,
              .dst = REGION_AT(a->dstptr, a->dstRegion, a->dstPitch, a->dstSlicePitch),
              .size = check_region_span(a->dstRegion, a->dstPitch, a->dstSlicePitch),
              .src = REGION_AT(a->srcptr, a->srcRegion, a->srcPitch, a->srcSlicePitch),
              .src_size = check_region_span(a->srcRegion, a->srcPitch, a->srcSlicePitch))

ZEIL_PRE(zeCommandListAppendMemoryFill)
{
    return check_usm_range(call, objs[0], "ptr", a->ptr, a->size);
}
ZEIL_APPENDED(zeCommandListAppendMemoryFill, ZEIL_RECORD_FILL, NULL, a->size, .kind = HAZARDS_FILL,
              .dst = a->ptr, .size = a->size)

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

/* The source is memory of hContextSrc: of that context, not the list's. */
ZEIL_PRE(zeCommandListAppendMemoryCopyFromContext)
{
    ze_result_t r = check_usm_range(call, objs[0], "dstptr", a->dstptr, a->size);
    CHECK_KEEP_FIRST(r, check_usm_range_of(call, objs[0], "srcptr", a->srcptr, a->size,
                                           "hContextSrc", a->hContextSrc));
    return r;
}
ZEIL_APPENDED(zeCommandListAppendMemoryCopyFromContext, ZEIL_RECORD_COPY, NULL, a->size,
              .kind = HAZARDS_COPY, .dst = a->dstptr, .src = a->srcptr, .size = a->size)

/* Up to numKernels launches, their count and group counts in device memory:
 * every kernel's arguments are taken as used. */
ZEIL_PRE(zeCommandListAppendLaunchMultipleKernelsIndirect)
{
    ze_result_t r =
        check_usm_range(call, objs[0], "pCountBuffer", a->pCountBuffer, sizeof *a->pCountBuffer);
    CHECK_KEEP_FIRST(r, check_usm_range(call, objs[0], "pLaunchArgumentsBuffer",
                                        a->pLaunchArgumentsBuffer,
                                        (size_t)a->numKernels * sizeof(ze_group_count_t)));
    return r;
}
ZEIL_APPENDED(zeCommandListAppendLaunchMultipleKernelsIndirect, -1, NULL, 0, .kind = HAZARDS_LAUNCH,
              .num_kernels = a->phKernels ? a->numKernels : 0, .kernels = a->phKernels)

ZEIL_POST(zeCommandListAppendWaitOnEvents)
{
    HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_WAIT, .num_waits = a->numEvents,
                     .waits = a->phEvents);
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
    check_signal_appended(objs[0], objs[1], call->number, 1);
    HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_RESET, .signal = a->hEvent);
}

/* API 1.9: an immediate list runs closed regular lists, as a queue runs
 * them (E021, E022). */
ZEIL_PRE(zeCommandListImmediateAppendCommandListsExp)
{
    return check_execute(call, NULL, a->numCommandLists, a->phCommandLists, NULL);
}
/* For the hazard checks: its waits, the lists' work as a queue runs it, its
 * signal after them. */
ZEIL_POST(zeCommandListImmediateAppendCommandListsExp)
{
    check_signals_executed(call, a->numCommandLists, a->phCommandLists);
    HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_WAIT,
                     .num_waits = a->numWaitEvents, .waits = a->phWaitEvents);
    ZEIL_HAZARDS(hazards_executed(call, objs[0], a->numCommandLists, a->phCommandLists, NULL));
    if (a->hSignalEvent)
        HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_SIGNAL,
                         .signal = a->hSignalEvent);
}
