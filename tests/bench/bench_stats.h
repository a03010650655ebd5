/* bench_stats.h: the order statistics the benchmark reports. */
#ifndef ZEIL_BENCH_STATS_H
#define ZEIL_BENCH_STATS_H

#include <stddef.h>

typedef struct bench_summary {
    double median, min, max;
    size_t n;
} bench_summary_t;

/* Median (mean of the two middle values for even n), min and max of v[0..n).
 * Reorders v. n must be at least 1. */
bench_summary_t bench_summarize(double *v, size_t n);

#endif
