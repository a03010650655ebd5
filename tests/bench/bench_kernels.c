/*
 * The kernels child: what running a compiled kernel costs on the reference
 * driver's work-item scheduler (tests/refdriver/execution/rd_schedule.h),
 * on a pool as large as the driver's (one thread per core, the caller
 * taking part):
 *   workitem_ns            ns per work-item of a kernel without barriers
 *                          (iota, groups of 256: the direct path)
 *   workitem_barrier_ns    ns per work-item of a kernel with one barrier
 *                          (groups of 256: every work-item on a fiber)
 *   elementwise_vs_c_ratio a plain C loop's time over the kernel's for
 *                          out = in * f over 2^24 floats, the C loop run on
 *                          the same pool in the same chunks, alternated
 *                          with the kernel in one process
 * Times are the process's CPU time (every thread's; idle pool threads sleep
 * and count nothing), so a machine busy with other processes does not
 * inflate them: ns per work-item is the cost of one work-item on one core.
 * Until the driver's compiler lands, the kernels are the hand-written
 * stand-in for a compiled module (tests/driver/sched_standin.c): the
 * column is "standin".
 */
#include "bench_child.h"

#include "bench_stats.h"
#include "rd_schedule.h"
#include "sched_standin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define GROUP 256u
#define RUNS 7

static uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static double run_ns(rd_threadpool_t *pool, int kernel, const void *const *args, uint64_t items)
{
    rd_sched_launch_t l;
    memset(&l, 0, sizeof l);
    l.kernel = &sched_standin_module()->kernels[kernel];
    l.args = args;
    l.group_size[0] = GROUP;
    l.group_size[1] = l.group_size[2] = 1;
    l.group_count[0] = (uint32_t)(items / GROUP);
    l.group_count[1] = l.group_count[2] = 1;
    uint64_t start = cpu_ns();
    ze_result_t r = rd_sched_run(pool, &l);
    uint64_t end = cpu_ns();
    return r == ZE_RESULT_SUCCESS ? (double)(end - start) : -1;
}

/* The median of RUNS runs after one to warm up, in ns per work-item. */
static double per_item(rd_threadpool_t *pool, int kernel, const void *const *args, uint64_t items)
{
    double ns[RUNS];
    if (run_ns(pool, kernel, args, items) < 0)
        return -1;
    for (int i = 0; i < RUNS; i++)
        if ((ns[i] = run_ns(pool, kernel, args, items)) < 0)
            return -1;
    return bench_summarize(ns, RUNS).median / (double)items;
}

typedef struct c_loop {
    const float *in;
    float *out;
    float f;
} c_loop_t;

static void c_chunk(void *arg, uint64_t group)
{
    const c_loop_t *c = arg;
    uint64_t base = group * GROUP;
    for (uint64_t i = base; i < base + GROUP; i++)
        c->out[i] = c->in[i] * c->f;
}

/* Kernel and C loop alternated, RUNS of each: the median of C over kernel. */
static double elementwise_ratio(rd_threadpool_t *pool, uint64_t n)
{
    float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    if (!in || !out)
        return free(in), free(out), -1;
    for (uint64_t i = 0; i < n; i++)
        in[i] = (float)(i % 1000), out[i] = 0;
    float f = 1.5f;
    const void *args[3] = {&in, &out, &f};
    c_loop_t c = {in, out, f};
    double ratios[RUNS];
    run_ns(pool, SI_SCALE, args, n);
    rd_threadpool_run(pool, n / GROUP, c_chunk, &c);
    for (int i = 0; i < RUNS; i++) {
        double k = run_ns(pool, SI_SCALE, args, n);
        uint64_t start = cpu_ns();
        rd_threadpool_run(pool, n / GROUP, c_chunk, &c);
        double cl = (double)(cpu_ns() - start);
        ratios[i] = k > 0 ? cl / k : -1;
    }
    int right = out[n - 1] == in[n - 1] * f;
    free(in);
    free(out);
    return right ? bench_summarize(ratios, RUNS).median : -1;
}

int bench_child_kernels(const bench_child_args_t *args)
{
    rd_threadpool_t *pool = rd_threadpool_create((uint32_t)sysconf(_SC_NPROCESSORS_ONLN));
    if (!pool)
        return fprintf(stderr, "kernels: no pool\n"), 1;
    double scale = args->scale < 1 ? args->scale : 1;
    uint64_t items = (uint64_t)((double)(1u << 22) * scale) / GROUP * GROUP;
    uint64_t elementwise = (uint64_t)((double)(1u << 24) * scale) / GROUP * GROUP;
    if (items < GROUP * 64)
        items = GROUP * 64;
    if (elementwise < GROUP * 64)
        elementwise = GROUP * 64;
    uint32_t *out = calloc(items, sizeof *out);
    if (!out)
        return fprintf(stderr, "kernels: out of memory\n"), 1;
    const void *out_arg[1] = {&out};
    double plain = per_item(pool, SI_IOTA, out_arg, items);
    int right = out[items - 1] == items - 1;
    double barrier = per_item(pool, SI_BARRIER1, out_arg, items / 4);
    free(out);
    double ratio = elementwise_ratio(pool, elementwise);
    if (plain < 0 || barrier < 0 || ratio < 0 || !right)
        return fprintf(stderr, "kernels: a launch failed or computed wrong\n"), 1;
    bench_emit("workitem_ns", "standin", plain);
    bench_emit("workitem_barrier_ns", "standin", barrier);
    bench_emit("elementwise_vs_c_ratio", "standin", ratio);
    return 0;
}
