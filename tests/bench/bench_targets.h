/*
 * bench_targets.h: the targets, judged on the medians of a run.
 */
#ifndef ZEIL_BENCH_TARGETS_H
#define ZEIL_BENCH_TARGETS_H

#include "bench_report.h"

#define BENCH_MAX_TARGETS 32

typedef struct bench_target {
    const char *name;  /* e.g. "launch overhead zeil - driver <= 40 ns" */
    int verdict;       /* 1 holds, 0 missed, -1 not measured */
    char measured[96]; /* what the run measured, in words */
} bench_target_t;

/* Fills targets[] and returns how many. */
int bench_targets_judge(const bench_run_t *run, bench_target_t *targets);
/* The median of launch_scaling_ns for a configuration ("driver", "zeil") at
 * a thread count; 0 when not measured. */
int bench_scaling_median(const bench_results_t *results, const char *config, unsigned threads,
                         double *value);
/* What zeil adds per append per thread at that thread count, paired in its
 * children with the driver's own entry, less the driver's paired figure. */
int bench_scaling_zeil_adds(const bench_results_t *r, unsigned threads, double *value);

#endif
