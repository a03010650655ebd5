/*
 * zo_trace_format.h: Chrome Trace Event JSON for zeil's events.
 *
 * The file is the Trace Event Format's JSON Array Format: "[" then one event
 * object per line, each after the first preceded by ",". The format lets the
 * closing "]" be missing, so every prefix that ends after an event loads in
 * Perfetto and chrome://tracing; a normal end (or a fatal signal) appends it.
 *
 * Processes and tracks:
 *   pid 1 "host":   tid = zeil's thread number, "X" spans of API calls (cat "api")
 *   pid 2 "device": tid = a track per (oneDNN stream, command list), "X" spans
 *                   of submissions (cat "kernel"), "s"/"f" flow events (cat
 *                   "event", id = seq of the signalling submission) from a
 *                   submission that signals an event to those waiting on it.
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

/* Nominal duration of a submission without device times. */
#define ZO_NOMINAL_DURATION_NS 10000u

typedef struct zo_trace_clock {
    uint64_t base_ns;  /* CLOCK_MONOTONIC at zo_init: ts 0 */
} zo_trace_clock_t;

/* "[" and the metadata naming both processes: the start of every trace. */
void zo_format_trace_header(zo_buf_t *b);
void zo_format_host_thread_name(zo_buf_t *b, uint32_t thread);
/* name may be null or empty: then "stream 0x.. (list 0x..)" / "list 0x..". */
void zo_format_device_track_name(zo_buf_t *b, uint32_t tid, uint64_t stream_id,
                                 uint64_t list, const char *name);
void zo_format_api_span(zo_buf_t *b, const zo_trace_clock_t *c, const zo_entry_t *e);
void zo_format_device_span(zo_buf_t *b, const zo_trace_clock_t *c, const zo_entry_t *e,
                           uint32_t tid, uint64_t start_ns, uint64_t end_ns,
                           zo_span_timing_t timing);
/* Flow start ("s") inside the span of the signalling submission, flow end
 * ("f", bound to the enclosing slice) inside the span of a waiting one. */
void zo_format_flow(zo_buf_t *b, const zo_trace_clock_t *c, char phase, uint64_t flow_id,
                    uint32_t tid, uint64_t start_ns, uint64_t end_ns);
/* Last event: why the trace ended and how many records were dropped. */
void zo_format_trace_end(zo_buf_t *b, const char *reason, int signo, uint64_t dropped);
/* The closing bracket of the array. */
void zo_format_trace_close(zo_buf_t *b);

#endif
