/*
 * hazard_overhead_ns: what the hazard checks (ZEIL_CHECKS=hazards) add to a
 * launch with two streams. The same child runs under "zeil" and
 * "zeil_hazards"; the figure is the difference of their medians. Launches
 * alternate between two in-order immediate lists, as two oneDNN streams
 * would; between timed batches (untimed) each list signals an event and the
 * host waits for both, so the checks' histories are in their steady state
 * (passed by every list, forgotten).
 */
#include "bench_child.h"

#include "bench_stats.h"
#include "bench_ze.h"

#include <zeil/zeil.h>

#include <stdlib.h>
#include <string.h>

#ifndef ZE_COMMAND_QUEUE_FLAG_IN_ORDER
#define ZE_COMMAND_QUEUE_FLAG_IN_ORDER ZE_BIT(1)
#endif

#define BATCH 1000u
#define WARMUP_BATCHES 10u

static ze_command_list_handle_t stream_list(const bench_ze_t *ze)
{
    ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0,
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
    bench_ze_t ze;
    bench_ze_open(&ze);
    if (!zeil_is_active() || zeil_hazards_enabled() != want)
        bench_fail("configuration %s: zeil active %d, hazard checks %d", args->config,
                   zeil_is_active(), zeil_hazards_enabled());
    ze_command_list_handle_t lists[2] = {stream_list(&ze), stream_list(&ze)};
    ze_event_pool_desc_t pool_desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                      ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 2};
    ze_event_pool_handle_t pool = NULL;
    BENCH_ZE_OK(zeEventPoolCreate(ze.context, &pool_desc, 1, &ze.device, &pool));
    ze_event_handle_t done[2];
    for (uint32_t i = 0; i < 2; i++) {
        ze_event_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, i, ZE_EVENT_SCOPE_FLAG_HOST,
                                ZE_EVENT_SCOPE_FLAG_HOST};
        BENCH_ZE_OK(zeEventCreate(pool, &desc, &done[i]));
    }
    size_t timed = (size_t)(1000 * args->scale);
    if (timed < 3)
        timed = 3;
    double *means = calloc(timed, sizeof *means);
    if (!means)
        bench_fail("out of memory");
    for (size_t b = 0; b < WARMUP_BATCHES + timed; b++) {
        ze_result_t failed = ZE_RESULT_SUCCESS;
        uint64_t start = bench_now_ns();
        for (unsigned k = 0; k < BATCH; k++)
            failed |= bench_ze_launch(&ze, lists[k & 1]);
        uint64_t end = bench_now_ns();
        BENCH_ZE_OK(failed);
        for (int s = 0; s < 2; s++)
            BENCH_ZE_OK(zeCommandListAppendBarrier(lists[s], done[s], 0, NULL));
        for (int s = 0; s < 2; s++) {
            BENCH_ZE_OK(zeEventHostSynchronize(done[s], UINT64_MAX));
            BENCH_ZE_OK(zeEventHostReset(done[s]));
        }
        if (b >= WARMUP_BATCHES)
            means[b - WARMUP_BATCHES] = (double)(end - start) / BATCH;
    }
    double median = bench_summarize(means, timed).median;
    free(means);
    for (int s = 0; s < 2; s++) {
        BENCH_ZE_OK(zeEventDestroy(done[s]));
        BENCH_ZE_OK(zeCommandListDestroy(lists[s]));
    }
    BENCH_ZE_OK(zeEventPoolDestroy(pool));
    bench_ze_close(&ze);
    bench_emit("two_stream_launch_ns", args->config, median);
    return 0;
}
