/*
 * timing.h: ZEIL_TIMING=1, device start/end of each launch from kernel
 * timestamps, without changing what the application observes: the launch
 * signals a zeil-owned timestamp event (and, when the application gave a
 * signal event, a barrier waiting on zeil's event signals the application's),
 * and finished events are read later, never blocking a launch.
 */
#ifndef ZEIL_TIMING_H
#define ZEIL_TIMING_H

#include "env.h"
#include "records.h"

/* 1 when ZEIL_TIMING=1 and the list can take timestamp events. Inline: every
 * launch asks. */
static inline int timing_wanted(const zeil_obj_t *list)
{
    return zeil_settings()->timing && list->is_immediate && list->records;
}

/* Forwards the launch with a timestamp event and records it. Falls back to a
 * plain launch (untimed) when no event is free. */
ze_result_t timing_launch(const zeil_next_t *next, zeil_obj_t *list, const zeil_submission_t *s,
                          ze_pfnCommandListAppendLaunchKernel_t forward, ze_kernel_handle_t kernel);

/* Reads the device times of every finished timed launch of the list (or of
 * all lists when null). Never waits. */
void timing_collect(zeil_obj_t *list);
/* The list is going away: read what finished, release its events. */
void timing_list_destroyed(zeil_obj_t *list);

#endif
