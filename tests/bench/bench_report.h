/*
 * bench_report.h: a finished run, printed as a table and written as the
 * JSON scripts/bench documents (build/bench.json).
 */
#ifndef ZEIL_BENCH_REPORT_H
#define ZEIL_BENCH_REPORT_H

#include "bench_callgrind.h"
#include "bench_results.h"

#include <stdio.h>

#define BENCH_MAX_THREAD_COUNTS 16

typedef struct bench_run {
    bench_results_t results;
    int rounds;
    int quick;
    int interop_built; /* 0: the interop figures are n/a */
    int only_interop;  /* --only interop: no other figure was measured */
    int only_hazards;  /* --only hazards: likewise */
    int only_scaling;  /* --only scaling: launch_scaling alone */
    unsigned cores;    /* online processors */
    unsigned scaling_threads[BENCH_MAX_THREAD_COUNTS]; /* 1, 2, 4, ... cores */
    unsigned scaling_counts;
    char machine[256];
    double load_before, load_after; /* 1-minute load averages */
    bench_callgrind_t callgrind;    /* measured == 0 when not run */
    int failed_children;
} bench_run_t;

void bench_report_print(const bench_run_t *run, FILE *out);
/* Returns 0, or -1 when the file cannot be written. */
int bench_report_write_json(const bench_run_t *run, const char *path);

#endif
