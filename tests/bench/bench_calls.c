/*
 * The per-call figures of one configuration: launch_append_ns, alloc_free_ns
 * and event_ns, and the same calls paired with the driver's own entries
 * (bench_direct.h): launch_added_ns, alloc_free_added_ns and event_added_ns,
 * what the path above the driver added in this process; and
 * launch_alternating_added_ns, the launch's figure with the launches
 * alternating between two regular lists (two streams fed from one thread).
 *
 * Each is timed in batches (the clock is read once per batch of BATCH calls).
 * A pair is a batch through the API and a batch straight into the driver, in
 * alternating order; the child's values are the medians, over pairs, of the
 * API batch's mean and of the difference, which a preemption in one batch
 * cannot move. Untimed warm-up pairs come first, so that lists, rings and
 * allocator caches are in their steady state.
 */
#include "bench_child.h"

#include "bench_direct.h"
#include "bench_stats.h"
#include "bench_stock_tracing.h"
#include "bench_ze.h"

#include <zeil/zeil.h>

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#define BATCH 1000u
#define WARMUP_PAIRS 10u

enum {
    API,
    DIRECT
};

typedef struct subject {
    const bench_ze_t *ze;
    const bench_direct_t *direct;
    ze_event_handle_t event;
    ze_command_list_handle_t second_list; /* launch_alternating_batch's */
} subject_t;

/* One batch of one side; returns the mean ns per call (or per pair of calls). */
typedef double (*batch_fn)(const subject_t *s, int side);

typedef struct paired {
    double api, added;
} paired_t;

static size_t scaled(double scale, size_t full)
{
    size_t n = (size_t)((double)full * scale);
    return n < 3 ? 3 : n;
}

static double median_of(double *v, size_t n)
{
    return bench_summarize(v, n).median;
}

static paired_t time_pairs(batch_fn batch, const subject_t *s, size_t timed)
{
    double *api = calloc(timed, sizeof *api), *added = calloc(timed, sizeof *added);
    if (!api || !added)
        bench_fail("out of memory");
    for (size_t i = 0; i < WARMUP_PAIRS + timed; i++) {
        double mean[2];
        int first = (int)(i & 1); /* neither side always goes first */
        mean[first] = batch(s, first);
        mean[!first] = batch(s, !first);
        if (i >= WARMUP_PAIRS) {
            api[i - WARMUP_PAIRS] = mean[API];
            added[i - WARMUP_PAIRS] = mean[API] - mean[DIRECT];
        }
    }
    paired_t p = {median_of(api, timed), median_of(added, timed)};
    free(api);
    free(added);
    return p;
}

/* Appends to the regular list; the reset after the batch is not timed. */
static double launch_batch(const subject_t *s, int side)
{
    static const ze_group_count_t one_group = {1, 1, 1};
    const bench_ze_t *ze = s->ze;
    ze_pfnCommandListAppendLaunchKernel_t direct = s->direct->list.pfnAppendLaunchKernel;
    ze_result_t failed = ZE_RESULT_SUCCESS;
    uint64_t start = bench_now_ns();
    if (side == API)
        for (unsigned k = 0; k < BATCH; k++)
            failed |= bench_ze_launch(ze, ze->list);
    else
        for (unsigned k = 0; k < BATCH; k++)
            failed |= direct(ze->list, ze->kernel, &one_group, NULL, 0, NULL);
    uint64_t end = bench_now_ns();
    BENCH_ZE_OK(failed);
    BENCH_ZE_OK(zeCommandListReset(ze->list));
    return (double)(end - start) / BATCH;
}

/* The same launches, alternately on the list and on a second one; the
 * resets after the batch are not timed. */
static double launch_alternating_batch(const subject_t *s, int side)
{
    static const ze_group_count_t one_group = {1, 1, 1};
    const bench_ze_t *ze = s->ze;
    ze_command_list_handle_t lists[2] = {ze->list, s->second_list};
    ze_pfnCommandListAppendLaunchKernel_t direct = s->direct->list.pfnAppendLaunchKernel;
    ze_result_t failed = ZE_RESULT_SUCCESS;
    uint64_t start = bench_now_ns();
    if (side == API)
        for (unsigned k = 0; k < BATCH; k++)
            failed |= bench_ze_launch(ze, lists[k & 1]);
    else
        for (unsigned k = 0; k < BATCH; k++)
            failed |= direct(lists[k & 1], ze->kernel, &one_group, NULL, 0, NULL);
    uint64_t end = bench_now_ns();
    BENCH_ZE_OK(failed);
    BENCH_ZE_OK(zeCommandListReset(lists[0]));
    BENCH_ZE_OK(zeCommandListReset(lists[1]));
    return (double)(end - start) / BATCH;
}

static double alloc_free_batch(const subject_t *s, int side)
{
    const bench_ze_t *ze = s->ze;
    const ze_mem_dditable_t *mem = &s->direct->mem;
    ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    ze_result_t failed = ZE_RESULT_SUCCESS;
    uint64_t start = bench_now_ns();
    if (side == API)
        for (unsigned k = 0; k < BATCH; k++) {
            void *p = NULL;
            failed |= zeMemAllocDevice(ze->context, &desc, BENCH_ALLOC_BYTES, 0, ze->device, &p);
            failed |= zeMemFree(ze->context, p);
        }
    else
        for (unsigned k = 0; k < BATCH; k++) {
            void *p = NULL;
            failed |= mem->pfnAllocDevice(ze->context, &desc, BENCH_ALLOC_BYTES, 0, ze->device, &p);
            failed |= mem->pfnFree(ze->context, p);
        }
    uint64_t end = bench_now_ns();
    BENCH_ZE_OK(failed);
    return (double)(end - start) / BATCH;
}

static double event_batch(const subject_t *s, int side)
{
    const ze_event_dditable_t *ev = &s->direct->event;
    ze_result_t failed = ZE_RESULT_SUCCESS;
    uint64_t start = bench_now_ns();
    if (side == API)
        for (unsigned k = 0; k < BATCH; k++) {
            failed |= zeEventHostSignal(s->event);
            failed |= zeEventHostReset(s->event);
        }
    else
        for (unsigned k = 0; k < BATCH; k++) {
            failed |= ev->pfnHostSignal(s->event);
            failed |= ev->pfnHostReset(s->event);
        }
    uint64_t end = bench_now_ns();
    BENCH_ZE_OK(failed);
    return (double)(end - start) / BATCH;
}

static paired_t time_events(subject_t *s, size_t timed)
{
    ze_event_pool_handle_t pool = NULL;
    s->event = bench_ze_host_event(s->ze, &pool);
    paired_t p = time_pairs(event_batch, s, timed);
    BENCH_ZE_OK(zeEventDestroy(s->event));
    BENCH_ZE_OK(zeEventPoolDestroy(pool));
    s->event = NULL;
    return p;
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
    if (strcmp(config, "stock_validation") == 0 && !library_loaded("libze_validation_layer.so.1"))
        bench_fail("configuration %s: the loader did not load its validation layer", config);
    if (strcmp(config, "stock_tracing") == 0 && !library_loaded("libze_tracing_layer.so.1"))
        bench_fail("configuration %s: the loader did not load its tracing layer", config);
}

int bench_child_calls(const bench_child_args_t *args)
{
    bench_ze_t ze;
    bench_ze_open(&ze);
    verify_configuration(args->config);
    bench_direct_t direct;
    bench_direct_open(&direct);
    subject_t s = {&ze, &direct, NULL, NULL};
    int tracing = strcmp(args->config, "stock_tracing") == 0;
    if (tracing)
        bench_stock_tracing_enable();
    /* Allocations first: the launch phase leaves the heap fragmented by the
     * driver's per-launch blocks, which would time glibc's consolidation. */
    paired_t alloc = time_pairs(alloc_free_batch, &s, scaled(args->scale, 500));
    paired_t event = time_events(&s, scaled(args->scale, 1000));
    paired_t launch = time_pairs(launch_batch, &s, scaled(args->scale, 1000));
    s.second_list = bench_ze_new_list(&ze);
    paired_t alternating = time_pairs(launch_alternating_batch, &s, scaled(args->scale, 1000));
    BENCH_ZE_OK(zeCommandListDestroy(s.second_list));
    if (tracing)
        bench_stock_tracing_disable();
    bench_ze_close(&ze);
    bench_emit("launch_append_ns", args->config, launch.api);
    bench_emit("alloc_free_ns", args->config, alloc.api);
    bench_emit("event_ns", args->config, event.api);
    bench_emit("launch_added_ns", args->config, launch.added);
    bench_emit("alloc_free_added_ns", args->config, alloc.added);
    bench_emit("event_added_ns", args->config, event.added);
    bench_emit("launch_alternating_added_ns", args->config, alternating.added);
    return 0;
}
