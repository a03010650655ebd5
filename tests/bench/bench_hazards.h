/*
 * bench_hazards.h: what the two hazard children (bench_hazards.c,
 * bench_hazard_scaling.c) share: the streams they launch on and the clock
 * they time with.
 */
#ifndef ZEIL_BENCH_HAZARDS_H
#define ZEIL_BENCH_HAZARDS_H

#include "bench_ze.h"

#include <stdint.h>

#ifndef ZE_COMMAND_QUEUE_FLAG_IN_ORDER
#define ZE_COMMAND_QUEUE_FLAG_IN_ORDER ZE_BIT(1)
#endif

/* The calling thread's CPU time: on a loaded machine (two cores shared by
 * several builds) wall time measures the scheduler more than the checks. */
uint64_t bench_thread_cpu_ns(void);
/* An in-order immediate list, asynchronous: a oneDNN stream's. */
ze_command_list_handle_t bench_stream_list(const bench_ze_t *ze);

#endif
