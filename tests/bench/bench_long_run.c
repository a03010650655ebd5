/*
 * Long runs of launches: the resident memory growth over millions of
 * launches (rss_growth_mb), and a fixed number of launches, of allocations
 * and frees, or of event signals and resets for the callgrind instruction
 * counts.
 */
#include "bench_child.h"

#include "bench_stock_tracing.h"
#include "bench_ze.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define LAUNCHES_PER_LIST 1000u
/* One list in this many is also executed, so that whatever zeil keeps per
 * execution is exercised too; executing every one would make the run a
 * benchmark of the reference driver's kernels. */
#define EXECUTE_EVERY 100u

static double resident_mb(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long size = 0, resident = 0;
    if (!f || fscanf(f, "%lu %lu", &size, &resident) != 2)
        bench_fail("cannot read /proc/self/statm");
    fclose(f);
    return (double)resident * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}

/* The regular list is filled, closed, sometimes executed, and reset, so
 * that the driver's own memory stays bounded and any growth is zeil's. */
int bench_child_rss(const bench_child_args_t *args)
{
    bench_ze_t ze;
    bench_ze_open(&ze);
    ze_command_queue_handle_t queue = bench_ze_queue(&ze);
    double first = -1;
    uint64_t done = 0;
    for (uint64_t cycle = 0; done < args->launches; cycle++) {
        ze_result_t failed = ZE_RESULT_SUCCESS;
        for (unsigned k = 0; k < LAUNCHES_PER_LIST; k++)
            failed |= bench_ze_launch(&ze, ze.list);
        BENCH_ZE_OK(failed);
        done += LAUNCHES_PER_LIST;
        BENCH_ZE_OK(zeCommandListClose(ze.list));
        if (cycle % EXECUTE_EVERY == EXECUTE_EVERY - 1) {
            BENCH_ZE_OK(zeCommandQueueExecuteCommandLists(queue, 1, &ze.list, NULL));
            BENCH_ZE_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));
        }
        BENCH_ZE_OK(zeCommandListReset(ze.list));
        if (first < 0 && done >= args->rss_after)
            first = resident_mb();
    }
    double last = resident_mb();
    BENCH_ZE_OK(zeCommandQueueDestroy(queue));
    bench_ze_close(&ze);
    bench_emit("rss_growth_mb", args->config, last - first);
    bench_emit("rss_after_first_mb", args->config, first);
    return 0;
}

/* No reset: a reset would add its own instructions per launch. The driver's
 * list grows the same with zeil on and off, so it cancels in the difference. */
int bench_child_launches(const bench_child_args_t *args)
{
    bench_ze_t ze;
    bench_ze_open(&ze);
    int tracing = strcmp(args->config, "stock_tracing") == 0;
    if (tracing)
        bench_stock_tracing_enable();
    ze_result_t failed = ZE_RESULT_SUCCESS;
    for (uint64_t i = 0; i < args->launches; i++)
        failed |= bench_ze_launch(&ze, ze.list);
    BENCH_ZE_OK(failed);
    if (tracing)
        bench_stock_tracing_disable();
    bench_ze_close(&ze);
    bench_emit("launches", args->config, (double)args->launches);
    return 0;
}

/* Exactly args->launches zeMemAllocDevice + zeMemFree pairs of the
 * alloc_free_ns figure's size. */
int bench_child_alloc_frees(const bench_child_args_t *args)
{
    bench_ze_t ze;
    bench_ze_open(&ze);
    ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    ze_result_t failed = ZE_RESULT_SUCCESS;
    for (uint64_t i = 0; i < args->launches; i++) {
        void *p = NULL;
        failed |= zeMemAllocDevice(ze.context, &desc, BENCH_ALLOC_BYTES, 0, ze.device, &p);
        failed |= zeMemFree(ze.context, p);
    }
    BENCH_ZE_OK(failed);
    bench_ze_close(&ze);
    bench_emit("alloc_frees", args->config, (double)args->launches);
    return 0;
}

/* Exactly args->launches zeEventHostSignal + zeEventHostReset pairs of the
 * event_ns figure's host-visible event. */
int bench_child_events(const bench_child_args_t *args)
{
    bench_ze_t ze;
    bench_ze_open(&ze);
    ze_event_pool_handle_t pool = NULL;
    ze_event_handle_t event = bench_ze_host_event(&ze, &pool);
    ze_result_t failed = ZE_RESULT_SUCCESS;
    for (uint64_t i = 0; i < args->launches; i++) {
        failed |= zeEventHostSignal(event);
        failed |= zeEventHostReset(event);
    }
    BENCH_ZE_OK(failed);
    BENCH_ZE_OK(zeEventDestroy(event));
    BENCH_ZE_OK(zeEventPoolDestroy(pool));
    bench_ze_close(&ze);
    bench_emit("events", args->config, (double)args->launches);
    return 0;
}
