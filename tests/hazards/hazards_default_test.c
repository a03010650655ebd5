/*
 * The hazard checks as a program meets them without asking: ZEIL_CHECKS
 * unset, the exact checks on (a race between copies, a free in flight) and
 * the guesses off (a kernel's pointer arguments, a finite wait that expired
 * on an event nothing pending signals). Run again with ZEIL_CHECKS=-hazards
 * (ZEIL_EXPECT_HAZARDS=0), where the same program hears nothing.
 */
#include "hz_two_lists.h"

#include "test_kernels.h"

#include <zeil/zeil.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int expect_checks(void)
{
    const char *want = getenv("ZEIL_EXPECT_HAZARDS");
    return !want || atoi(want) != 0;
}

START_TEST(exact_checks_on_guesses_off)
{
    ck_assert_int_eq(zeil_hazards_enabled(), expect_checks());
    ck_assert_int_eq(zeil_hazard_guesses_enabled(), 0);
}
END_TEST

/* A copy reading what a fill on another list writes, with no event: E090
 * (the fill held back by a host event, so the driver never runs the race). */
START_TEST(race_between_copies_is_reported)
{
    two_lists_t t;
    open_two(&t);
    size_t mark = zl_log_mark();
    ze_event_handle_t go = t.f.event[2];
    hz_fill(t.a, t.x, NULL, 1, &go);
    hz_copy(t.b, t.y, t.x, t.f.event[1], 0, NULL);
    ZT_OK(zeEventHostSynchronize(t.f.event[1], hz_forever));
    ZT_OK(zeEventHostSignal(go));
    if (expect_checks())
        zl_assert_one_finding(mark, "ZEIL-E090", "zeCommandListAppendMemoryCopy", "reads",
                              "written by zeCommandListAppendMemoryFill", NULL);
    else
        zl_assert_silent(mark);
    close_two(&t);
}
END_TEST

/* A fill not known to be complete: its memory's free is refused (E092). */
START_TEST(free_in_flight_is_refused)
{
    if (!expect_checks())
        return; /* off, the driver would be given the free: not a test to run */
    two_lists_t t;
    open_two(&t);
    size_t mark = zl_log_mark();
    ze_event_handle_t go = t.f.event[2];
    hz_fill(t.a, t.x, t.f.event[0], 1, &go);
    ZT_RESULT(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, zeMemFree(t.f.env.context, t.x));
    zl_assert_one_finding(mark, "ZEIL-E092", "zeMemFree", "not known to be complete", NULL);
    ZT_OK(zeEventHostSignal(go));
    ZT_OK(zeEventHostSynchronize(t.f.event[0], hz_forever));
    close_two(&t);
}
END_TEST

/* A kernel writing through its pointer argument while another list fills
 * the same memory: only a guess (W091), so nothing without the guesses. */
START_TEST(kernel_argument_race_is_a_guess_left_out)
{
    two_lists_t t;
    open_two(&t);
    ze_kernel_handle_t k = zt_kernel(t.f.module, TK_STAMP);
    ZT_ARG(k, 0, t.x);
    ZT_OK(zeKernelSetGroupSize(k, 1, 1, 1));
    size_t mark = zl_log_mark();
    ze_event_handle_t go = t.f.event[2];
    hz_fill(t.a, t.x, NULL, 1, &go);
    ze_group_count_t one = {1, 1, 1};
    for (int i = 0; i < 3; i++) /* the first takes the checked path, the others the fast one */
        ZT_OK(zeCommandListAppendLaunchKernel(t.b, k, &one, NULL, 0, NULL));
    ZT_OK(zeCommandListAppendBarrier(t.b, t.f.event[1], 0, NULL));
    ZT_OK(zeEventHostSynchronize(t.f.event[1], hz_forever));
    ZT_OK(zeEventHostSignal(go));
    zl_assert_silent(mark);
    ZT_OK(zeKernelDestroy(k));
    close_two(&t);
}
END_TEST

/* Polling an event the program signals later is valid: no W095. */
START_TEST(expired_poll_on_unsignalled_event_is_silent)
{
    two_lists_t t;
    open_two(&t);
    size_t mark = zl_log_mark();
    ze_event_handle_t later = t.f.event[2], done = t.f.event[0];
    hz_fill(t.a, t.x, done, 1, &later);
    for (int i = 0; i < 3; i++)
        ZT_RESULT(ZE_RESULT_NOT_READY, zeEventHostSynchronize(done, 1000 * 1000));
    ZT_OK(zeEventHostSignal(later));
    ZT_OK(zeEventHostSynchronize(done, hz_forever));
    zl_assert_silent(mark);
    close_two(&t);
}
END_TEST

/* A wait without timeout on work another thread lets go later than
 * ZEIL_HANG_WARN_MS (100 ms in this suite): valid, so no W097 without the
 * guesses. */
static void *signal_later(void *event)
{
    struct timespec delay = {0, 300 * 1000 * 1000};
    nanosleep(&delay, NULL);
    ZT_OK(zeEventHostSignal((ze_event_handle_t)event));
    return NULL;
}

START_TEST(long_wait_another_thread_ends_is_silent)
{
    two_lists_t t;
    open_two(&t);
    size_t mark = zl_log_mark();
    ze_event_handle_t later = t.f.event[2], done = t.f.event[0];
    hz_fill(t.a, t.x, done, 1, &later);
    pthread_t helper;
    ck_assert_int_eq(pthread_create(&helper, NULL, signal_later, later), 0);
    ZT_OK(zeEventHostSynchronize(done, hz_forever));
    pthread_join(helper, NULL);
    zl_assert_silent(mark);
    close_two(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("hazards_default");
    TCase *tc = tcase_create("default");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, exact_checks_on_guesses_off);
    tcase_add_test(tc, race_between_copies_is_reported);
    tcase_add_test(tc, free_in_flight_is_refused);
    tcase_add_test(tc, kernel_argument_race_is_a_guess_left_out);
    tcase_add_test(tc, expired_poll_on_unsignalled_event_is_silent);
    tcase_add_test(tc, long_wait_another_thread_ends_is_silent);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
