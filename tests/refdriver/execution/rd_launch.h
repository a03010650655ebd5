/*
 * rd_launch.h: a kernel launch captured at append time (kernel entry, group
 * size and count, a copy of every argument value) and its execution: every
 * work-group, spread over the driver's pool.
 */
#ifndef ZEIL_RD_LAUNCH_H
#define ZEIL_RD_LAUNCH_H

#include "rd_cmd_arena.h"

#include <level_zero/ze_api.h>
#include <stddef.h>

struct rd_kernel;
typedef struct rd_launch rd_launch_t;

/* The bytes a capture of the kernel takes (a multiple of 16). */
size_t rd_launch_capture_size(const struct rd_kernel *kernel);
/* ZE_RESULT_ERROR_INVALID_ARGUMENT when an argument was never set. With
 * indirect, groups points to memory read only when the launch runs. With an
 * arena (a regular list's, or an immediate list's job store) the capture
 * lives there and takes no reference on the kernel's module: the list or the
 * job holds it (rd_cmdlist_hold_module). Without, it is on the heap, holds
 * the module, and rd_launch_free releases both. */
ze_result_t rd_launch_capture(struct rd_kernel *kernel, const ze_group_count_t *groups,
                              int indirect, rd_cmd_arena_t *arena, rd_launch_t **launch);
/* Runs every work-group: ZE_RESULT_SUCCESS, or ZE_RESULT_ERROR_DEVICE_LOST
 * when the kernel faulted (reported on stderr; the process goes on). */
ze_result_t rd_launch_run(const rd_launch_t *launch);
/* A capture made without an arena. */
void rd_launch_free(rd_launch_t *launch);

#endif
