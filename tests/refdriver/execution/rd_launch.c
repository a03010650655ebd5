/*
 * Kernel launches: capture at append time, run every work-group.
 *
 * A compiled kernel (rd_kernel_t.cm) runs on the work-item scheduler
 * (rd_schedule.h); a native one (rd_kernel_t.abi, zeil/cpu_kernel.h) gets
 * one call per group. Either way a fault of the kernel's code ends the
 * launch with ZE_RESULT_ERROR_DEVICE_LOST instead of the process.
 */
#include "rd_launch.h"
#include "rd_driver.h"
#include "rd_fault.h"
#include "rd_kernel.h"
#include "rd_schedule.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(RD_ARG_ALIGNMENT <= 16, "arena blocks are aligned to 16 bytes");

struct rd_launch {
    rd_module_t *module; /* holds a reference when on the heap: the entry's code */
    rd_driver_t *driver;
    zeil_cpu_kernel_fn entry; /* a native kernel's, or null */
    const rd_cm_kernel_t *cm; /* a compiled kernel, or null */
    const char *name;
    uint32_t num_args;
    uint32_t group_size[3];
    uint32_t group_count[3];
    const ze_group_count_t *indirect; /* read when the launch runs, or null */
    const void **args;                /* num_args pointers into values, or null */
    uint32_t *local_sizes;            /* compiled kernels: num_args sizes of local arguments */
    unsigned char *values;            /* copy of the kernel's argument bytes */
};

/* Groups in a launch, or 0 when the product does not fit 64 bits. */
static uint64_t total_groups(const ze_group_count_t *g)
{
    uint64_t total;
    if (__builtin_mul_overflow((uint64_t)g->groupCountX * g->groupCountY, (uint64_t)g->groupCountZ,
                               &total))
        return 0;
    return total;
}

/* One block: the launch, the argument pointers, the local sizes, the
 * argument bytes. */
static size_t values_offset(uint32_t num_args)
{
    size_t at = sizeof(rd_launch_t) + num_args * (sizeof(void *) + sizeof(uint32_t));
    return (at + RD_ARG_ALIGNMENT - 1) & ~(size_t)(RD_ARG_ALIGNMENT - 1);
}

static size_t capture_size(size_t values_at, size_t arg_bytes)
{
    return (values_at + arg_bytes + RD_ARG_ALIGNMENT - 1) & ~(size_t)(RD_ARG_ALIGNMENT - 1);
}

size_t rd_launch_capture_size(const rd_kernel_t *kernel)
{
    return capture_size(values_offset(kernel->num_args), kernel->arg_bytes);
}

/* A compiled kernel's arguments that no launch can take (images, samplers). */
static int unsupported_args(const rd_kernel_t *kernel)
{
    if (!kernel->cm)
        return 0;
    for (uint32_t i = 0; i < kernel->num_args && kernel->cm->args; i++)
        if (kernel->cm->args[i].kind == RD_CM_ARG_OTHER)
            return 1;
    return 0;
}

static void capture_args(const rd_kernel_t *kernel, rd_launch_t *l)
{
    uint32_t n = kernel->num_args;
    memcpy(l->values, kernel->arg_values, kernel->arg_bytes);
    for (uint32_t i = 0; i < n; i++) {
        unsigned char s = kernel->arg_states[i];
        l->args[i] =
            s == RD_ARG_NULL || s == RD_ARG_LOCAL ? NULL : l->values + kernel->arg_offsets[i];
        l->local_sizes[i] = s == RD_ARG_LOCAL && kernel->local_sizes ? kernel->local_sizes[i] : 0;
    }
}

ze_result_t rd_launch_capture(rd_kernel_t *kernel, const ze_group_count_t *groups, int indirect,
                              rd_cmd_arena_t *arena, rd_launch_t **out)
{
    if (!indirect && total_groups(groups) == 0 && groups->groupCountX && groups->groupCountY &&
        groups->groupCountZ)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT; /* more groups than a launch can count */
    uint32_t n = kernel->num_args;
    for (uint32_t i = 0; i < n; i++)
        if (kernel->arg_states[i] == RD_ARG_UNSET)
            return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    if (unsupported_args(kernel))
        return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
    size_t values_at = values_offset(n);
    size_t size = capture_size(values_at, kernel->arg_bytes);
    /* Arena blocks are aligned to 16, RD_ARG_ALIGNMENT. */
    rd_launch_t *l =
        arena ? rd_cmd_arena_alloc(arena, size) : aligned_alloc(RD_ARG_ALIGNMENT, size);
    if (!l)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    l->args = (const void **)(void *)(l + 1);
    l->local_sizes = (uint32_t *)(void *)(l->args + n);
    l->values = (unsigned char *)l + values_at;
    l->num_args = n;
    capture_args(kernel, l);
    memcpy(l->group_size, kernel->group_size, sizeof l->group_size);
    l->indirect = indirect ? groups : NULL;
    if (!indirect) {
        l->group_count[0] = groups->groupCountX;
        l->group_count[1] = groups->groupCountY;
        l->group_count[2] = groups->groupCountZ;
    }
    l->entry = kernel->abi ? kernel->abi->entry : NULL;
    l->cm = kernel->cm;
    l->name = kernel->name;
    l->driver = kernel->module->driver;
    if (!arena)
        rd_module_retain(kernel->module);
    l->module = kernel->module;
    *out = l;
    return ZE_RESULT_SUCCESS;
}

/* One execution of a native launch: a regular list may run on two queues
 * at once, so the group counts of an indirect launch live here, not in the
 * launch. */
typedef struct rd_launch_run {
    const rd_launch_t *launch;
    uint32_t group_count[3];
    int faulted; /* atomic: set by the first group that faulted */
    rd_fault_scope_t fault;
    uint32_t fault_group[3];
} rd_launch_run_t;

static void group_faulted(rd_launch_run_t *run, const rd_fault_scope_t *scope,
                          const zeil_cpu_group_t *g)
{
    int expected = 0;
    if (!__atomic_compare_exchange_n(&run->faulted, &expected, 1, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        return;
    run->fault = *scope;
    memcpy(run->fault_group, g->group_id, sizeof run->fault_group);
}

static void run_group(void *ctx, uint64_t index)
{
    rd_launch_run_t *run = ctx;
    if (__atomic_load_n(&run->faulted, __ATOMIC_RELAXED))
        return; /* the launch faulted: its other groups do not run */
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
    rd_fault_scope_t scope;
    scope.resume_stack = NULL;
    if (sigsetjmp(scope.jmp, 0)) {
        group_faulted(run, &scope, &g);
        return;
    }
    rd_fault_prepare();
    rd_fault_enter(&scope);
    l->entry(&g, (const void *const *)l->args);
    rd_fault_leave();
}

static ze_result_t run_native(const rd_launch_t *l, const ze_group_count_t *counts, uint64_t total)
{
    rd_launch_run_t run;
    memset(&run, 0, sizeof run);
    run.launch = l;
    run.group_count[0] = counts->groupCountX;
    run.group_count[1] = counts->groupCountY;
    run.group_count[2] = counts->groupCountZ;
    rd_threadpool_run(rd_driver_threadpool(l->driver), total, run_group, &run);
    if (!__atomic_load_n(&run.faulted, __ATOMIC_ACQUIRE))
        return ZE_RESULT_SUCCESS;
    char what[160];
    rd_fault_describe(&run.fault, what, sizeof what);
    fprintf(
        stderr,
        "zeil cpu driver: kernel '%s' faulted in work-group (%u, %u, %u): %s; the device is lost\n",
        l->name ? l->name : "?", run.fault_group[0], run.fault_group[1], run.fault_group[2], what);
    return ZE_RESULT_ERROR_DEVICE_LOST;
}

static ze_result_t run_compiled(const rd_launch_t *l, const ze_group_count_t *counts)
{
    rd_sched_launch_t s;
    memset(&s, 0, sizeof s);
    s.kernel = l->cm;
    s.args = (const void *const *)l->args;
    s.local_sizes = l->local_sizes;
    memcpy(s.group_size, l->group_size, sizeof s.group_size);
    s.group_count[0] = counts->groupCountX;
    s.group_count[1] = counts->groupCountY;
    s.group_count[2] = counts->groupCountZ;
    return rd_sched_run(rd_driver_threadpool(l->driver), &s);
}

ze_result_t rd_launch_run(const rd_launch_t *l)
{
    ze_group_count_t counts = {l->group_count[0], l->group_count[1], l->group_count[2]};
    if (l->indirect)
        counts = *l->indirect;
    uint64_t total = total_groups(&counts); /* an overflowing indirect count runs nothing */
    if (total == 0)
        return ZE_RESULT_SUCCESS;
    if (l->cm)
        return run_compiled(l, &counts);
    if (!l->entry)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    return run_native(l, &counts, total);
}

void rd_launch_free(rd_launch_t *l)
{
    if (!l)
        return;
    rd_module_release(l->module);
    free(l);
}
