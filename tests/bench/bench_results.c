/* The series the children's result lines fill. */
#include "bench_results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bench_series_t *find(bench_results_t *results, const char *figure, const char *column)
{
    for (size_t i = 0; i < results->count; i++)
        if (strcmp(results->series[i].figure, figure) == 0 &&
            strcmp(results->series[i].column, column) == 0)
            return &results->series[i];
    return NULL;
}

int bench_results_add(bench_results_t *results, const char *figure, const char *column,
                      double value)
{
    bench_series_t *s = find(results, figure, column);
    if (!s) {
        if (results->count == BENCH_MAX_SERIES || strlen(figure) >= sizeof s->figure ||
            strlen(column) >= sizeof s->column)
            return -1;
        s = &results->series[results->count++];
        memset(s, 0, sizeof *s);
        strcpy(s->figure, figure);
        strcpy(s->column, column);
    }
    if (s->n == BENCH_MAX_ROUNDS)
        return -1;
    s->samples[s->n++] = value;
    return 0;
}

const bench_series_t *bench_results_find(const bench_results_t *results, const char *figure,
                                         const char *column)
{
    return find((bench_results_t *)results, figure, column);
}

int bench_results_summary(const bench_results_t *results, const char *figure, const char *column,
                          bench_summary_t *summary)
{
    const bench_series_t *s = bench_results_find(results, figure, column);
    if (!s || s->n == 0)
        return 0;
    double copy[BENCH_MAX_ROUNDS];
    memcpy(copy, s->samples, s->n * sizeof *copy);
    *summary = bench_summarize(copy, s->n);
    return 1;
}

int bench_results_parse_line(bench_results_t *results, const char *line)
{
    char figure[64], column[64], value[64], rest;
    if (sscanf(line, "%63s %63s %63s %c", figure, column, value, &rest) != 3)
        return -1;
    char *end = NULL;
    double v = strtod(value, &end);
    if (end == value || *end != '\0')
        return -1;
    return bench_results_add(results, figure, column, v);
}
