/*
 * zo_report.h: the end-of-run report and summary from the layer's counters.
 *
 * Normal exit: zo_report_write asks the runtime for a snapshot of its
 * counters (zo_snapshot_source_t: no driver calls), formats and writes both. Fatal signal: the handler cannot
 * collect or allocate, so the flusher thread keeps a preformatted copy
 * (zo_report_snapshot, once a second) that zo_report_write_from_signal
 * writes with write(2) alone.
 */
#ifndef ZO_REPORT_H
#define ZO_REPORT_H

#include "zeil_output.h"
#include "zo_report_format.h"

/* Where the counters come from (zo_init). */
void zo_report_set_source(const zo_snapshot_source_t *source);
/* A snapshot of the counters into *d: 0, or -1 out of memory (incomplete);
 * zo_report_release frees it. */
int zo_report_collect(zo_report_data_t *d, uint64_t dropped_records);
void zo_report_release(zo_report_data_t *d);

/* Output descriptors: report_fd -1 = no report; summary_fd -1 = none. */
void zo_report_set_outputs(int report_fd, int summary_fd);
/* Who writes the summary: its pid and rank in a parallel job (-1 none). */
void zo_report_set_process(uint64_t pid, int rank);
void zo_report_write(uint64_t dropped_records);
void zo_report_snapshot(uint64_t dropped_records);
void zo_report_write_from_signal(int signo);

#endif
