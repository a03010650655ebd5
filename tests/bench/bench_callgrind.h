/*
 * bench_callgrind.h: instructions per intercepted launch, counted by
 * valgrind --tool=callgrind: four runs (zeil on and off, each with two
 * launch counts); the difference of the two counts' totals cancels the
 * setup, and on minus off leaves what zeil adds to one launch. A figure a
 * loaded machine cannot move.
 */
#ifndef ZEIL_BENCH_CALLGRIND_H
#define ZEIL_BENCH_CALLGRIND_H

#include "bench_configs.h"

#include <stdint.h>

typedef struct bench_callgrind {
    int measured;               /* 0: valgrind missing or a run failed */
    uint64_t launches[2];       /* the two launch counts */
    uint64_t driver_totals[2];  /* instructions, zeil off */
    uint64_t zeil_totals[2];    /* instructions, zeil on */
    double driver_per_launch;   /* instructions per launch, zeil off */
    double zeil_per_launch;     /* zeil on */
    double added_per_launch;    /* on minus off */
} bench_callgrind_t;

void bench_callgrind_measure(const bench_paths_t *paths, bench_callgrind_t *out);

#endif
