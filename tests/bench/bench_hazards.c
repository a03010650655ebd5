/*
 * hazard_overhead_ns: what the hazard checks (ZEIL_CHECKS=hazards) add to a
 * launch with two streams. The same child runs under "zeil" and
 * "zeil_hazards"; the figure is the difference of their medians. Launches
 * alternate between two in-order immediate lists, as two oneDNN streams
 * would. Each batch starts with both lists waiting on an event the host
 * signals only after the timed appends: the driver's workers stay idle
 * meanwhile, so the figure is the appends' cost, not how the workers and the
 * appending thread share two cores. Between batches (untimed) each list
 * signals an event and the host waits for both, so the checks' histories are
 * in their steady state (passed by every list, forgotten).
 */
#include "bench_child.h"

#include "bench_direct.h"
#include "bench_hazards.h"
#include "bench_stats.h"
#include "bench_ze.h"

#include <zeil/zeil.h>

#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCH 1000u
#define WARMUP_BATCHES 10u

uint64_t bench_thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

ze_command_list_handle_t bench_stream_list(const bench_ze_t *ze)
{
    ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                    NULL,
                                    0,
                                    0,
                                    ZE_COMMAND_QUEUE_FLAG_IN_ORDER,
                                    ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                    ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t list = NULL;
    BENCH_ZE_OK(zeCommandListCreateImmediate(ze->context, ze->device, &desc, &list));
    return list;
}

int bench_child_hazards(const bench_child_args_t *args)
{
    int want = strcmp(args->config, "zeil_hazards") == 0;
    /* The driver allocates per launch and frees at completion: with the
     * default trim threshold glibc gave the heap's top back and took it again
     * every batch (brk, page faults) in one configuration and not in the
     * other, which moved the figure by more than the checks cost. */
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    bench_ze_t ze;
    bench_ze_open(&ze);
    /* zeil: the exact checks (the default), which a plain launch skips;
     * zeil_hazards: with the guesses, each launch's three arguments. */
    if (!zeil_is_active() || !zeil_hazards_enabled() || zeil_hazard_guesses_enabled() != want)
        bench_fail("configuration %s: zeil active %d, hazard checks %d, guesses %d", args->config,
                   zeil_is_active(), zeil_hazards_enabled(), zeil_hazard_guesses_enabled());
    ze_command_list_handle_t lists[2] = {bench_stream_list(&ze), bench_stream_list(&ze)};
    ze_event_pool_desc_t pool_desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                      ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 3};
    ze_event_pool_handle_t pool = NULL;
    BENCH_ZE_OK(zeEventPoolCreate(ze.context, &pool_desc, 1, &ze.device, &pool));
    ze_event_handle_t done[3]; /* each list's, then the host's go */
    for (uint32_t i = 0; i < 3; i++) {
        ze_event_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, i, ZE_EVENT_SCOPE_FLAG_HOST,
                                ZE_EVENT_SCOPE_FLAG_HOST};
        BENCH_ZE_OK(zeEventCreate(pool, &desc, &done[i]));
    }
    ze_event_handle_t go = done[2];
    size_t timed = (size_t)(1000 * args->scale);
    if (timed < 3)
        timed = 3;
    double *means = calloc(timed, sizeof *means), *added = calloc(timed, sizeof *added);
    if (!means || !added)
        bench_fail("out of memory");
    bench_direct_t direct;
    bench_direct_open(&direct);
    static const ze_group_count_t one_group = {1, 1, 1};
    for (size_t b = 0; b < WARMUP_BATCHES + timed; b++) {
        for (int s = 0; s < 2; s++)
            BENCH_ZE_OK(zeCommandListAppendWaitOnEvents(lists[s], 1, &go));
        /* Past the workers' polling (the driver polls 20 us before it sleeps):
         * polling threads would compete with the timed appends for the caches. */
        struct timespec settle = {0, 1000 * 1000};
        nanosleep(&settle, NULL);
        double mean[2]; /* through the API, straight into the driver */
        for (int turn = 0; turn < 2; turn++) {
            int straight = turn ^ (int)(b & 1);
            ze_result_t failed = ZE_RESULT_SUCCESS;
            uint64_t start = bench_thread_cpu_ns();
            if (straight)
                for (unsigned k = 0; k < BATCH; k++)
                    failed |= direct.list.pfnAppendLaunchKernel(lists[k & 1], ze.kernel, &one_group,
                                                                NULL, 0, NULL);
            else
                for (unsigned k = 0; k < BATCH; k++)
                    failed |= bench_ze_launch(&ze, lists[k & 1]);
            uint64_t end = bench_thread_cpu_ns();
            BENCH_ZE_OK(failed);
            mean[straight] = (double)(end - start) / BATCH;
        }
        for (int s = 0; s < 2; s++)
            BENCH_ZE_OK(zeCommandListAppendBarrier(lists[s], done[s], 0, NULL));
        BENCH_ZE_OK(zeEventHostSignal(go));
        for (int s = 0; s < 2; s++) {
            BENCH_ZE_OK(zeEventHostSynchronize(done[s], UINT64_MAX));
            BENCH_ZE_OK(zeEventHostReset(done[s]));
        }
        BENCH_ZE_OK(zeEventHostReset(go));
        if (b >= WARMUP_BATCHES) {
            means[b - WARMUP_BATCHES] = mean[0];
            added[b - WARMUP_BATCHES] = mean[0] - mean[1];
        }
    }
    double median = bench_summarize(means, timed).median;
    double added_median = bench_summarize(added, timed).median;
    free(means);
    free(added);
    for (int s = 0; s < 2; s++)
        BENCH_ZE_OK(zeCommandListDestroy(lists[s]));
    for (int e = 0; e < 3; e++)
        BENCH_ZE_OK(zeEventDestroy(done[e]));
    BENCH_ZE_OK(zeEventPoolDestroy(pool));
    bench_ze_close(&ze);
    bench_emit("two_stream_launch_ns", args->config, median);
    bench_emit("two_stream_added_ns", args->config, added_median);
    return 0;
}
