/*
 * zo_now_ns (zo_now.h): the counter-based clock stays on CLOCK_MONOTONIC's
 * time base, does not run backwards, is really used where the processor has
 * an invariant TSC, and falls back to clock_gettime when turned off.
 */
#include "zeil_output.h"

#include "zo_test_util.h"

#include <check.h>
#include <stdlib.h>
#include <time.h>

#define AGREEMENT_NS 50000ull /* slow-read jitter plus preemption, generously */

static uint64_t monotonic_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Reads both clocks for about ms milliseconds; fails at the first reading
 * outside [before - slack, after + slack] or more than a few ns behind the
 * one before it (recalibration may step back by the jitter of one read). */
static void agree_for_ms(unsigned ms)
{
    uint64_t stop = monotonic_ns() + ms * 1000000ull, previous = 0, readings = 0;
    while (monotonic_ns() < stop) {
        uint64_t before = monotonic_ns();
        uint64_t now = zo_now_ns();
        uint64_t after = monotonic_ns();
        ck_assert_msg(now + AGREEMENT_NS >= before && now <= after + AGREEMENT_NS,
                      "zo_now_ns %llu outside [%llu, %llu] after %llu readings",
                      (unsigned long long)now, (unsigned long long)before,
                      (unsigned long long)after, (unsigned long long)readings);
        ck_assert_msg(now + 1000 >= previous, "zo_now_ns went back from %llu to %llu",
                      (unsigned long long)previous, (unsigned long long)now);
        previous = now > previous ? now : previous;
        readings++;
    }
    ck_assert_uint_gt(readings, 100);
}

START_TEST(counter_clock_agrees_with_monotonic)
{
    int counter = zo_now_use_counter(1);
    agree_for_ms(300); /* past several recalibrations (at most 100 ms apart) */
#if defined(__x86_64__)
    if (counter)
        ck_assert_ptr_nonnull(atomic_load(&zo_now_current));
#endif
}
END_TEST

START_TEST(without_the_counter_it_is_clock_gettime)
{
    ck_assert_int_eq(zo_now_use_counter(0), 0);
    agree_for_ms(20);
    ck_assert_ptr_null(atomic_load(&zo_now_current));
    zo_now_use_counter(1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("output_clock");
    TCase *t = tcase_create("clock");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, counter_clock_agrees_with_monotonic);
    tcase_add_test(t, without_the_counter_it_is_clock_gettime);
    suite_add_tcase(s, t);
    return zo_test_run_suite(s);
}
