/*
 * bench_callgrind.h: instructions per launch of every configuration, counted
 * by valgrind --tool=callgrind: two runs each (10 000 and 40 000 appends);
 * the difference of the two totals cancels the setup, and each
 * configuration minus the driver alone leaves what its layer adds to one
 * launch. The same for an allocation and free (alloc_free_ns's
 * zeMemAllocDevice + zeMemFree) and for an event's signal and reset
 * (event_ns's zeEventHostSignal + zeEventHostReset), driver and zeil.
 * Figures a loaded machine cannot move.
 */
#ifndef ZEIL_BENCH_CALLGRIND_H
#define ZEIL_BENCH_CALLGRIND_H

#include "bench_configs.h"

#include <stdint.h>

typedef struct bench_callgrind {
    int measured;                           /* 0: valgrind missing or a run failed */
    uint64_t launches[2];                   /* the two launch counts */
    uint64_t totals[BENCH_CALL_CONFIGS][2]; /* instructions, bench_call_configs order */
    double per_launch[BENCH_CALL_CONFIGS];  /* instructions per launch */
    double added_per_launch;                /* zeil minus driver */
    /* Allocation and free pairs: driver [0] and zeil [1]. */
    int alloc_free_measured;
    uint64_t pairs[2]; /* the two pair counts */
    uint64_t alloc_free_totals[2][2];
    double per_alloc_free[2];
    double added_per_alloc_free; /* zeil minus driver */
    /* Event signal and reset pairs, as many as pairs[]: driver [0], zeil [1]. */
    int events_measured;
    uint64_t event_totals[2][2];
    double per_event_pair[2];
    double added_per_event_pair; /* zeil minus driver */
} bench_callgrind_t;

void bench_callgrind_measure(const bench_paths_t *paths, bench_callgrind_t *out);

#endif
