/* Median, min and max of a sample. */
#include "bench_stats.h"

#include <stdlib.h>

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

bench_summary_t bench_summarize(double *v, size_t n)
{
    qsort(v, n, sizeof *v, compare_doubles);
    double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    return (bench_summary_t){median, v[0], v[n - 1], n};
}
