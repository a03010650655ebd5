/*
 * launch_scaling: ns per append per thread with N threads appending at once,
 * each with its own kernel and its own regular list (what frameworks do
 * with one list per stream, rank or worker). Each thread appends vector_add
 * in batches of BATCH, resetting its list after each batch (untimed), as
 * launch_append_ns does on one thread.
 *
 * Only batches made while every thread still runs count: the first thread
 * to finish its batches tells the others to stop, so a thread never times
 * itself alone on the machine. A thread's value is the median of its batch
 * means; the child's is the mean of its threads' values.
 *
 * Each batch through the API is paired with one straight into the driver on
 * the same list (bench_direct.h), in alternating order: the median of a
 * thread's differences is what the path above the driver added on it, and
 * launch_scaling_added_ns the mean over threads, a figure the drift of the
 * machine's speed between processes does not move.
 */
#include "bench_child.h"

#include "bench_direct.h"
#include "bench_stats.h"
#include "bench_ze.h"

#include <zeil/zeil.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH 1000u
#define WARMUP_BATCHES 10u
#define FULL_BATCHES 200u

typedef struct worker {
    const bench_ze_t *ze;
    const bench_direct_t *direct;
    ze_kernel_handle_t kernel;
    ze_command_list_handle_t list;
    size_t batches;
    double *means, *added;
    size_t timed; /* batches counted, at most batches */
    pthread_barrier_t *start;
    _Atomic int *stop; /* set by the first thread done: the rest stop too */
    pthread_t thread;
} worker_t;

/* One batch on the thread's list, through the API or straight into the
 * driver: its mean ns per append. */
static double batch(const worker_t *w, int straight)
{
    static const ze_group_count_t one_group = {1, 1, 1};
    ze_pfnCommandListAppendLaunchKernel_t direct = w->direct->list.pfnAppendLaunchKernel;
    ze_result_t failed = ZE_RESULT_SUCCESS;
    uint64_t start = bench_now_ns();
    if (straight)
        for (unsigned k = 0; k < BATCH; k++)
            failed |= direct(w->list, w->kernel, &one_group, NULL, 0, NULL);
    else
        for (unsigned k = 0; k < BATCH; k++)
            failed |=
                zeCommandListAppendLaunchKernel(w->list, w->kernel, &one_group, NULL, 0, NULL);
    uint64_t end = bench_now_ns();
    BENCH_ZE_OK(failed);
    BENCH_ZE_OK(zeCommandListReset(w->list));
    return (double)(end - start) / BATCH;
}

static void *append_batches(void *arg)
{
    worker_t *w = arg;
    pthread_barrier_wait(w->start);
    for (size_t i = 0; i < WARMUP_BATCHES + w->batches; i++) {
        double mean[2]; /* through the API, straight into the driver */
        int first = (int)(i & 1);
        mean[first] = batch(w, first);
        mean[!first] = batch(w, !first);
        /* Read once a batch: the flag's line is shared, but written only once. */
        if (atomic_load_explicit(w->stop, memory_order_relaxed))
            break;
        if (i >= WARMUP_BATCHES) {
            w->means[w->timed] = mean[0];
            w->added[w->timed++] = mean[0] - mean[1];
        }
    }
    atomic_store_explicit(w->stop, 1, memory_order_relaxed);
    return NULL;
}

int bench_child_scaling(const bench_child_args_t *args)
{
    unsigned threads = args->threads;
    if (threads < 1 || threads > 1024)
        bench_fail("--threads %u: expected 1 to 1024", threads);
    bench_ze_t ze;
    bench_ze_open(&ze);
    int zeil_expected = strcmp(args->config, "zeil") == 0;
    if (zeil_is_active() != zeil_expected)
        bench_fail("configuration %s: zeil is %s", args->config,
                   zeil_expected ? "not active" : "active although it should be off");
    size_t batches = (size_t)((double)FULL_BATCHES * args->scale);
    if (batches < 3)
        batches = 3;
    bench_direct_t direct;
    bench_direct_open(&direct);
    worker_t *workers = calloc(threads, sizeof *workers);
    pthread_barrier_t start;
    _Atomic int stop = 0;
    if (!workers || pthread_barrier_init(&start, NULL, threads) != 0)
        bench_fail("out of memory");
    for (unsigned t = 0; t < threads; t++) {
        worker_t *w = &workers[t];
        *w = (worker_t){&ze,
                        &direct,
                        bench_ze_new_kernel(&ze),
                        bench_ze_new_list(&ze),
                        batches,
                        calloc(batches, sizeof(double)),
                        calloc(batches, sizeof(double)),
                        0,
                        &start,
                        &stop,
                        0};
        if (!w->means || !w->added)
            bench_fail("out of memory");
    }
    for (unsigned t = 0; t < threads; t++)
        if (pthread_create(&workers[t].thread, NULL, append_batches, &workers[t]) != 0)
            bench_fail("cannot start thread %u of %u", t + 1, threads);
    double sum = 0, added = 0;
    unsigned counted = 0;
    for (unsigned t = 0; t < threads; t++) {
        worker_t *w = &workers[t];
        pthread_join(w->thread, NULL);
        /* A thread the scheduler starved until the others were done has no
         * batch made alongside them: it says nothing about scaling. */
        if (w->timed > 0) {
            sum += bench_summarize(w->means, w->timed).median;
            added += bench_summarize(w->added, w->timed).median;
            counted++;
        }
        BENCH_ZE_OK(zeCommandListDestroy(w->list));
        BENCH_ZE_OK(zeKernelDestroy(w->kernel));
        free(w->means);
        free(w->added);
    }
    pthread_barrier_destroy(&start);
    free(workers);
    if (counted == 0)
        bench_fail("no thread of %u timed a batch", threads);
    bench_ze_close(&ze);
    char column[24];
    snprintf(column, sizeof column, "%s_%u", args->config, threads);
    bench_emit("launch_scaling_ns", column, sum / counted);
    bench_emit("launch_scaling_added_ns", column, added / counted);
    return 0;
}

unsigned bench_scaling_thread_counts(unsigned cores, unsigned *counts, unsigned cap)
{
    unsigned n = 0;
    for (unsigned t = 1; t <= cores && n < cap; t *= 2)
        counts[n++] = t;
    if (n < cap && counts[n - 1] != cores)
        counts[n++] = cores; /* 6 cores: 1 2 4 6 */
    return n;
}
