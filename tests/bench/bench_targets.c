/* The targets: overheads are differences of medians over the driver alone.
 * The loader's stock layers stay in the table as a reference, not as a
 * target: Debian's 1.8.12 validation layer checks nothing on these paths. */
#include "bench_targets.h"

#include "bench_stats.h"

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

int bench_scaling_median(const bench_results_t *r, const char *config, unsigned threads,
                         double *value)
{
    char column[24];
    snprintf(column, sizeof column, "%s_%u", config, threads);
    return median_of(r, "launch_scaling_ns", column, value);
}

int bench_scaling_zeil_adds(const bench_results_t *r, unsigned threads, double *value)
{
    char zeil[24], driver[24];
    double z = 0, d = 0;
    snprintf(zeil, sizeof zeil, "zeil_%u", threads);
    snprintf(driver, sizeof driver, "driver_%u", threads);
    if (!median_of(r, "launch_scaling_added_ns", zeil, &z) ||
        !median_of(r, "launch_scaling_added_ns", driver, &d))
        return 0;
    *value = z - d;
    return 1;
}

static void at_most(bench_target_t *t, const char *name, int known, double value, double limit,
                    const char *unit)
{
    t->name = name;
    t->verdict = known ? value <= limit : -1;
    if (known)
        snprintf(t->measured, sizeof t->measured, "%.4g %s", value, unit);
    else
        snprintf(t->measured, sizeof t->measured, "not measured");
}

static void at_least(bench_target_t *t, const char *name, int known, double value, double limit,
                     const char *unit)
{
    at_most(t, name, known, -value, -limit, unit);
    if (known)
        snprintf(t->measured, sizeof t->measured, "%.4g %s", value, unit);
}

/* The driver's 2-thread figure over its 1-thread figure, round by round (the
 * two children run back to back, bench_main.c), median over rounds: the
 * machine's speed drifts less between two neighbouring processes than
 * between the medians of all. */
static int driver_ratio(const bench_results_t *r, double *value)
{
    const bench_series_t *one = bench_results_find(r, "launch_scaling_ns", "driver_1");
    const bench_series_t *two = bench_results_find(r, "launch_scaling_ns", "driver_2");
    if (!one || !two)
        return 0;
    double ratios[BENCH_MAX_ROUNDS];
    size_t n = 0;
    for (size_t i = 0; i < one->n && i < two->n; i++)
        if (one->samples[i] > 0)
            ratios[n++] = two->samples[i] / one->samples[i];
    if (!n)
        return 0;
    *value = bench_summarize(ratios, n).median;
    return 1;
}

/* Two threads against one: the driver's ns per append per thread, and what
 * zeil adds to it: paired in each child (bench_scaling.c), less the
 * driver's own paired figure (the loader's share); the difference of the
 * unpaired medians beside it. */
static void scaling(bench_target_t *targets, int *n, const bench_results_t *r)
{
    double d1 = 0, d2 = 0, z1 = 0, z2 = 0, ratio = 0;
    int driver = bench_scaling_median(r, "driver", 1, &d1) &&
                 bench_scaling_median(r, "driver", 2, &d2) && d1 > 0 && driver_ratio(r, &ratio);
    at_most(&targets[(*n)++], "driver at 2 threads <= 1.3x its 1-thread ns", driver, ratio, 1.3,
            "x");
    bench_target_t *t = &targets[(*n)++];
    int plain = driver && bench_scaling_median(r, "zeil", 1, &z1) &&
                bench_scaling_median(r, "zeil", 2, &z2);
    double added1 = z1 - d1, added2 = z2 - d2;
    int paired = bench_scaling_zeil_adds(r, 1, &added1) && bench_scaling_zeil_adds(r, 2, &added2);
    t->name = "zeil's added ns at 2 threads <= 1.5x at 1";
    /* What zeil adds on one thread is a difference of two noisy figures: when
     * it is within 1 ns of nothing, 2 threads hold if they add 1.5 ns or less. */
    double floor1 = added1 > 1 ? added1 : 1;
    t->verdict = paired || plain ? added2 <= 1.5 * floor1 : -1;
    if (paired || plain)
        snprintf(t->measured, sizeof t->measured, "%+.1f ns at 2 threads, %+.1f ns at 1 (x%.2f)%s",
                 added2, added1, added2 / floor1, paired ? " paired" : "");
    else
        snprintf(t->measured, sizeof t->measured, "not measured");
}

/* What config adds over base: the difference of their paired figures
 * (bench_direct.h; against the driver configuration, whose paired figure is
 * the loader's own share, it is zeil's alone), and beside it the difference
 * of the unpaired medians, which carries the drift of the machine's speed
 * between processes. */
static void paired_difference(bench_target_t *t, const char *name, const bench_results_t *r,
                              const char *figure, const char *added_figure, const char *base,
                              const char *config, double limit)
{
    double paired_base = 0, paired_with = 0, base_ns = 0, with_ns = 0;
    int paired = median_of(r, added_figure, base, &paired_base) &&
                 median_of(r, added_figure, config, &paired_with);
    int plain = median_of(r, figure, base, &base_ns) && median_of(r, figure, config, &with_ns);
    double v = paired_with - paired_base, unpaired = with_ns - base_ns;
    t->name = name;
    t->verdict = paired ? v <= limit : plain ? unpaired <= limit : -1;
    if (paired && plain)
        snprintf(t->measured, sizeof t->measured, "%.4g ns paired (unpaired medians %+.1f)", v,
                 unpaired);
    else if (plain)
        snprintf(t->measured, sizeof t->measured, "%.4g ns (unpaired medians)", unpaired);
    else
        snprintf(t->measured, sizeof t->measured, "not measured");
}

static void zeil_adds(bench_target_t *t, const char *name, const bench_results_t *r,
                      const char *figure, const char *added_figure, const char *config,
                      double limit)
{
    paired_difference(t, name, r, figure, added_figure, "driver", config, limit);
}

int bench_targets_judge(const bench_run_t *run, bench_target_t *targets)
{
    const bench_results_t *r = &run->results;
    int n = 0;
    double v = 0, a = 0, b = 0;
    int known;
    /* The hazard checks are on in "zeil" (by default, the exact ones). */
    zeil_adds(&targets[n++], "launch overhead zeil - driver <= 7 ns", r, "launch_append_ns",
              "launch_added_ns", "zeil", 7);
    /* Alternating lists take the fast path (the checked one costs 50 ns and
     * more); the second entry of the thread's launch cache costs a probe. */
    zeil_adds(&targets[n++], "launch alternating two lists (fast path), zeil - driver <= 15 ns", r,
              "launch_append_ns", "launch_alternating_added_ns", "zeil", 15);
    zeil_adds(&targets[n++], "launch overhead zeil_trace - driver <= 30 ns", r, "launch_append_ns",
              "launch_added_ns", "zeil_trace", 30);
    at_most(&targets[n++], "callgrind instructions per launch (zeil) <= 120",
            run->callgrind.measured, run->callgrind.added_per_launch, 120, "instructions");
    scaling(targets, &n, r);
    zeil_adds(&targets[n++], "alloc/free overhead zeil - driver <= 30 ns", r, "alloc_free_ns",
              "alloc_free_added_ns", "zeil", 30);
    at_most(&targets[n++], "callgrind instructions per alloc+free (zeil) <= 450",
            run->callgrind.alloc_free_measured, run->callgrind.added_per_alloc_free, 450,
            "instructions");
    zeil_adds(&targets[n++], "event overhead zeil - driver <= 5 ns", r, "event_ns",
              "event_added_ns", "zeil", 5);
    at_most(&targets[n++], "callgrind instructions per event pair (zeil) <= 60",
            run->callgrind.events_measured, run->callgrind.added_per_event_pair, 60,
            "instructions");
    known = median_of(r, "pointer_lookup_ns", "1000000", &b);
    at_most(&targets[n++], "pointer lookup among 1 000 000 allocations <= 100 ns", known, b, 100,
            "ns");
    known = median_of(r, "execute_overhead_us", "direct", &a) &&
            median_of(r, "execute_overhead_us", "interop", &b);
    at_most(&targets[n++], "execute overhead interop - direct <= 10 us", known, b - a, 10, "us");
    known = median_of(r, "matmul_ratio", "interop_over_direct", &v);
    at_most(&targets[n++], "matmul_ratio <= 1.05", known, v, 1.05, "x");
    paired_difference(&targets[n++], "hazard_overhead_ns (two streams) <= 20 ns", r,
                      "two_stream_launch_ns", "two_stream_added_ns", "zeil", "zeil_hazards", 20);
    paired_difference(&targets[n++], "hazard_scaling_added_ns (8 streams, 4 threads) <= 40 ns", r,
                      "hazard_scaling_launch_ns", "hazard_scaling_added_ns", "zeil_8x4",
                      "zeil_hazards_8x4", 40);
    known = median_of(r, "compile_cold_s", "driver", &v);
    at_most(&targets[n++], "compile_cold_s (100-line OpenCL C) <= 2 s", known, v, 2, "s");
    known = median_of(r, "compile_warm_ms", "driver", &v);
    at_most(&targets[n++], "compile_warm_ms (from the cache) <= 10 ms", known, v, 10, "ms");
    known = median_of(r, "rss_growth_mb", "zeil", &v);
    at_most(&targets[n++], "rss_growth_mb (zeil on) <= 64", known, v, 64, "MB");
    known = median_of(r, "workitem_ns", "compiled", &v);
    at_most(&targets[n++], "workitem_ns (no barrier, compiled kernel) <= 5 ns", known, v, 5, "ns");
    known = median_of(r, "workitem_barrier_ns", "compiled", &v);
    at_most(&targets[n++], "workitem_barrier_ns (one barrier, compiled kernel) <= 50 ns", known, v,
            50, "ns");
    known = median_of(r, "elementwise_vs_c_ratio", "compiled", &v);
    at_least(&targets[n++], "elementwise_vs_c_ratio (2^24 floats, compiled) >= 1/3", known, v,
             1.0 / 3, "x");
    return n;
}
