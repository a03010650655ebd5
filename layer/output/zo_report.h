/*
 * zo_report.h: the end-of-run report and summary from the layer's counters.
 *
 * Normal exit: zo_report_write collects the counters (zeil_foreach_*, no
 * driver calls), formats and writes both. Fatal signal: the handler cannot
 * collect or allocate, so the flusher thread keeps a preformatted copy
 * (zo_report_snapshot, once a second) that zo_report_write_from_signal
 * writes with write(2) alone.
 */
#ifndef ZO_REPORT_H
#define ZO_REPORT_H

#include "zo_report_format.h"

/* Copies of the counters; zo_report_collect returns 0, or -1 out of memory. */
typedef struct zo_collected {
    zo_report_data_t data;
    zeil_kernel_stats_t *kernels;
    char **labels;                 /* one per kernel row */
    zeil_rule_stats_t *rules;
    size_t kernel_cap, label_cap, rule_cap;
    int out_of_memory;
} zo_collected_t;

int zo_report_collect(zo_collected_t *c, uint64_t dropped_records);
void zo_report_free(zo_collected_t *c);

/* Output descriptors: report_fd -1 = no report; summary_fd -1 = none. */
void zo_report_set_outputs(int report_fd, int summary_fd);
/* Who writes the summary: its pid and rank in a parallel job (-1 none). */
void zo_report_set_process(uint64_t pid, int rank);
void zo_report_write(uint64_t dropped_records);
void zo_report_snapshot(uint64_t dropped_records);
void zo_report_write_from_signal(int signo);

#endif
