/* The targets: overheads are differences of medians over the driver alone. */
#include "bench_targets.h"

#include <stdio.h>

static int median_of(const bench_results_t *r, const char *figure, const char *column,
                     double *value)
{
    bench_summary_t s;
    if (!bench_results_summary(r, figure, column, &s))
        return 0;
    *value = s.median;
    return 1;
}

static int overhead(const bench_results_t *r, const char *figure, const char *config,
                    double *value)
{
    double base, with;
    if (!median_of(r, figure, "driver", &base) || !median_of(r, figure, config, &with))
        return 0;
    *value = with - base;
    return 1;
}

static void at_most(bench_target_t *t, const char *name, int known, double value,
                    double limit, const char *unit)
{
    t->name = name;
    t->verdict = known ? value <= limit : -1;
    if (known)
        snprintf(t->measured, sizeof t->measured, "%.4g %s", value, unit);
    else
        snprintf(t->measured, sizeof t->measured, "not measured");
}

/* The configuration's overhead is below both stock layers' overheads. */
static void below_stock(bench_target_t *t, const bench_results_t *r, const char *name,
                        const char *figure, const char *config)
{
    double mine, validation, tracing;
    int known = overhead(r, figure, config, &mine) &&
                overhead(r, figure, "stock_validation", &validation) &&
                overhead(r, figure, "stock_tracing", &tracing);
    t->name = name;
    t->verdict = known ? mine < validation && mine < tracing : -1;
    if (known)
        snprintf(t->measured, sizeof t->measured,
                 "%.1f vs validation %.1f, tracing %.1f ns", mine, validation, tracing);
    else
        snprintf(t->measured, sizeof t->measured, "not measured");
}

int bench_targets_judge(const bench_results_t *r, bench_target_t *targets)
{
    int n = 0;
    double v = 0, a = 0, b = 0;
    int known = overhead(r, "launch_append_ns", "zeil", &v);
    at_most(&targets[n++], "launch overhead zeil - driver <= 40 ns", known, v, 40, "ns");
    known = overhead(r, "launch_append_ns", "zeil_trace", &v);
    at_most(&targets[n++], "launch overhead zeil_trace - driver <= 120 ns", known, v, 120, "ns");
    below_stock(&targets[n++], r, "launch overhead zeil < both stock layers'",
                "launch_append_ns", "zeil");
    below_stock(&targets[n++], r, "launch overhead zeil_trace < both stock layers'",
                "launch_append_ns", "zeil_trace");
    below_stock(&targets[n++], r, "alloc/free overhead zeil < both stock layers'",
                "alloc_free_ns", "zeil");
    below_stock(&targets[n++], r, "event overhead zeil < both stock layers'", "event_ns",
                "zeil");
    known = median_of(r, "pointer_lookup_ns", "1000", &a) &&
            median_of(r, "pointer_lookup_ns", "1000000", &b) && a > 0;
    at_most(&targets[n++], "pointer lookup 1000000 / 1000 <= 1.5", known, known ? b / a : 0,
            1.5, "x");
    known = median_of(r, "execute_overhead_us", "direct", &a) &&
            median_of(r, "execute_overhead_us", "interop", &b);
    at_most(&targets[n++], "execute overhead interop - direct <= 10 us", known, b - a, 10, "us");
    known = median_of(r, "matmul_ratio", "interop_over_direct", &v);
    at_most(&targets[n++], "matmul_ratio <= 1.05", known, v, 1.05, "x");
    known = median_of(r, "two_stream_launch_ns", "zeil", &a) &&
            median_of(r, "two_stream_launch_ns", "zeil_hazards", &b);
    at_most(&targets[n++], "hazard_overhead_ns (two streams) <= 100 ns", known, b - a, 100,
            "ns");
    known = median_of(r, "rss_growth_mb", "zeil", &v);
    at_most(&targets[n++], "rss_growth_mb (zeil on) <= 64", known, v, 64, "MB");
    return n;
}
