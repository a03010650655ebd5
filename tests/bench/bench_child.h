/*
 * bench_child.h: what one benchmark child process measures. The parent
 * (bench_main.c) starts a child per configuration and round with the
 * configuration's environment; the child prints one line per result,
 *
 *     FIGURE COLUMN VALUE
 *
 * on stdout (for example "launch_append_ns zeil 412.5") and exits 0, or
 * prints why it could not measure on stderr and exits non-zero.
 */
#ifndef ZEIL_BENCH_CHILD_H
#define ZEIL_BENCH_CHILD_H

#include <stdint.h>

typedef struct bench_child_args {
    const char *mode;   /* "calls", "lookup", "rss", "launches", "alloc_frees",
                             "events", "hazards", "hazard_scaling" or "scaling" */
    const char *config; /* the configuration's name, the COLUMN of "calls" */
    double scale;       /* iteration counts are multiplied by this (--quick: < 1) */
    uint64_t launches;  /* rss and launches: how many launches in total;
                             alloc_frees: how many allocation and free pairs;
                             events: how many signal and reset pairs */
    uint64_t rss_after; /* rss: the first measurement, after this many */
    unsigned threads;   /* scaling: how many threads append at once */
} bench_child_args_t;

/* Prints one result line. */
void bench_emit(const char *figure, const char *column, double value);

/* launch_append_ns, alloc_free_ns and event_ns of the configuration. */
int bench_child_calls(const bench_child_args_t *args);
/* pointer_lookup_ns at 1 000, 100 000 and 1 000 000 live allocations. */
int bench_child_lookup(const bench_child_args_t *args);
/* rss_growth_mb over args->launches launches (config: zeil or driver). */
int bench_child_rss(const bench_child_args_t *args);
/* launch_scaling_ns with args->threads threads (config: driver or zeil),
 * column "CONFIG_THREADS", e.g. "zeil_2". */
int bench_child_scaling(const bench_child_args_t *args);
/* The thread counts of the figure: 1, 2, 4, ... up to cores, and cores
 * itself; returns how many (at most cap). */
unsigned bench_scaling_thread_counts(unsigned cores, unsigned *counts, unsigned cap);

/* workitem_ns, workitem_barrier_ns and elementwise_vs_c_ratio of compiled
 * kernels on the reference driver (bench_kernels.c), column "compiled". */
int bench_child_kernels(const bench_child_args_t *args);

/* Exactly args->launches appends and nothing timed: the callgrind runs. */
int bench_child_launches(const bench_child_args_t *args);
/* The same for alloc_free_ns: args->launches allocation and free pairs. */
int bench_child_alloc_frees(const bench_child_args_t *args);
/* The same for event_ns: args->launches signal and reset pairs. */
int bench_child_events(const bench_child_args_t *args);
/* The size of alloc_free_ns's allocations. */
#define BENCH_ALLOC_BYTES 4096u
/* compile_cold_s and compile_warm_ms of the reference driver's compiler. */
int bench_child_compile(const bench_child_args_t *args);
/* two_stream_launch_ns of config zeil or zeil_hazards (hazard_overhead_ns). */
int bench_child_hazards(const bench_child_args_t *args);
/* hazard_scaling_launch_ns and hazard_scaling_added_ns of config zeil or
 * zeil_hazards, column "CONFIG_8x4": eight streams fed from four threads. */
int bench_child_hazard_scaling(const bench_child_args_t *args);

#endif
