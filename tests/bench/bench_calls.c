/*
 * The per-call figures of one configuration: launch_append_ns, alloc_free_ns
 * and event_ns. Each is timed in batches (the clock is read once per batch
 * of BATCH calls); the child's value is the median of the batch means, which
 * a preemption in one batch cannot move. Untimed warm-up batches come first,
 * so that lists, rings and allocator caches are in their steady state.
 */
#include "bench_child.h"

#include "bench_stats.h"
#include "bench_stock_tracing.h"
#include "bench_ze.h"

#include <zeil/zeil.h>

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#define BATCH 1000u
#define WARMUP_BATCHES 10u

typedef struct batches {
    double *means;
    size_t count;
} batches_t;

static size_t scaled(double scale, size_t full)
{
    size_t n = (size_t)((double)full * scale);
    return n < 3 ? 3 : n;
}

static batches_t batches_new(size_t count)
{
    batches_t b = {calloc(count, sizeof(double)), count};
    if (!b.means)
        bench_fail("out of memory");
    return b;
}

static double batches_median(batches_t *b)
{
    double median = bench_summarize(b->means, b->count).median;
    free(b->means);
    return median;
}

/* Appends to the regular list; the reset every BATCH appends is not timed. */
static double time_launches(const bench_ze_t *ze, size_t timed)
{
    batches_t b = batches_new(timed);
    for (size_t i = 0; i < WARMUP_BATCHES + timed; i++) {
        ze_result_t failed = ZE_RESULT_SUCCESS;
        uint64_t start = bench_now_ns();
        for (unsigned k = 0; k < BATCH; k++)
            failed |= bench_ze_launch(ze, ze->list);
        uint64_t end = bench_now_ns();
        BENCH_ZE_OK(failed);
        BENCH_ZE_OK(zeCommandListReset(ze->list));
        if (i >= WARMUP_BATCHES)
            b.means[i - WARMUP_BATCHES] = (double)(end - start) / BATCH;
    }
    return batches_median(&b);
}

static double time_alloc_free(const bench_ze_t *ze, size_t timed)
{
    batches_t b = batches_new(timed);
    ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    for (size_t i = 0; i < WARMUP_BATCHES + timed; i++) {
        ze_result_t failed = ZE_RESULT_SUCCESS;
        uint64_t start = bench_now_ns();
        for (unsigned k = 0; k < BATCH; k++) {
            void *p = NULL;
            failed |= zeMemAllocDevice(ze->context, &desc, BENCH_ALLOC_BYTES, 0, ze->device, &p);
            failed |= zeMemFree(ze->context, p);
        }
        uint64_t end = bench_now_ns();
        BENCH_ZE_OK(failed);
        if (i >= WARMUP_BATCHES)
            b.means[i - WARMUP_BATCHES] = (double)(end - start) / BATCH;
    }
    return batches_median(&b);
}

static double time_events(const bench_ze_t *ze, size_t timed)
{
    ze_event_pool_desc_t pool_desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                      ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    ze_event_pool_handle_t pool = NULL;
    ze_device_handle_t device = ze->device;
    BENCH_ZE_OK(zeEventPoolCreate(ze->context, &pool_desc, 1, &device, &pool));
    ze_event_desc_t event_desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0,
                                  ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t event = NULL;
    BENCH_ZE_OK(zeEventCreate(pool, &event_desc, &event));
    batches_t b = batches_new(timed);
    for (size_t i = 0; i < WARMUP_BATCHES + timed; i++) {
        ze_result_t failed = ZE_RESULT_SUCCESS;
        uint64_t start = bench_now_ns();
        for (unsigned k = 0; k < BATCH; k++) {
            failed |= zeEventHostSignal(event);
            failed |= zeEventHostReset(event);
        }
        uint64_t end = bench_now_ns();
        BENCH_ZE_OK(failed);
        if (i >= WARMUP_BATCHES)
            b.means[i - WARMUP_BATCHES] = (double)(end - start) / BATCH;
    }
    BENCH_ZE_OK(zeEventDestroy(event));
    BENCH_ZE_OK(zeEventPoolDestroy(pool));
    return batches_median(&b);
}

static int library_loaded(const char *soname)
{
    void *handle = dlopen(soname, RTLD_NOW | RTLD_NOLOAD);
    if (handle)
        dlclose(handle);
    return handle != NULL;
}

/* The loader skips a layer it cannot load without a word: make sure each
 * configuration is what its name says before timing it. */
static void verify_configuration(const char *config)
{
    int zeil_expected = strncmp(config, "zeil", 4) == 0;
    if (zeil_is_active() != zeil_expected)
        bench_fail("configuration %s: zeil is %s", config,
                   zeil_expected ? "not active" : "active although it should be off");
    if (strcmp(config, "stock_validation") == 0 &&
        !library_loaded("libze_validation_layer.so.1"))
        bench_fail("configuration %s: the loader did not load its validation layer", config);
    if (strcmp(config, "stock_tracing") == 0 && !library_loaded("libze_tracing_layer.so.1"))
        bench_fail("configuration %s: the loader did not load its tracing layer", config);
}

int bench_child_calls(const bench_child_args_t *args)
{
    bench_ze_t ze;
    bench_ze_open(&ze);
    verify_configuration(args->config);
    int tracing = strcmp(args->config, "stock_tracing") == 0;
    if (tracing)
        bench_stock_tracing_enable();
    /* Allocations first: the launch phase leaves the heap fragmented by the
     * driver's per-launch blocks, which would time glibc's consolidation. */
    double alloc = time_alloc_free(&ze, scaled(args->scale, 500));
    double event = time_events(&ze, scaled(args->scale, 1000));
    double launch = time_launches(&ze, scaled(args->scale, 1000));
    if (tracing)
        bench_stock_tracing_disable();
    bench_ze_close(&ze);
    bench_emit("launch_append_ns", args->config, launch);
    bench_emit("alloc_free_ns", args->config, alloc);
    bench_emit("event_ns", args->config, event);
    return 0;
}
