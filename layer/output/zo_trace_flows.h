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
/* The signaller's span is in the trace, ending at end_ns. */
void zo_flows_span_written(uint64_t event, uint64_t seq, uint64_t end_ns);
/* 1 and *end_ns when that signaller's span is written, else 0. */
int zo_flows_span_end(uint64_t event, uint64_t seq, uint64_t *end_ns);

#endif
