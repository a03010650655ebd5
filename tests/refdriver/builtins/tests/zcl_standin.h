/*
 * zcl_standin.h: a stand-in for the driver's work-item scheduler, for the
 * built-in library's tests only. Every work-item of a group is a thread of
 * its own with its own rd_wi_state_t; barriers are pthread barriers (one for
 * the group, one per sub-group). Groups run one after another, or all at
 * once (for atomics under contention). Not how the driver runs kernels.
 */
#ifndef ZEIL_ZCL_STANDIN_H
#define ZEIL_ZCL_STANDIN_H

#include "rd_workitem.h"
#include "zcl_check.h"

#include <stddef.h>

typedef struct zcl_range {
    uint32_t dims;
    uint64_t global[3];
    uint32_t local[3];
    uint64_t offset[3];
    uint32_t sg_size;   /* 8, 16 or 32 */
    int groups_at_once; /* 1: every group's threads run together */
} zcl_range_t;

/* Calls item(ctx) once per work-item of the range; returns 0, or -1 when
 * threads could not be made. */
int zcl_run(const zcl_range_t *r, void (*item)(void *ctx), void *ctx);

/* A 1-D range of n items in groups of local items, sub-groups of sg. */
zcl_range_t zcl_range_1d(uint64_t n, uint32_t local, uint32_t sg);

#endif
