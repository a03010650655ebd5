/*
 * zo_now.h: CLOCK_MONOTONIC in nanoseconds, cheaply.
 *
 * With a trace or the calls log on, every intercepted call reads the clock
 * twice. clock_gettime costs 27-70 ns on virtual machines (kvm-clock and the
 * like), more than the rest of zeil's work on a launch; the processor's
 * invariant time-stamp counter costs about 10. So where the TSC is invariant,
 * zo_now_ns converts it with a calibration against CLOCK_MONOTONIC that is
 * renewed from the slow clock at least every 100 ms (zo_now.c), and falls
 * back to clock_gettime everywhere else. Same time base either way: values
 * from both may be compared (to within tens of nanoseconds).
 */
#ifndef ZO_NOW_H
#define ZO_NOW_H

#include <stdatomic.h>
#include <stdint.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* One published calibration: ns = ns_base + (tsc - tsc_base) * mult >> 32,
 * valid while tsc - tsc_base < tsc_span. Fields are atomics because a slot is
 * rewritten after many newer ones were published (zo_now.c). */
typedef struct zo_now_calibration {
    _Atomic uint64_t tsc_base;
    _Atomic uint64_t ns_base;
    _Atomic uint64_t mult; /* ns per tick, 32.32 fixed point */
    _Atomic uint64_t tsc_span;
} zo_now_calibration_t;

extern zo_now_calibration_t *_Atomic zo_now_current __attribute__((visibility("hidden")));

/* clock_gettime, and a new calibration when one is due. */
uint64_t zo_now_slow_ns(void);

static inline uint64_t zo_now_ns(void)
{
#if defined(__x86_64__)
    zo_now_calibration_t *c = atomic_load_explicit(&zo_now_current, memory_order_acquire);
    if (c) {
        uint64_t elapsed = __rdtsc() - atomic_load_explicit(&c->tsc_base, memory_order_relaxed);
        /* A counter behind the base (another core) wraps to huge: slow path. */
        if (elapsed < atomic_load_explicit(&c->tsc_span, memory_order_relaxed))
            return atomic_load_explicit(&c->ns_base, memory_order_relaxed) +
                   (uint64_t)(((unsigned __int128)elapsed *
                               atomic_load_explicit(&c->mult, memory_order_relaxed)) >>
                              32);
    }
#endif
    return zo_now_slow_ns();
}

/* Tests: 0 turns the counter off (clock_gettime only), 1 back on (where the
 * processor has an invariant TSC). Returns whether the counter is used. */
int zo_now_use_counter(int on);

#endif
