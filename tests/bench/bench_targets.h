/*
 * bench_targets.h: issue 7's targets, judged on the medians of a run.
 */
#ifndef ZEIL_BENCH_TARGETS_H
#define ZEIL_BENCH_TARGETS_H

#include "bench_results.h"

#define BENCH_MAX_TARGETS 16

typedef struct bench_target {
    const char *name;       /* e.g. "launch overhead zeil - driver <= 40 ns" */
    int verdict;            /* 1 holds, 0 missed, -1 not measured */
    char measured[96];      /* what the run measured, in words */
} bench_target_t;

/* Fills targets[] and returns how many. */
int bench_targets_judge(const bench_results_t *results, bench_target_t *targets);

#endif
