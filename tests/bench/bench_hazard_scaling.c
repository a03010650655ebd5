/*
 * hazard_scaling_added_ns "8x4": what the hazard checks add per launch when
 * eight streams are fed from four threads. Each thread owns two in-order
 * immediate lists, its own three buffers and its own vector_add on them,
 * and launches alternately on its two lists, as bench_hazards.c does on one
 * thread: each batch held back by an event the host signals after the
 * timed appends, each batch through the API paired with one straight into
 * the driver (bench_direct.h), timed in the thread's CPU time. The same
 * child runs under "zeil" and "zeil_hazards"; the figure is the difference
 * of their paired medians. With more threads than cores, a lock shared by
 * every append shows here: a thread that waits for it spends its CPU time.
 */
#include "bench_child.h"

#include "bench_direct.h"
#include "bench_hazards.h"
#include "bench_stats.h"
#include "bench_ze.h"

#include <zeil/zeil.h>

#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define THREADS 4u
#define LISTS 2u /* per thread */
#define BATCH 1000u
#define WARMUP_BATCHES 10u
#define FULL_BATCHES 300u

typedef struct shared {
    bench_ze_t ze;
    bench_direct_t direct;
    ze_event_handle_t go; /* the host's: every list waits on it */
    pthread_barrier_t step;
    size_t batches;
} shared_t;

typedef struct worker {
    shared_t *s;
    unsigned index;
    void *buffers[3];
    ze_kernel_handle_t kernel;
    ze_command_list_handle_t lists[LISTS];
    ze_event_handle_t done[LISTS];
    double *means, *added; /* per batch, warm-up included */
    pthread_t thread;
} worker_t;

/* One batch alternating over the thread's lists: mean ns per append. */
static double batch(const worker_t *w, int straight)
{
    static const ze_group_count_t one_group = {1, 1, 1};
    ze_pfnCommandListAppendLaunchKernel_t direct = w->s->direct.list.pfnAppendLaunchKernel;
    ze_result_t failed = ZE_RESULT_SUCCESS;
    uint64_t start = bench_thread_cpu_ns();
    if (straight)
        for (unsigned k = 0; k < BATCH; k++)
            failed |= direct(w->lists[k % LISTS], w->kernel, &one_group, NULL, 0, NULL);
    else
        for (unsigned k = 0; k < BATCH; k++)
            failed |= zeCommandListAppendLaunchKernel(w->lists[k % LISTS], w->kernel, &one_group,
                                                      NULL, 0, NULL);
    uint64_t end = bench_thread_cpu_ns();
    BENCH_ZE_OK(failed);
    return (double)(end - start) / BATCH;
}

static void *run(void *arg)
{
    worker_t *w = arg;
    shared_t *s = w->s;
    for (size_t b = 0; b < s->batches; b++) {
        for (unsigned l = 0; l < LISTS; l++)
            BENCH_ZE_OK(zeCommandListAppendWaitOnEvents(w->lists[l], 1, &s->go));
        pthread_barrier_wait(&s->step);
        /* Past the driver workers' polling, as bench_hazards.c. */
        struct timespec settle = {0, 1000 * 1000};
        nanosleep(&settle, NULL);
        double mean[2]; /* through the API, straight into the driver */
        for (int turn = 0; turn < 2; turn++) {
            int straight = turn ^ (int)((b + w->index) & 1);
            mean[straight] = batch(w, straight);
        }
        w->means[b] = mean[0];
        w->added[b] = mean[0] - mean[1];
        for (unsigned l = 0; l < LISTS; l++)
            BENCH_ZE_OK(zeCommandListAppendBarrier(w->lists[l], w->done[l], 0, NULL));
        pthread_barrier_wait(&s->step);
        if (w->index == 0)
            BENCH_ZE_OK(zeEventHostSignal(s->go));
        for (unsigned l = 0; l < LISTS; l++) {
            BENCH_ZE_OK(zeEventHostSynchronize(w->done[l], UINT64_MAX));
            BENCH_ZE_OK(zeEventHostReset(w->done[l]));
        }
        pthread_barrier_wait(&s->step);
        if (w->index == 0)
            BENCH_ZE_OK(zeEventHostReset(s->go));
        pthread_barrier_wait(&s->step);
    }
    return NULL;
}

static void worker_open(worker_t *w, shared_t *s, unsigned index, ze_event_pool_handle_t pool)
{
    *w = (worker_t){.s = s, .index = index};
    bench_ze_alloc_buffers(&s->ze, w->buffers);
    w->kernel = bench_ze_kernel_on(&s->ze, w->buffers);
    for (unsigned l = 0; l < LISTS; l++) {
        w->lists[l] = bench_stream_list(&s->ze);
        ze_event_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, index * LISTS + l,
                                ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
        BENCH_ZE_OK(zeEventCreate(pool, &desc, &w->done[l]));
    }
    w->means = calloc(s->batches, sizeof *w->means);
    w->added = calloc(s->batches, sizeof *w->added);
    if (!w->means || !w->added)
        bench_fail("out of memory");
}

static void worker_close(worker_t *w)
{
    for (unsigned l = 0; l < LISTS; l++) {
        BENCH_ZE_OK(zeCommandListDestroy(w->lists[l]));
        BENCH_ZE_OK(zeEventDestroy(w->done[l]));
    }
    BENCH_ZE_OK(zeKernelDestroy(w->kernel));
    for (int i = 0; i < 3; i++)
        BENCH_ZE_OK(zeMemFree(w->s->ze.context, w->buffers[i]));
    free(w->means);
    free(w->added);
}

/* Per timed batch, the mean over threads; then the median over batches. */
static double median_over_batches(const worker_t *workers, size_t batches, int added)
{
    size_t timed = batches - WARMUP_BATCHES;
    double *per_batch = calloc(timed, sizeof *per_batch);
    if (!per_batch)
        bench_fail("out of memory");
    for (size_t b = 0; b < timed; b++) {
        for (unsigned t = 0; t < THREADS; t++)
            per_batch[b] += (added ? workers[t].added : workers[t].means)[WARMUP_BATCHES + b];
        per_batch[b] /= THREADS;
    }
    double median = bench_summarize(per_batch, timed).median;
    free(per_batch);
    return median;
}

int bench_child_hazard_scaling(const bench_child_args_t *args)
{
    int want = strcmp(args->config, "zeil_hazards") == 0;
    mallopt(M_TRIM_THRESHOLD, 256 << 20); /* as bench_hazards.c */
    static shared_t s;
    bench_ze_open(&s.ze);
    /* zeil: the exact checks (the default); zeil_hazards: with the guesses. */
    if (!zeil_is_active() || !zeil_hazards_enabled() || zeil_hazard_guesses_enabled() != want)
        bench_fail("configuration %s: zeil active %d, hazard checks %d, guesses %d", args->config,
                   zeil_is_active(), zeil_hazards_enabled(), zeil_hazard_guesses_enabled());
    bench_direct_open(&s.direct);
    size_t timed = (size_t)(FULL_BATCHES * args->scale);
    s.batches = WARMUP_BATCHES + (timed < 3 ? 3 : timed);
    ze_event_pool_desc_t pool_desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                      ZE_EVENT_POOL_FLAG_HOST_VISIBLE, THREADS * LISTS + 1};
    ze_event_pool_handle_t pool = NULL;
    BENCH_ZE_OK(zeEventPoolCreate(s.ze.context, &pool_desc, 1, &s.ze.device, &pool));
    ze_event_desc_t go_desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, THREADS * LISTS,
                               ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
    BENCH_ZE_OK(zeEventCreate(pool, &go_desc, &s.go));
    if (pthread_barrier_init(&s.step, NULL, THREADS) != 0)
        bench_fail("pthread_barrier_init failed");
    worker_t workers[THREADS];
    for (unsigned t = 0; t < THREADS; t++)
        worker_open(&workers[t], &s, t, pool);
    for (unsigned t = 0; t < THREADS; t++)
        if (pthread_create(&workers[t].thread, NULL, run, &workers[t]) != 0)
            bench_fail("pthread_create failed");
    for (unsigned t = 0; t < THREADS; t++)
        pthread_join(workers[t].thread, NULL);
    double median = median_over_batches(workers, s.batches, 0);
    double added = median_over_batches(workers, s.batches, 1);
    for (unsigned t = 0; t < THREADS; t++)
        worker_close(&workers[t]);
    pthread_barrier_destroy(&s.step);
    BENCH_ZE_OK(zeEventDestroy(s.go));
    BENCH_ZE_OK(zeEventPoolDestroy(pool));
    bench_ze_close(&s.ze);
    char column[48];
    snprintf(column, sizeof column, "%s_%ux%u", args->config, THREADS * LISTS, THREADS);
    bench_emit("hazard_scaling_launch_ns", column, median);
    bench_emit("hazard_scaling_added_ns", column, added);
    return 0;
}
