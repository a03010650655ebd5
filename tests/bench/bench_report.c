/* The table of a run: figure x configuration, medians, overheads, min..max, targets. */
#include "bench_report.h"

#include "bench_configs.h"
#include "bench_targets.h"

#include <inttypes.h>
#include <string.h>

static const char *const call_figures[] = {"launch_append_ns", "alloc_free_ns", "event_ns"};
static const char *const added_figures[] = {"launch_added_ns", "alloc_free_added_ns",
                                            "event_added_ns", "launch_alternating_added_ns"};
static const char *const lookup_sizes[] = {"1000", "100000", "1000000"};
#define NOT_BUILT "n/a (zeil_bench_interop missing)"

static void row(FILE *out, const char *figure, const char *column, const bench_summary_t *s,
                const char *unit, const char *relative)
{
    if (!s) {
        fprintf(out, "%-20s %-17s %s\n", figure, column, "failed: no measurement");
        return;
    }
    fprintf(out, "%-20s %-17s %10.4g %-3s %-26s %10.4g .. %-10.4g\n", figure, column, s->median,
            unit, relative, s->min, s->max);
}

/* A per-call figure by configuration, each against the driver's row: the
 * unpaired ones (paired = 0), or what each configuration's path adds over
 * the driver's own entries, paired in its process (bench_direct.h), where
 * the driver's row is the loader alone. */
static void call_figure(FILE *out, const bench_results_t *r, const char *figure, int paired)
{
    bench_summary_t base;
    int have_base = bench_results_summary(r, figure, "driver", &base);
    for (int c = 0; c < BENCH_CALL_CONFIGS; c++) {
        const char *config = bench_call_configs[c].name;
        bench_summary_t s;
        int have = bench_results_summary(r, figure, config, &s);
        char relative[64] = "-";
        if (c == 0 && paired)
            snprintf(relative, sizeof relative, "the loader alone");
        else if (have && have_base && c > 0 && paired)
            snprintf(relative, sizeof relative, "%+.1f ns over the loader's",
                     s.median - base.median);
        else if (have && have_base && c > 0)
            snprintf(relative, sizeof relative, "%+.1f ns (%+.0f%%)", s.median - base.median,
                     100.0 * (s.median - base.median) / base.median);
        row(out, c == 0 ? figure : "", config, have ? &s : NULL, "ns", relative);
    }
}

static void lookup_figure(FILE *out, const bench_results_t *r)
{
    bench_summary_t first;
    int have_first = bench_results_summary(r, "pointer_lookup_ns", lookup_sizes[0], &first);
    for (int i = 0; i < 3; i++) {
        bench_summary_t s;
        int have = bench_results_summary(r, "pointer_lookup_ns", lookup_sizes[i], &s);
        char relative[64] = "-";
        if (have && have_first && i > 0)
            snprintf(relative, sizeof relative, "x%.2f of 1000", s.median / first.median);
        row(out, i == 0 ? "pointer_lookup_ns" : "", lookup_sizes[i], have ? &s : NULL, "ns",
            relative);
    }
}

static void interop_figures(FILE *out, const bench_run_t *run)
{
    const bench_results_t *r = &run->results;
    if (!run->interop_built) {
        fprintf(out, "%-20s %s\n%-20s %s\n", "execute_overhead_us", NOT_BUILT, "matmul_ratio",
                NOT_BUILT);
        return;
    }
    bench_summary_t direct, interop, ratio;
    int have_direct = bench_results_summary(r, "execute_overhead_us", "direct", &direct);
    int have_interop = bench_results_summary(r, "execute_overhead_us", "interop", &interop);
    char relative[64] = "-";
    if (have_direct && have_interop)
        snprintf(relative, sizeof relative, "%+.2f us", interop.median - direct.median);
    row(out, "execute_overhead_us", "direct", have_direct ? &direct : NULL, "us", "-");
    row(out, "", "interop", have_interop ? &interop : NULL, "us", relative);
    bench_summary_t floor;
    if (bench_results_summary(r, "immediate_roundtrip_us", "driver", &floor))
        row(out, "", "(driver floor)", &floor, "us", "launch+sync, no oneDNN");
    int have_ratio = bench_results_summary(r, "matmul_ratio", "interop_over_direct", &ratio);
    row(out, "matmul_ratio", "interop/direct", have_ratio ? &ratio : NULL, "", "-");
}

static void hazard_figure(FILE *out, const bench_results_t *r)
{
    bench_summary_t zeil, hazards;
    int have_zeil = bench_results_summary(r, "two_stream_launch_ns", "zeil", &zeil);
    int have_hazards = bench_results_summary(r, "two_stream_launch_ns", "zeil_hazards", &hazards);
    char relative[64] = "-";
    if (have_zeil && have_hazards)
        snprintf(relative, sizeof relative, "hazard_overhead_ns %+.1f",
                 hazards.median - zeil.median);
    row(out, "two_stream_launch_ns", "zeil", have_zeil ? &zeil : NULL, "ns", "-");
    row(out, "", "zeil_hazards", have_hazards ? &hazards : NULL, "ns", relative);
    have_zeil = bench_results_summary(r, "two_stream_added_ns", "zeil", &zeil);
    have_hazards = bench_results_summary(r, "two_stream_added_ns", "zeil_hazards", &hazards);
    snprintf(relative, sizeof relative, "-");
    if (have_zeil && have_hazards)
        snprintf(relative, sizeof relative, "paired: hazards add %+.1f",
                 hazards.median - zeil.median);
    row(out, "two_stream_added_ns", "zeil", have_zeil ? &zeil : NULL, "ns", "over the driver");
    row(out, "", "zeil_hazards", have_hazards ? &hazards : NULL, "ns", relative);
    have_zeil = bench_results_summary(r, "hazard_scaling_added_ns", "zeil_8x4", &zeil);
    have_hazards =
        bench_results_summary(r, "hazard_scaling_added_ns", "zeil_hazards_8x4", &hazards);
    snprintf(relative, sizeof relative, "-");
    if (have_zeil && have_hazards)
        snprintf(relative, sizeof relative, "paired: hazards add %+.1f",
                 hazards.median - zeil.median);
    row(out, "hazard_scaling_added_ns", "zeil 8x4", have_zeil ? &zeil : NULL, "ns",
        "8 streams, 4 threads");
    row(out, "", "zeil_hazards 8x4", have_hazards ? &hazards : NULL, "ns", relative);
}

static void rss_figure(FILE *out, const bench_results_t *r)
{
    bench_summary_t zeil, driver;
    int have_zeil = bench_results_summary(r, "rss_growth_mb", "zeil", &zeil);
    int have_driver = bench_results_summary(r, "rss_growth_mb", "driver", &driver);
    char relative[64] = "-";
    if (have_zeil && have_driver)
        snprintf(relative, sizeof relative, "zeil's share %+.2f MB", zeil.median - driver.median);
    row(out, "rss_growth_mb", "driver", have_driver ? &driver : NULL, "MB", "-");
    row(out, "", "zeil", have_zeil ? &zeil : NULL, "MB", relative);
}

static void callgrind_figure(FILE *out, const bench_callgrind_t *cg)
{
    if (!cg->measured) {
        fprintf(out, "%-20s not measured\n", "callgrind");
        return;
    }
    fprintf(out, "%-20s instructions per launch (%" PRIu64 " vs %" PRIu64 " launches): driver %.1f",
            "callgrind", cg->launches[1], cg->launches[0], cg->per_launch[0]);
    for (int c = 1; c < BENCH_CALL_CONFIGS; c++)
        fprintf(out, ", %s %+.1f", bench_call_configs[c].name,
                cg->per_launch[c] - cg->per_launch[0]);
    fprintf(out, "\n");
    if (cg->alloc_free_measured)
        fprintf(out, "%-20s instructions per allocation and free: driver %.1f, zeil %+.1f\n", "",
                cg->per_alloc_free[0], cg->added_per_alloc_free);
    if (cg->events_measured)
        fprintf(out, "%-20s instructions per event signal and reset: driver %.1f, zeil %+.1f\n", "",
                cg->per_event_pair[0], cg->added_per_event_pair);
}

/* ns per append per thread at each thread count, and what zeil adds. */
static void scaling_figure(FILE *out, const bench_run_t *run)
{
    fprintf(out, "%-20s %-8s %12s %12s %14s %14s   (%u cores; ns per append per thread)\n",
            "launch_scaling_ns", "threads", "driver", "zeil", "zeil adds", "paired", run->cores);
    for (unsigned i = 0; i < run->scaling_counts; i++) {
        unsigned threads = run->scaling_threads[i];
        double driver = 0, zeil = 0;
        int have_driver = bench_scaling_median(&run->results, "driver", threads, &driver);
        int have_zeil = bench_scaling_median(&run->results, "zeil", threads, &zeil);
        fprintf(out, "%-20s %-8u ", "", threads);
        if (have_driver)
            fprintf(out, "%12.4g ", driver);
        else
            fprintf(out, "%12s ", "failed");
        if (have_zeil)
            fprintf(out, "%12.4g ", zeil);
        else
            fprintf(out, "%12s ", "failed");
        if (have_driver && have_zeil)
            fprintf(out, "%+14.1f", zeil - driver);
        else
            fprintf(out, "%14s", "-");
        double paired = 0;
        if (bench_scaling_zeil_adds(&run->results, threads, &paired))
            fprintf(out, " %+14.1f", paired);
        fprintf(out, "\n");
    }
}

static void targets(FILE *out, const bench_run_t *run)
{
    bench_target_t t[BENCH_MAX_TARGETS];
    int n = bench_targets_judge(run, t);
    fprintf(out, "\ntargets:\n");
    for (int i = 0; i < n; i++)
        if (!run->only_scaling || t[i].verdict != -1)
            fprintf(out, "  [%-6s] %-50s %s\n",
                    t[i].verdict == 1   ? "holds"
                    : t[i].verdict == 0 ? "MISSED"
                                        : "n/a",
                    t[i].name, t[i].measured);
}

void bench_report_print(const bench_run_t *run, FILE *out)
{
    fprintf(out, "\nzeil benchmarks%s: %d rounds, median and min .. max over rounds\n",
            run->quick ? " (--quick smoke run: counts too small for real figures)" : "",
            run->rounds);
    fprintf(out, "machine: %s; load average %.2f before, %.2f after\n\n", run->machine,
            run->load_before, run->load_after);
    fprintf(out, "%-20s %-17s %14s %-26s %s\n", "figure", "configuration", "median",
            "overhead over driver", "min .. max");
    if (run->only_interop) {
        interop_figures(out, run);
    } else if (run->only_hazards) {
        hazard_figure(out, &run->results);
    } else if (run->only_scaling) {
        scaling_figure(out, run);
    } else {
        for (size_t i = 0; i < sizeof call_figures / sizeof *call_figures; i++)
            call_figure(out, &run->results, call_figures[i], 0);
        fprintf(out, "%-20s (each call paired in its process with the driver's own entry)\n",
                "added over driver");
        for (size_t i = 0; i < sizeof added_figures / sizeof *added_figures; i++)
            call_figure(out, &run->results, added_figures[i], 1);
        lookup_figure(out, &run->results);
        hazard_figure(out, &run->results);
        interop_figures(out, run);
        rss_figure(out, &run->results);
        callgrind_figure(out, &run->callgrind);
        scaling_figure(out, run);
    }
    targets(out, run);
    if (run->failed_children)
        fprintf(out, "\n%d benchmark process(es) failed (see above)\n", run->failed_children);
}
