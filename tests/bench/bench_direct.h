/*
 * bench_direct.h: the driver's own entries, called past the loader and every
 * layer: the baseline a child pairs its calls with.
 *
 * Why pairs. This machine's speed drifts by up to 1.5x from one tenth of a
 * second to the next (other tenants of its host), so the medians of
 * different processes, even interleaved, differ by more than the few
 * nanoseconds being measured. A child therefore times batches through the
 * API (the loader, the configuration's layers, the driver) and batches
 * straight into the driver, alternating, in the same process and the same
 * tenth of a second; each pair's difference is what the path above the
 * driver added, and its median over pairs is the child's figure. Debian's
 * loader hands a single driver's handles through unchanged, and zeil wraps
 * none, so the same handles serve both sides (a side that the loader had
 * wrapped would fail its first call, and the child with it).
 */
#ifndef ZEIL_BENCH_DIRECT_H
#define ZEIL_BENCH_DIRECT_H

#include <level_zero/ze_ddi.h>

typedef struct bench_direct {
    ze_mem_dditable_t mem;
    ze_event_dditable_t event;
    ze_command_list_dditable_t list;
} bench_direct_t;

/* The tables of the reference driver the loader loaded (BENCH_DRIVER_FILE);
 * fails the child when it cannot have them. */
void bench_direct_open(bench_direct_t *d);

#endif
