/*
 * zo_trace_flows.h: which submission signals the event another waits on.
 *
 * The trace draws an arrow from the span of the submission that signals an
 * event to the spans of those that wait on it, and lays out a waiter (in
 * submission order) after its signaller. Fixed-size tables, no allocation:
 * used by the consumer under the drain lock, also from a signal handler.
 * Event handles are reused; a bounded number of recent signallers is kept
 * per event, and the oldest events are forgotten when the table is full.
 */
#ifndef ZO_TRACE_FLOWS_H
#define ZO_TRACE_FLOWS_H

#include <stdint.h>

/* Submission `seq` signals `event`. */
void zo_flows_note_signal(uint64_t event, uint64_t seq);
/* The signaller a submission `waiter_seq` waits for on `event`: the latest
 * one submitted before it, else (the wait was appended first) the earliest
 * after it; 0 when none is known (e.g. signalled from the host). */
uint64_t zo_flows_signaller(uint64_t event, uint64_t waiter_seq);
/* Where a span an arrow joins was written. */
typedef struct zo_flow_span {
    uint32_t tid;
    uint64_t start_ns, end_ns;
} zo_flow_span_t;

/* The signaller's span is in the trace. When a waiter was written before it
 * (device times arrive out of order), returns 1 and that waiter's end of the
 * arrow in *waiter and *flow_id (once): the caller draws it now. */
int zo_flows_span_written(uint64_t event, uint64_t seq, const zo_flow_span_t *span,
                          zo_flow_span_t *waiter, uint64_t *flow_id);
/* 1 and *span when that signaller's span is written, else 0. */
int zo_flows_span_of(uint64_t event, uint64_t seq, zo_flow_span_t *span);
/* A waiter written before its signaller: keeps its end of the arrow (one
 * per signaller; a second one goes without an arrow). */
void zo_flows_note_waiter(uint64_t event, uint64_t seq, const zo_flow_span_t *waiter,
                          uint64_t flow_id);

#endif
