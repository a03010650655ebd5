/*
 * rd_schedule.h: running a launch of a compiled kernel (rd_compiled.h) with
 * OpenCL's semantics: work-groups in parallel on the driver's pool, the
 * work-items of a group sharing local memory and meeting at barriers,
 * sub-groups in lockstep between collectives. A work-item that faults ends
 * the launch; the caller reports ZE_RESULT_ERROR_DEVICE_LOST.
 */
#ifndef ZEIL_RD_SCHEDULE_H
#define ZEIL_RD_SCHEDULE_H

#include "rd_compiled.h"
#include "rd_threadpool.h"

#include <level_zero/ze_api.h>

typedef struct rd_sched_launch {
    const rd_cm_kernel_t *kernel;
    const void *const
        *args; /* per argument: its bytes (null for a null pointer); unused for a local one */
    const uint32_t
        *local_sizes; /* per argument: bytes of a local argument, else 0; null when none */
    uint32_t group_size[3];
    uint32_t group_count[3];
    uint64_t global_offset[3];
} rd_sched_launch_t;

/* Runs every group and returns when all are done: ZE_RESULT_SUCCESS, or
 * ZE_RESULT_ERROR_DEVICE_LOST when a work-item faulted (the kernel, group,
 * work-item and address are printed on stderr). */
ze_result_t rd_sched_run(rd_threadpool_t *pool, const rd_sched_launch_t *launch);

#endif
