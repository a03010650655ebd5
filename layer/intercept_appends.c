/*
 * Hooks of the appends other than launches (intercept_launch.c). The
 * generated intercept checks the list (objs[0]) and its events (the signal
 * objs[1]) with check_append and notes the signal; these check the memory
 * an append touches, then record its work and tell the hazard checks.
 */
#include "intercepts.h"

#include "checks.h"
#include "hazards/hazards.h"
#include "records.h"
#include "zeil_hooks.h"

/* The appends of API 1.16+ with extensions in pNext are the same appends. */
ZEIL_HOOKS_OF(zeCommandListAppendMemoryCopyWithParameters, zeCommandListAppendMemoryCopy);
ZEIL_HOOKS_OF(zeCommandListAppendMemoryFillWithParameters, zeCommandListAppendMemoryFill);
ZEIL_HOOKS_OF(zeCommandListImmediateAppendCommandListsWithParameters,
              zeCommandListImmediateAppendCommandListsExp);

/* An append the driver accepted, with its signal and wait events: recorded
 * (record, bytes; -1: nothing to record), and what the hazard checks learn
 * (.kind and what it touches). */
#define APPENDED(api, record, bytes, ...)                                                   \
    ZEIL_POST(api)                                                                         \
    {                                                                                      \
        if ((record) >= 0)                                                                 \
            records_add(objs[0], &(zeil_submission_t){(zeil_record_kind_t)(record), call,   \
                                                      NULL, NULL, bytes, a->hSignalEvent,   \
                                                      a->numWaitEvents, a->phWaitEvents});  \
        HAZARDS_APPENDED(.call = call, .list = objs[0], .signal = a->hSignalEvent,          \
                         .num_waits = a->numWaitEvents, .waits = a->phWaitEvents,           \
                         __VA_ARGS__);                                                      \
    }

ZEIL_PRE(zeCommandListAppendMemoryCopy)
{
    ze_result_t r = check_usm_range(call, objs[0], "dstptr", a->dstptr, a->size);
    CHECK_KEEP_FIRST(r, check_usm_range(call, objs[0], "srcptr", a->srcptr, a->size));
    return r;
}
APPENDED(zeCommandListAppendMemoryCopy, ZEIL_RECORD_COPY, a->size, .kind = HAZARDS_COPY,
         .dst = a->dstptr, .src = a->srcptr, .size = a->size)

/* Regions start at their origin's offset: the ranges from the pointers on
 * are an over-estimate, clipped to the allocations. */
static size_t region_bytes(const ze_copy_region_t *region, uint32_t pitch)
{
    size_t rows = region ? (size_t)region->height * (region->depth ? region->depth : 1) : 0;
    return region ? rows * (rows > 1 && pitch ? pitch : region->width) : 0;
}
APPENDED(zeCommandListAppendMemoryCopyRegion, ZEIL_RECORD_COPY,
         region_bytes(a->dstRegion, a->dstPitch), .kind = HAZARDS_COPY, .dst = a->dstptr,
         .src = a->srcptr, .size = SIZE_MAX)

ZEIL_PRE(zeCommandListAppendMemoryFill)
{
    return check_usm_range(call, objs[0], "ptr", a->ptr, a->size);
}
APPENDED(zeCommandListAppendMemoryFill, ZEIL_RECORD_FILL, a->size, .kind = HAZARDS_FILL,
         .dst = a->ptr, .size = a->size)

APPENDED(zeCommandListAppendBarrier, ZEIL_RECORD_BARRIER, 0, .kind = HAZARDS_BARRIER)
APPENDED(zeCommandListAppendMemoryRangesBarrier, ZEIL_RECORD_BARRIER, 0, .kind = HAZARDS_BARRIER)

/* Timestamps submit no work of their own: checked, not recorded. */
ZEIL_PRE(zeCommandListAppendWriteGlobalTimestamp)
{
    return check_usm_range(call, objs[0], "dstptr", a->dstptr, sizeof *a->dstptr);
}
APPENDED(zeCommandListAppendWriteGlobalTimestamp, -1, 0, .kind = HAZARDS_FILL, .dst = a->dstptr,
         .size = sizeof *a->dstptr)

ZEIL_PRE(zeCommandListAppendQueryKernelTimestamps)
{
    return check_handle_array(call, "phEvents[]", a->numEvents,
                              (const void *const *)a->phEvents, ZEIL_KIND_EVENT);
}
APPENDED(zeCommandListAppendQueryKernelTimestamps, -1, 0, .kind = HAZARDS_SIGNAL)

ZEIL_POST(zeCommandListAppendWaitOnEvents)
{
    HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_WAIT,
                     .num_waits = a->numEvents, .waits = a->phEvents);
}

/* The event is checked as the list's signal event would be. */
ZEIL_PRE(zeCommandListAppendSignalEvent)
{
    zeil_obj_t *list, *signal;
    return check_append(call, a->hCommandList, &list, a->hEvent, &signal, 0, NULL);
}

ZEIL_POST(zeCommandListAppendSignalEvent)
{
    check_note_signal(objs[1], call);
    HAZARDS_APPENDED(.call = call, .list = objs[0], .kind = HAZARDS_SIGNAL, .signal = a->hEvent);
}

/* A reset is no signal: the event is checked as a wait event would be. */
ZEIL_PRE(zeCommandListAppendEventReset)
{
    zeil_obj_t *list, *none;
    return check_append(call, a->hCommandList, &list, NULL, &none, 1, &a->hEvent);
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
