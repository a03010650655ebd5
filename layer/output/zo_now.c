/*
 * zo_now.c: the calibration behind zo_now_ns (zo_now.h).
 *
 * Each slow read pairs clock_gettime with the TSC read on either side of it.
 * The rate comes from the pair and an origin pair at least 1 ms older (the
 * origin moves every 2 s so that NTP's slewing of CLOCK_MONOTONIC is
 * followed); a calibration is used for at most half its baseline and never
 * more than 100 ms, so its error stays within the jitter of one slow read.
 * Published calibrations live in a ring of slots; a reader that loaded an
 * old one would have to stall through SLOTS newer ones for its slot to be
 * rewritten (and would then get a wrong time, never a fault).
 */
#include "zo_now.h"

#include <time.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#define SLOTS 64u
#define MIN_BASELINE_NS 1000000ull      /* 1 ms */
#define MAX_SPAN_NS 100000000ull        /* 100 ms */
#define ORIGIN_MAX_AGE_NS 2000000000ull /* 2 s */
#define MAX_PAIR_TICKS 20000ull         /* a read that took longer was preempted */

zo_now_calibration_t *_Atomic zo_now_current;

static zo_now_calibration_t slots[SLOTS];
static unsigned next_slot;
static atomic_flag calibrating = ATOMIC_FLAG_INIT;
static _Atomic int counter_state; /* 0 unknown, 1 usable, -1 off */
/* Under calibrating: */
static uint64_t origin_tsc, origin_ns, last_mult;

static uint64_t monotonic_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

#if defined(__x86_64__)
static int invariant_tsc(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u)
        return 0;
    __get_cpuid(0x80000007u, &a, &b, &c, &d);
    return (d >> 8) & 1;
}

static int counter_usable(void)
{
    int state = atomic_load_explicit(&counter_state, memory_order_relaxed);
    if (state == 0) {
        state = invariant_tsc() ? 1 : -1;
        int unknown = 0;
        atomic_compare_exchange_strong(&counter_state, &unknown, state);
        state = atomic_load(&counter_state);
    }
    return state == 1;
}

static void publish(uint64_t tsc, uint64_t ns, uint64_t mult, uint64_t span_ns)
{
    zo_now_calibration_t *s = &slots[next_slot++ % SLOTS];
    atomic_store_explicit(&s->tsc_base, tsc, memory_order_relaxed);
    atomic_store_explicit(&s->ns_base, ns, memory_order_relaxed);
    atomic_store_explicit(&s->mult, mult, memory_order_relaxed);
    atomic_store_explicit(&s->tsc_span, (uint64_t)(((unsigned __int128)span_ns << 32) / mult),
                          memory_order_relaxed);
    atomic_store_explicit(&zo_now_current, s, memory_order_release);
}

/* Under calibrating: a new calibration from the pair (tsc, ns), if possible. */
static void calibrate(uint64_t tsc, uint64_t ns)
{
    if (!origin_ns || tsc <= origin_tsc || ns <= origin_ns) {
        origin_tsc = tsc, origin_ns = ns;
        return;
    }
    uint64_t baseline = ns - origin_ns, mult = last_mult, span = MAX_SPAN_NS;
    if (baseline >= MIN_BASELINE_NS) {
        mult = (uint64_t)(((unsigned __int128)baseline << 32) / (tsc - origin_tsc));
        span = baseline / 2 < MAX_SPAN_NS ? baseline / 2 : MAX_SPAN_NS;
    }
    /* 0.01 to 10 ns a tick (100 GHz to 100 MHz): anything else is no TSC to
     * trust, so the counter is turned off for good. */
    if (mult && (mult < (1ull << 32) / 100 || mult > (10ull << 32))) {
        atomic_store(&counter_state, -1);
        atomic_store_explicit(&zo_now_current, NULL, memory_order_release);
        return;
    }
    if (!mult)
        return;
    last_mult = mult;
    if (baseline > ORIGIN_MAX_AGE_NS)
        origin_tsc = tsc, origin_ns = ns;
    publish(tsc, ns, mult, span);
}

uint64_t zo_now_slow_ns(void)
{
    if (!counter_usable())
        return monotonic_ns();
    uint64_t before = __rdtsc();
    uint64_t ns = monotonic_ns();
    uint64_t after = __rdtsc();
    if (after - before < MAX_PAIR_TICKS && !atomic_flag_test_and_set(&calibrating)) {
        if (atomic_load_explicit(&counter_state, memory_order_relaxed) == 1)
            calibrate(before + (after - before) / 2, ns);
        atomic_flag_clear(&calibrating);
    }
    return ns;
}

int zo_now_use_counter(int on)
{
    while (atomic_flag_test_and_set(&calibrating))
        ;
    atomic_store_explicit(&zo_now_current, NULL, memory_order_release);
    origin_tsc = origin_ns = last_mult = 0;
    atomic_store(&counter_state, on && invariant_tsc() ? 1 : -1);
    atomic_flag_clear(&calibrating);
    return atomic_load(&counter_state) == 1;
}
#else
uint64_t zo_now_slow_ns(void)
{
    return monotonic_ns();
}

int zo_now_use_counter(int on)
{
    (void)on;
    return 0;
}
#endif
