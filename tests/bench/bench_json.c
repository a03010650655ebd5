/*
 * build/bench.json: the per-call figures (each also paired with the driver's
 * own entries: *_added_ns), the lookup, interop and memory figures
 * (medians; null for what was not measured), "launch_scaling" (and beside
 * it "launch_scaling_zeil_added_ns", paired),
 * "callgrind_instructions_per_launch", "callgrind_instructions_per_event"
 * (an event's signal and reset) and a "detail"
 * object with min, max and every sample of every series, the targets, and
 * the load the machine was under.
 */
#include "bench_report.h"

#include "bench_configs.h"
#include "bench_targets.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

static const char *const call_figures[] = {"launch_append_ns",
                                           "alloc_free_ns",
                                           "event_ns",
                                           "launch_added_ns",
                                           "alloc_free_added_ns",
                                           "event_added_ns",
                                           "launch_alternating_added_ns"};
static const char *const lookup_sizes[] = {"1000", "100000", "1000000"};

static void number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.6g", v);
    else
        fputs("null", f);
}

static void string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void median_or_null(FILE *f, const bench_results_t *r, const char *figure,
                           const char *column)
{
    bench_summary_t s;
    if (bench_results_summary(r, figure, column, &s))
        number(f, s.median);
    else
        fputs("null", f);
}

static void object_of(FILE *f, const bench_results_t *r, const char *figure,
                      const char *const *columns, int n)
{
    fputc('{', f);
    for (int i = 0; i < n; i++) {
        fprintf(f, "%s", i ? ", " : "");
        string(f, columns[i]);
        fputs(": ", f);
        median_or_null(f, r, figure, columns[i]);
    }
    fputc('}', f);
}

static void series_detail(FILE *f, const bench_results_t *r)
{
    fputs("\"series\": [", f);
    for (size_t i = 0; i < r->count; i++) {
        const bench_series_t *s = &r->series[i];
        bench_summary_t sum;
        bench_results_summary(r, s->figure, s->column, &sum);
        fprintf(f, "%s\n    {\"figure\": ", i ? "," : "");
        string(f, s->figure);
        fputs(", \"column\": ", f);
        string(f, s->column);
        fputs(", \"median\": ", f);
        number(f, sum.median);
        fputs(", \"min\": ", f);
        number(f, sum.min);
        fputs(", \"max\": ", f);
        number(f, sum.max);
        fputs(", \"samples\": [", f);
        for (size_t k = 0; k < s->n; k++) {
            fputs(k ? ", " : "", f);
            number(f, s->samples[k]);
        }
        fputs("]}", f);
    }
    fputs("]", f);
}

/* {"pairs": [...], "driver": {"totals": [...], "per_pair": x}, "zeil": ..., "added_per_pair": x} */
static void callgrind_pairs(FILE *f, int measured, const uint64_t pairs[2],
                            const uint64_t totals[2][2], const double per_pair[2], double added)
{
    if (!measured) {
        fputs("null", f);
        return;
    }
    fprintf(f, "{\"pairs\": [%" PRIu64 ", %" PRIu64 "]", pairs[0], pairs[1]);
    static const char *const sides[2] = {"driver", "zeil"};
    for (int c = 0; c < 2; c++) {
        fprintf(f, ", \"%s\": {\"totals\": [%" PRIu64 ", %" PRIu64 "], \"per_pair\": ", sides[c],
                totals[c][0], totals[c][1]);
        number(f, per_pair[c]);
        fputc('}', f);
    }
    fputs(", \"added_per_pair\": ", f);
    number(f, added);
    fputc('}', f);
}

static void callgrind_detail(FILE *f, const bench_callgrind_t *cg)
{
    if (!cg->measured) {
        fputs("\"callgrind\": null", f);
        return;
    }
    fprintf(f, "\"callgrind\": {\"launches\": [%" PRIu64 ", %" PRIu64 "]", cg->launches[0],
            cg->launches[1]);
    for (int c = 0; c < BENCH_CALL_CONFIGS; c++) {
        fprintf(f, ", \"%s\": {\"totals\": [%" PRIu64 ", %" PRIu64 "], \"per_launch\": ",
                bench_call_configs[c].name, cg->totals[c][0], cg->totals[c][1]);
        number(f, cg->per_launch[c]);
        fputs(", \"added_per_launch\": ", f);
        number(f, cg->per_launch[c] - cg->per_launch[0]);
        fputc('}', f);
    }
    fputs(", \"alloc_free\": ", f);
    callgrind_pairs(f, cg->alloc_free_measured, cg->pairs, cg->alloc_free_totals,
                    cg->per_alloc_free, cg->added_per_alloc_free);
    fputs(", \"events\": ", f);
    callgrind_pairs(f, cg->events_measured, cg->pairs, cg->event_totals, cg->per_event_pair,
                    cg->added_per_event_pair);
    fputc('}', f);
}

/* {"threads": [1, 2, ...], "driver_ns": [...], "zeil_ns": [...], "cores": N} */
static void launch_scaling(FILE *f, const bench_run_t *run)
{
    static const char *const configs[] = {"driver", "zeil"};
    fputs("{\"threads\": [", f);
    for (unsigned i = 0; i < run->scaling_counts; i++)
        fprintf(f, "%s%u", i ? ", " : "", run->scaling_threads[i]);
    fputc(']', f);
    for (int c = 0; c < 2; c++) {
        fprintf(f, ", \"%s_ns\": [", configs[c]);
        for (unsigned i = 0; i < run->scaling_counts; i++) {
            double v = 0;
            fputs(i ? ", " : "", f);
            if (bench_scaling_median(&run->results, configs[c], run->scaling_threads[i], &v))
                number(f, v);
            else
                fputs("null", f);
        }
        fputc(']', f);
    }
    fprintf(f, ", \"cores\": %u}", run->cores);
}

/* What zeil adds per append per thread at launch_scaling's thread counts,
 * paired in each child (bench_scaling_zeil_adds). */
static void launch_scaling_added(FILE *f, const bench_run_t *run)
{
    fputc('[', f);
    for (unsigned i = 0; i < run->scaling_counts; i++) {
        double v = 0;
        fputs(i ? ", " : "", f);
        if (bench_scaling_zeil_adds(&run->results, run->scaling_threads[i], &v))
            number(f, v);
        else
            fputs("null", f);
    }
    fputc(']', f);
}

static void targets_detail(FILE *f, const bench_run_t *run)
{
    bench_target_t t[BENCH_MAX_TARGETS];
    int n = bench_targets_judge(run, t);
    fputs("\"targets\": [", f);
    for (int i = 0; i < n; i++) {
        fprintf(f, "%s\n    {\"target\": ", i ? "," : "");
        string(f, t[i].name);
        fprintf(f, ", \"holds\": %s, \"measured\": ",
                t[i].verdict == 1   ? "true"
                : t[i].verdict == 0 ? "false"
                                    : "null");
        string(f, t[i].measured);
        fputc('}', f);
    }
    fputs("]", f);
}

static void write_body(FILE *f, const bench_run_t *run)
{
    const bench_results_t *r = &run->results;
    const char *configs[BENCH_CALL_CONFIGS];
    for (int c = 0; c < BENCH_CALL_CONFIGS; c++)
        configs[c] = bench_call_configs[c].name;
    fputc('{', f);
    for (size_t i = 0; i < sizeof call_figures / sizeof *call_figures; i++) {
        fprintf(f, "%s\"%s\": ", i ? ",\n " : "", call_figures[i]);
        object_of(f, r, call_figures[i], configs, BENCH_CALL_CONFIGS);
    }
    fputs(",\n \"pointer_lookup_ns\": ", f);
    object_of(f, r, "pointer_lookup_ns", lookup_sizes, 3);
    static const char *const sides[] = {"direct", "interop"};
    fputs(",\n \"execute_overhead_us\": ", f);
    object_of(f, r, "execute_overhead_us", sides, 2);
    fputs(",\n \"matmul_ratio\": ", f);
    median_or_null(f, r, "matmul_ratio", "interop_over_direct");
    fputs(",\n \"compile_cold_s\": ", f);
    median_or_null(f, r, "compile_cold_s", "driver");
    fputs(",\n \"compile_warm_ms\": ", f);
    median_or_null(f, r, "compile_warm_ms", "driver");
    fputs(",\n \"rss_growth_mb\": ", f);
    median_or_null(f, r, "rss_growth_mb", "zeil");
    bench_summary_t zeil, hazards;
    fputs(",\n \"hazard_overhead_ns\": ", f);
    if (bench_results_summary(r, "two_stream_launch_ns", "zeil", &zeil) &&
        bench_results_summary(r, "two_stream_launch_ns", "zeil_hazards", &hazards))
        number(f, hazards.median - zeil.median);
    else
        fputs("null", f);
    static const char *const hazard_configs[] = {"zeil", "zeil_hazards"};
    fputs(",\n \"two_stream_added_ns\": ", f);
    object_of(f, r, "two_stream_added_ns", hazard_configs, 2);
    /* Keyed by streams x threads: what the checks add, zeil_hazards - zeil, paired. */
    fputs(",\n \"hazard_scaling_added_ns\": {\"8x4\": ", f);
    if (bench_results_summary(r, "hazard_scaling_added_ns", "zeil_8x4", &zeil) &&
        bench_results_summary(r, "hazard_scaling_added_ns", "zeil_hazards_8x4", &hazards))
        number(f, hazards.median - zeil.median);
    else
        fputs("null", f);
    fputc('}', f);
    fputs(",\n \"workitem_ns\": ", f);
    median_or_null(f, r, "workitem_ns", "compiled");
    fputs(",\n \"workitem_barrier_ns\": ", f);
    median_or_null(f, r, "workitem_barrier_ns", "compiled");
    fputs(",\n \"elementwise_vs_c_ratio\": ", f);
    median_or_null(f, r, "elementwise_vs_c_ratio", "compiled");
    /* the kernels measured: OpenCL C compiled by the driver */
    fputs(",\n \"kernels_source\": \"compiled\"", f);
    fputs(",\n \"launch_scaling\": ", f);
    launch_scaling(f, run);
    fputs(",\n \"launch_scaling_zeil_added_ns\": ", f);
    launch_scaling_added(f, run);
    fprintf(f, ",\n \"rounds\": %d, \"machine\": ", run->rounds);
    string(f, run->machine);
    fputs(",\n \"callgrind_instructions_per_launch\": ", f);
    if (run->callgrind.measured)
        number(f, run->callgrind.added_per_launch);
    else
        fputs("null", f);
    fputs(",\n \"callgrind_instructions_per_event\": ", f);
    if (run->callgrind.events_measured)
        number(f, run->callgrind.added_per_event_pair);
    else
        fputs("null", f);
    fprintf(f,
            ",\n \"detail\": {\"quick\": %s, \"only_scaling\": %s, \"interop_built\": %s, "
            "\"load_average\": {\"before\": ",
            run->quick ? "true" : "false", run->only_scaling ? "true" : "false",
            run->interop_built ? "true" : "false");
    number(f, run->load_before);
    fputs(", \"after\": ", f);
    number(f, run->load_after);
    fprintf(f, "}, \"failed_processes\": %d,\n  ", run->failed_children);
    callgrind_detail(f, &run->callgrind);
    fputs(",\n  ", f);
    targets_detail(f, run);
    fputs(",\n  ", f);
    series_detail(f, r);
    fputs("}}\n", f);
}

int bench_report_write_json(const bench_run_t *run, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    write_body(f, run);
    return fclose(f) == 0 ? 0 : -1;
}
