/*
 * zo_trace_writer.h: the consumer side of the trace.
 *
 * Drains every thread's ring into the trace file: names tracks the first time
 * they appear, lays out device spans (measured times, or submission order),
 * links signalled events to their waiters with flow arrows. One consumer at a
 * time (the drain lock); everything after zo_writer_open is async-signal-safe
 * (no malloc, no stdio, no locks that a crashed thread could hold).
 */
#ifndef ZO_TRACE_WRITER_H
#define ZO_TRACE_WRITER_H

#include <stdint.h>

/* Creates the file and writes the header. timing: hold device spans until
 * their device times arrive (ZEIL_TIMING=1); rank: in the header, -1 none.
 * Returns 0, or -1 (warned). */
int zo_writer_open(const char *path, uint64_t base_ns, int timing, int rank);
int zo_writer_is_open(void);

/* Writes what the rings hold now. Returns without waiting when another
 * consumer is draining. */
void zo_writer_drain(void);
/* Like zo_writer_drain, and writes the spans still waiting for a signaller
 * too; returns 1 when it drained, 0 when another consumer held the lock
 * (zo_flush retries). */
int zo_writer_drain_now(void);

/* Drains, writes held spans with nominal times, the end marker and "]", and
 * closes the file. reason: "exit" or "signal" (then signo). From a signal
 * handler, gives up (leaving a loadable prefix) when another thread holds the
 * drain lock for longer than ~200 ms. */
void zo_writer_close(const char *reason, int signo);

#endif
