/*
 * zo_trace_format.h: Chrome Trace Event JSON for zeil's events.
 *
 * The file is the Trace Event Format's JSON Array Format: "[" then one event
 * object per line, each after the first preceded by ",". The format lets the
 * closing "]" be missing, so every prefix that ends after an event loads in
 * Perfetto and DevTools; a normal end (or a fatal signal) appends it.
 *
 * Processes and tracks:
 *   pid 1 "host":   tid = zeil's thread number, "X" spans of API calls (cat
 *                   "api"; an append that made a submission: cat
 *                   "submission"), args.seq the call number
 *   pid 2 "device": tid = a track per (oneDNN stream, command list), "X" spans
 *                   of submissions (cat "submission"), named by what ran
 *   Flow arrows ("s" then "f", cat "submission") from a host append to its
 *   device span, and from the span of a submission that signals an event to
 *   the span of each submission waiting on it; each arrow its own id. Both
 *   ends sit at the start of their span with its pid, tid and category:
 *   DevTools binds a flow event to the span with the same ts, pid, tid and
 *   cat, and groups the events of a flow by cat, name and id, so every span
 *   an arrow joins has the one category "submission".
 * "ts"/"dur" are microseconds since zo_init, with nanosecond decimals.
 * Every function appends one event (with its leading separator) to b and is
 * async-signal-safe.
 */
#ifndef ZO_TRACE_FORMAT_H
#define ZO_TRACE_FORMAT_H

#include "zo_buf.h"
#include "zo_ring.h"

#define ZO_PID_HOST 1
#define ZO_PID_DEVICE 2

/* How a device span got its times: measured, or laid out by zeil. */
typedef enum zo_span_timing {
    ZO_TIMING_DEVICE,
    ZO_TIMING_NOMINAL,
} zo_span_timing_t;

/* The category of every span a flow arrow joins (see above). */
#define ZO_CAT_SUBMISSION "submission"

/* Flow ids: host append -> device span, and event arrows, kept apart. */
#define ZO_FLOW_HOST(seq) ((seq) << 4)
#define ZO_FLOW_EVENT(waiter_seq, wait_index) (((waiter_seq) << 4) + 1 + (wait_index))

/* Nominal duration of a submission without device times. */
#define ZO_NOMINAL_DURATION_NS 10000u

/* Text a span copies as it is, already JSON. */
typedef struct zo_text_piece {
    const char *data;
    size_t len;
} zo_text_piece_t;

/* What a launch's spans say that depends only on its description and call
 * (its kernel, attribution, arguments, group size): JSON made once per
 * description (zo_launch_text.c keeps it) and copied into each span, the
 * same bytes the span would escape and format itself. */
typedef struct zo_launch_text {
    zo_text_piece_t name[2];    /* the device span's name, by zo_span_timing_t */
    zo_text_piece_t call;       /* the call's name: the API span's */
    zo_text_piece_t fields;     /* ,"kind":"launch","call":.. up to "impl" or "memory" */
    zo_text_piece_t group_size; /* ],"group_size":[x,y,z] (closes "group_count") */
} zo_launch_text_t;

typedef struct zo_trace_clock {
    uint64_t base_ns; /* CLOCK_MONOTONIC at zo_init: ts 0 */
} zo_trace_clock_t;

/* "[" and the metadata naming both processes: the start of every trace. */
void zo_format_trace_header(zo_buf_t *b);
/* {"name":"zeil_process","args":{"pid":P,"rank":R|null,"realtime_ns":N}}:
 * who wrote the trace and the wall-clock time of its ts 0 (merging). */
void zo_format_process_info(zo_buf_t *b, uint64_t pid, int rank, uint64_t realtime_ns);
void zo_format_host_thread_name(zo_buf_t *b, uint32_t thread);
/* "LABEL (stream 0x.., list 0x..)" / "LABEL (list 0x..)"; without a label
 * (null or empty) "stream 0x.. (list 0x..)" / "list 0x..". */
void zo_format_device_track_name(zo_buf_t *b, uint32_t tid, uint64_t stream_id, uint64_t list,
                                 const char *label);
/* thread_sort_index of a device track (Perfetto orders tracks by it). */
void zo_format_device_track_order(zo_buf_t *b, uint32_t tid, uint64_t sort_key);
/* An instant on a stream's track when it was bound ("stream bound"): DevTools
 * lists tracks in the order of their first event, so streams come first. */
void zo_format_stream_bound(zo_buf_t *b, const zo_trace_clock_t *c, uint32_t tid, uint64_t ns);
/* e's thread, times and call; number: the call's number (0: none, no
 * args); submission: the call appended a submission (cat "submission").
 * call: its name as JSON (zo_launch_text_t), or null to escape e->call. */
void zo_format_api_span(zo_buf_t *b, const zo_trace_clock_t *c, const zo_entry_t *e,
                        uint64_t number, int submission, const zo_text_piece_t *call);
/* waits_on: the call numbers of the submissions it waits for (known ones).
 * text: a launch's text made by zo_format_launch_text from e's description
 * and call, or null to format e's strings here. */
void zo_format_device_span(zo_buf_t *b, const zo_trace_clock_t *c, const zo_entry_t *e,
                           uint32_t tid, uint64_t start_ns, uint64_t end_ns,
                           zo_span_timing_t timing, const uint64_t *waits_on, uint32_t num_waits_on,
                           const zo_launch_text_t *text);
/* Makes the text of launch e (a submission's entry: record_kind launch) in
 * store and points text's pieces at it; -1 when store is too small. */
int zo_format_launch_text(zo_buf_t *store, const zo_entry_t *e, zo_launch_text_t *text);
/* The two kinds of arrow: "submit" (host to device) and "event". */
typedef enum zo_arrow {
    ZO_ARROW_SUBMIT,
    ZO_ARROW_EVENT,
} zo_arrow_t;
/* One end of a flow arrow ("s" or "f") at ns on (pid, tid), cat
 * "submission", named by its kind. */
void zo_format_flow(zo_buf_t *b, const zo_trace_clock_t *c, char phase, zo_arrow_t arrow,
                    uint64_t flow_id, int pid, uint32_t tid, uint64_t ns);
/* Last event: why the trace ended and how many records were dropped. */
void zo_format_trace_end(zo_buf_t *b, const char *reason, int signo, uint64_t dropped);
/* The closing bracket of the array. */
void zo_format_trace_close(zo_buf_t *b);

#endif
