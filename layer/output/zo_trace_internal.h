/* zo_trace_internal.h: starting and stopping the trace (zo_main.c). */
#ifndef ZO_TRACE_INTERNAL_H
#define ZO_TRACE_INTERNAL_H

#include <stdint.h>

/* Opens the trace file; returns 0, or -1 (warned, tracing stays off).
 * rank: the process's rank in a parallel job, -1 none. */
int zo_trace_start(const char *path, uint64_t base_ns, int timing, int rank);
/* Stops taking new entries (what the rings hold is still drained). */
void zo_trace_stop(void);

#endif
