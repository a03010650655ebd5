/*
 * bench_results.h: every value the children reported, as series keyed by
 * (figure, column): one sample per round.
 */
#ifndef ZEIL_BENCH_RESULTS_H
#define ZEIL_BENCH_RESULTS_H

#include "bench_stats.h"

#include <stddef.h>

#define BENCH_MAX_ROUNDS 64
#define BENCH_MAX_SERIES 96

typedef struct bench_series {
    char figure[40];
    char column[24];
    double samples[BENCH_MAX_ROUNDS];
    size_t n;
} bench_series_t;

typedef struct bench_results {
    bench_series_t series[BENCH_MAX_SERIES];
    size_t count;
} bench_results_t;

/* Appends a sample; returns -1 (and stores nothing) for a name too long, a
 * full series or too many series. */
int bench_results_add(bench_results_t *results, const char *figure, const char *column,
                      double value);
const bench_series_t *bench_results_find(const bench_results_t *results, const char *figure,
                                         const char *column);
/* Median, min and max of the series; returns 0 when it has no sample. */
int bench_results_summary(const bench_results_t *results, const char *figure, const char *column,
                          bench_summary_t *summary);
/* Parses one child line "FIGURE COLUMN VALUE" into the results; returns -1
 * for a malformed line. */
int bench_results_parse_line(bench_results_t *results, const char *line);

#endif
