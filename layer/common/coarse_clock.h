/*
 * coarse_clock.h: the coarse monotonic clock that records are stamped with
 * when the call was not timed anyway (records_ring.c).
 *
 * CLOCK_MONOTONIC_COARSE reads the kernel's last tick from the vDSO's data
 * page; glibc's clock_gettime wrapper around that costs as much again (5 ns
 * against 3 on the development machine, a tenth of a launch). So the vDSO's
 * own __vdso_clock_gettime is called directly where glibc lets zeil find
 * it, and clock_gettime everywhere else. Same clock either way.
 */
#ifndef ZEIL_COARSE_CLOCK_H
#define ZEIL_COARSE_CLOCK_H

#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

typedef int (*coarse_clock_fn)(clockid_t, struct timespec *);
/* clock_gettime until coarse_clock_init found the vDSO's function: never null,
 * so that a read tests nothing. */
extern _Atomic(coarse_clock_fn) coarse_clock_vdso __attribute__((visibility("hidden")));
/* Looks for the vDSO's function, once (the first command list does, before
 * any record is made). */
void coarse_clock_init(void);

static inline uint64_t coarse_clock_coarse_ns(void)
{
    struct timespec ts;
    atomic_load_explicit(&coarse_clock_vdso, memory_order_relaxed)(CLOCK_MONOTONIC_COARSE, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
