/* Kernel launches: capture at append time, run every work-group. */
#include "rd_launch.h"
#include "rd_driver.h"
#include "rd_kernel.h"
#include "rd_schedule.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(RD_ARG_ALIGNMENT <= 16, "arena blocks are aligned to 16 bytes");

struct rd_launch {
    rd_module_t *module; /* holds a reference when on the heap: the entry's code */
    rd_driver_t *driver;
    zeil_cpu_kernel_fn entry;    /* a native kernel's, or null */
    const rd_cm_kernel_t *cm;    /* a compiled kernel, or null */
    uint32_t *local_sizes;       /* a compiled kernel's local argument sizes, or null */
    uint32_t group_size[3];
    uint32_t group_count[3];
    const ze_group_count_t *indirect; /* read when the launch runs, or null */
    const void **args;     /* num_args pointers into values, or null */
    unsigned char *values; /* copy of the kernel's argument bytes */
};

/* Groups in a launch, or 0 when the product does not fit 64 bits. */
static uint64_t total_groups(const ze_group_count_t *g)
{
    uint64_t total;
    if (__builtin_mul_overflow((uint64_t)g->groupCountX * g->groupCountY, (uint64_t)g->groupCountZ, &total))
        return 0;
    return total;
}

/* One block: the launch, the argument pointers, the argument bytes. */
static size_t values_offset(uint32_t num_args)
{
    size_t at = sizeof(rd_launch_t) + num_args * sizeof(void *);
    return (at + RD_ARG_ALIGNMENT - 1) & ~(size_t)(RD_ARG_ALIGNMENT - 1);
}

/* The argument bytes, then a compiled kernel's local sizes. */
static size_t capture_size(size_t values_at, const rd_kernel_t *kernel)
{
    size_t locals = kernel->cm ? kernel->num_args * sizeof(uint32_t) : 0;
    return (values_at + ((kernel->arg_bytes + 3) & ~(size_t)3) + locals + RD_ARG_ALIGNMENT - 1) & ~(size_t)(RD_ARG_ALIGNMENT - 1);
}

size_t rd_launch_capture_size(const rd_kernel_t *kernel)
{
    return capture_size(values_offset(kernel->num_args), kernel);
}

ze_result_t rd_launch_capture(rd_kernel_t *kernel, const ze_group_count_t *groups, int indirect, rd_cmd_arena_t *arena,
                              rd_launch_t **out)
{
    if (!indirect && total_groups(groups) == 0 && groups->groupCountX && groups->groupCountY && groups->groupCountZ)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT; /* more groups than a launch can count */
    uint32_t n = kernel->num_args;
    for (uint32_t i = 0; i < n; i++)
        if (kernel->arg_states[i] == RD_ARG_UNSET)
            return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    size_t values_at = values_offset(n);
    size_t size = capture_size(values_at, kernel);
    /* Arena blocks are aligned to 16, RD_ARG_ALIGNMENT. */
    rd_launch_t *l = arena ? rd_cmd_arena_alloc(arena, size) : aligned_alloc(RD_ARG_ALIGNMENT, size);
    if (!l)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    l->args = (const void **)(void *)(l + 1);
    l->values = (unsigned char *)l + values_at;
    memcpy(l->values, kernel->arg_values, kernel->arg_bytes);
    for (uint32_t i = 0; i < n; i++)
        l->args[i] = kernel->arg_states[i] == RD_ARG_NULL ? NULL : l->values + kernel->arg_offsets[i];
    memcpy(l->group_size, kernel->group_size, sizeof l->group_size);
    l->indirect = indirect ? groups : NULL;
    if (!indirect) {
        l->group_count[0] = groups->groupCountX;
        l->group_count[1] = groups->groupCountY;
        l->group_count[2] = groups->groupCountZ;
    }
    l->entry = kernel->abi ? kernel->abi->entry : NULL;
    l->cm = kernel->cm;
    l->local_sizes = NULL;
    if (kernel->cm) {
        l->local_sizes = (uint32_t *)(void *)(l->values + ((kernel->arg_bytes + 3) & ~(size_t)3));
        memcpy(l->local_sizes, kernel->local_sizes, n * sizeof(uint32_t));
    }
    l->driver = kernel->module->driver;
    if (!arena)
        rd_module_retain(kernel->module);
    l->module = kernel->module;
    *out = l;
    return ZE_RESULT_SUCCESS;
}

/* One execution of a launch: a regular list may run on two queues at once,
 * so the group counts of an indirect launch live here, not in the launch. */
typedef struct rd_launch_run {
    const rd_launch_t *launch;
    uint32_t group_count[3];
} rd_launch_run_t;

static void run_group(void *ctx, uint64_t index)
{
    const rd_launch_run_t *run = ctx;
    const rd_launch_t *l = run->launch;
    const uint32_t *count = run->group_count;
    zeil_cpu_group_t g;
    g.group_id[0] = (uint32_t)(index % count[0]);
    g.group_id[1] = (uint32_t)(index / count[0] % count[1]);
    g.group_id[2] = (uint32_t)(index / ((uint64_t)count[0] * count[1]));
    for (int d = 0; d < 3; d++) {
        g.group_size[d] = l->group_size[d];
        g.group_count[d] = count[d];
        g.global_size[d] = (uint64_t)count[d] * l->group_size[d];
    }
    l->entry(&g, (const void *const *)l->args);
}

void rd_launch_run(const rd_launch_t *l)
{
    ze_group_count_t counts = {l->group_count[0], l->group_count[1], l->group_count[2]};
    if (l->indirect)
        counts = *l->indirect;
    uint64_t total = total_groups(&counts); /* an overflowing indirect count runs nothing */
    if (total == 0)
        return;
    rd_launch_run_t run = {l, {counts.groupCountX, counts.groupCountY, counts.groupCountZ}};
    if (l->cm) {
        rd_sched_launch_t sl = {
            .kernel = l->cm,
            .args = (const void *const *)l->args,
            .local_sizes = l->local_sizes,
            .group_size = {l->group_size[0], l->group_size[1], l->group_size[2]},
            .group_count = {counts.groupCountX, counts.groupCountY, counts.groupCountZ},
        };
        rd_sched_run(rd_driver_threadpool(l->driver), &sl);
        return;
    }
    rd_threadpool_run(rd_driver_threadpool(l->driver), total, run_group, &run);
}

void rd_launch_free(rd_launch_t *l)
{
    if (!l)
        return;
    rd_module_release(l->module);
    free(l);
}
