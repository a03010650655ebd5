/*
 * pointer_lookup_ns: zeil_lookup_pointer (zeil.h) of random interior
 * pointers with 1 000, 100 000 and 1 000 000 live device allocations. The
 * allocations grow in one process from one size to the next; the queries of
 * each size are drawn from all its live allocations, so at a million the
 * lookup works on a registry far larger than the caches, as it would in a
 * real program.
 */
#include "bench_child.h"

#include "bench_stats.h"
#include "bench_ze.h"

#include <zeil/zeil.h>

#include <stdio.h>
#include <stdlib.h>

#define ALLOC_BYTES 64u
#define QUERIES 65536u /* a power of two: the query array is walked cyclically */
#define BATCH 4096u

static const size_t sizes[] = {1000, 100000, 1000000};

static uint64_t next_random(uint64_t *state)
{
    /* xorshift64*: cheap, and the same sequence on every run. */
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 2685821657736338717ull;
}

static void draw_queries(void *const *allocs, size_t live, const void **queries, uint64_t *state)
{
    for (size_t i = 0; i < QUERIES; i++) {
        uint64_t r = next_random(state);
        const char *base = allocs[r % live];
        queries[i] = base + (r >> 40) % ALLOC_BYTES;
    }
}

/* Median of the batch means; fails when a lookup misses an allocation. */
static double time_lookups(const void **queries, size_t batches)
{
    double *means = calloc(batches, sizeof *means);
    if (!means)
        bench_fail("out of memory");
    size_t next = 0, found = 0;
    for (size_t b = 0; b < batches; b++) {
        zeil_alloc_info_t info;
        uint64_t start = bench_now_ns();
        for (unsigned k = 0; k < BATCH; k++) {
            found += zeil_lookup_pointer(queries[next], &info) == 1;
            next = (next + 1) & (QUERIES - 1);
        }
        means[b] = (double)(bench_now_ns() - start) / BATCH;
    }
    if (found != batches * BATCH)
        bench_fail("zeil_lookup_pointer found %zu of %zu live interior pointers", found,
                   batches * BATCH);
    double median = bench_summarize(means, batches).median;
    free(means);
    return median;
}

int bench_child_lookup(const bench_child_args_t *args)
{
    bench_ze_t ze;
    bench_ze_open(&ze);
    if (!zeil_is_active())
        bench_fail("pointer lookup needs zeil on (ZE_ENABLE_LAYERS=zeil), zeil is not active");
    size_t most = sizes[sizeof sizes / sizeof *sizes - 1];
    void **allocs = calloc(most, sizeof *allocs);
    const void **queries = calloc(QUERIES, sizeof *queries);
    if (!allocs || !queries)
        bench_fail("out of memory");
    size_t batches = (size_t)(100 * args->scale);
    if (batches < 3)
        batches = 3;
    ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    uint64_t state = 0x9e3779b97f4a7c15ull;
    size_t live = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        for (; live < sizes[s]; live++)
            BENCH_ZE_OK(
                zeMemAllocDevice(ze.context, &desc, ALLOC_BYTES, 0, ze.device, &allocs[live]));
        draw_queries(allocs, live, queries, &state);
        time_lookups(queries, 1); /* warm-up: the queries' cache lines, the code */
        char column[24];
        snprintf(column, sizeof column, "%zu", sizes[s]);
        bench_emit("pointer_lookup_ns", column, time_lookups(queries, batches));
    }
    /* Newest first: the reference driver keeps a sorted array, and removing
     * at its end moves nothing, so the teardown does not dominate the child's
     * time. */
    while (live > 0)
        BENCH_ZE_OK(zeMemFree(ze.context, allocs[--live]));
    free(queries);
    free(allocs);
    bench_ze_close(&ze);
    return 0;
}
