/*
 * zeil_output.h: what the layer runtime hands to its output side (logs, the
 * Chrome trace, the exit report and the JSON summary). Internal to libzeil.so.
 *
 * The layer (registry, rules, records) calls these; layer/output/ implements
 * them. Everything on the launch path (zo_trace_submission, zo_trace_api_call)
 * takes no process-wide lock and allocates nothing in steady state: records are
 * buffered per thread and written by a background flusher.
 */
#ifndef ZEIL_OUTPUT_H
#define ZEIL_OUTPUT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <zeil/zeil.h>

typedef enum zo_log_level {
    ZO_LOG_ERROR = 0,
    ZO_LOG_WARNING = 1, /* default */
    ZO_LOG_INFO = 2,
    ZO_LOG_CALLS = 3
} zo_log_level_t;

/* ---- what the report shows ---- */
/* A snapshot of the runtime's counters, in the report's terms
 * (zo_report_format.h): the runtime fills it when the output side asks, so
 * that nothing here calls back into the runtime. */
typedef struct zo_report_data zo_report_data_t;
typedef struct zo_snapshot_source {
    /* Fills *data (every field but pid, rank and dropped_records, which the
     * output side knows; *data is zeroed before): 0, or -1 when memory ran
     * out (what was filled is shown, marked incomplete). Called once a
     * second on the flusher thread (the crash copy) and at exit: safe on any
     * thread, calls no driver. Null: a report of zeros. */
    int (*fill)(zo_report_data_t *data);
    /* Frees what fill allocated in *data (may be null). */
    void (*release)(zo_report_data_t *data);
} zo_snapshot_source_t;

typedef struct zo_config {
    zo_log_level_t log_level;      /* ZEIL_LOG */
    const char *log_file;          /* ZEIL_LOG_FILE, null: stderr */
    const char *trace_file;        /* ZEIL_TRACE, null: no trace */
    int report;                    /* ZEIL_REPORT: 0 off, 1 on (default) */
    const char *report_file;       /* ZEIL_REPORT=path, null: stderr */
    const char *summary_file;      /* ZEIL_SUMMARY, null: none */
    int timing;                    /* ZEIL_TIMING */
    int defer_background;          /* start the flusher only at zo_start_background() */
    int rank;                      /* the process's rank in a parallel job, -1: none;
                                  in the trace and summary, for zeil-report merge */
    zo_snapshot_source_t snapshot; /* the runtime's counters for the report */
} zo_config_t;

/* Once, from the runtime's bootstrap when zeil is enabled, before anything
 * else here. Opens the output files, starts the flusher thread (unless
 * defer_background), installs the
 * fatal-signal handlers (SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL: they call
 * zo_finish_from_signal themselves). Copies what it needs of *config. From
 * then on the flusher asks config->snapshot once a second (the crash copy of
 * the report). */
void zo_init(const zo_config_t *config);
/* Starts the flusher thread if zo_init deferred it; idempotent. The layer
 * calls it when a driver is first wrapped, so a process that forks before it
 * uses Level Zero (check's runner, a pre-forking server) has no zeil thread
 * at fork time. */
void zo_start_background(void);

/* ---- log ---- */
/* One complete line (no newline needed); written with a single write so lines
 * from several threads never interleave. */
void zo_log_write(const char *line, size_t len);
int zo_log_enabled(zo_log_level_t level);
/* A "calls" line, formatted without malloc or stdio into one write:
 *   zeil: 12.345678 T3 zeMemAllocDevice(ARGS) -> ZE_RESULT_SUCCESS (2.1 us)
 * time: seconds since zo_init; T: zeil's thread number; args: the layer's
 * text (handles, sizes, kernel names, group counts), may be null. */
void zo_log_call(uint32_t thread, const char *call, const char *args, ze_result_t result,
                 uint64_t start_ns, uint64_t end_ns);
/* zo_now_ns(): CLOCK_MONOTONIC in ns, the clock of every *_ns argument
 * below (inline, from the TSC where it is invariant: zo_now.h). */
#include "zo_now.h"

/* ---- trace ---- */
/* Inline: every intercepted call asks (one relaxed load, no call). */
extern _Atomic int zo_tracing __attribute__((visibility("hidden")));
static inline int zo_trace_enabled(void)
{
    return atomic_load_explicit(&zo_tracing, memory_order_relaxed);
}
/* Strings given to the zo_trace_* functions are kept by pointer until the
 * writer formats them (bounded and escaped then): they must live as long as
 * the process (literals, interned names). Call names and a launch
 * description's strings must not change either: the writer escapes them once
 * per pointer (zo_launch_text.h). */
/* A host API span on the calling thread (thread = zeil's thread number;
 * number = the call's zeil call number, 0 when it took none). */
void zo_trace_api_call(uint32_t thread, const char *call, uint64_t number, uint64_t start_ns,
                       uint64_t end_ns);
/* A submission, as soon as it is recorded (device times may be 0 yet). The
 * record itself need only stay valid during the call; its strings, always. */
void zo_trace_submission(const zeil_record_t *record);
/* What the submissions of one cached launch share, which the layer hands
 * over by pointer: immutable and kept for the life of the process. */
typedef struct zo_launch_shared {
    const char *kernel, *module_origin;
    uint64_t stream_id;
    const char *primitive, *impl, *memory_args;
    uint32_t group_size[3];
    uint32_t zero; /* the layer hashes it as bytes */
} zo_launch_shared_t;
/* A launch's submission and its host API span, handed over in one entry of
 * a few stores: the same as zo_trace_submission of its record (a launch of
 * key seq, host time start_ns, on list, with group_count and what shared
 * holds, no events, bytes or device times) followed by zo_trace_api_call of
 * its call (thread, call, number, start_ns, end_ns). The writer formats both. */
/* Its writer, zo_trace_launch(thread, call, number, seq, start_ns, end_ns,
 * list, group_count[3], shared), is inline: zo_trace_launch.h. */
/* Device times of an earlier submission, once known (ZEIL_TIMING=1). */
void zo_trace_device_times(uint64_t seq, uint64_t start_ns, uint64_t end_ns);
/* Names the track of a list (stream_id 0) or stream: the label the layer
 * made (names.c), shown with the handle values; sort_key orders the tracks
 * (streams first). A stream's track appears at once, with an instant
 * marking when it was bound; a list's only with its first span. */
void zo_trace_track_name(ze_command_list_handle_t list, uint64_t stream_id, const char *name,
                         uint64_t sort_key);
/* Writes what the trace buffers hold now (for zeil_flush). */
void zo_flush(void);

/* ---- end of run ---- */
/* Writes the exit report (per-stream kernel tables, rule counts, leaks, from
 * the snapshot zo_config_t.snapshot fills), the summary and completes the trace. Called once at
 * exit; must not call into any driver. */
void zo_finish(void);
/* Best-effort completion from a fatal signal handler: async-signal-safe
 * (no malloc, no stdio, no locks; bounded wait for a drain in progress).
 * zeil's own handlers call it; the layer need not. */
void zo_finish_from_signal(int signo);

#endif
