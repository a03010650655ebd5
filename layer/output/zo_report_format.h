/*
 * zo_report_format.h: the exit report and the JSON summary, from plain rows.
 *
 * Pure formatting (no zeil.h calls), so tests feed known rows and compare the
 * text exactly. zo_report.c collects the rows from the layer's counters.
 */
#ifndef ZO_REPORT_FORMAT_H
#define ZO_REPORT_FORMAT_H

#include <stdio.h>
#include <zeil/zeil.h>

typedef struct zo_report_data {
    uint64_t pid; /* the process (summary only) */
    int rank;     /* its rank in a parallel job, -1: none */
    const zeil_kernel_stats_t *kernels;
    size_t num_kernels;
    const char *const *labels;      /* per kernel row: its track's label
                                         (zeil_track_label), null: none */
    const zeil_rule_stats_t *rules; /* rules that never fired are skipped */
    size_t num_rules;
    zeil_live_counts_t live;
    uint64_t errors;
    uint64_t warnings;
    uint64_t dropped_records;            /* trace records lost to full buffers */
    zeil_dropped_counts_t out_of_memory; /* what zeil lost to failed allocations */
    zeil_coverage_t coverage;            /* the API version in use and what zeil checks of it */
} zo_report_data_t;

/* Everything after the title line "zeil report". */
void zo_format_report_body(FILE *out, const zo_report_data_t *d);

/* The summary up to and including the key of its last member, "status";
 * zo_format_summary_status completes it with the value, e.g. "exit". */
void zo_format_summary_body(FILE *out, const zo_report_data_t *d);
/* When formatting with stdio failed for want of memory: the counts alone
 * (errors, warnings, out of memory), formatted into buf without allocating.
 * Return the length. */
size_t zo_format_report_minimal(char *buf, size_t cap, const zo_report_data_t *d);
size_t zo_format_summary_minimal(char *buf, size_t cap, const zo_report_data_t *d);
/* Writes `"exit"}` (signo 0), `"signal 11"}` or `"running"}` (a copy written
 * while the process runs, what kill -9 leaves) and a newline into buf
 * (async-signal-safe); returns the length. */
#define ZO_STATUS_RUNNING (-1)
size_t zo_format_summary_status(char *buf, size_t cap, int signo);

/* Kinds a process is expected to leave alive (drivers, devices) are not
 * leaks; the others count. Names as in the summary's "leaks.handles". */
int zo_kind_is_leak(zeil_kind_t kind);
const char *zo_kind_key(zeil_kind_t kind);

#endif
