/*
 * The launch a loop repeats (layer/hazards/hz_launch_again.h, and
 * hz_access_launch_again once a free made a history forgotten):
 * with ZEIL_CHECKS=hazards, a list's launches of the same kernel with the
 * same arguments move their accesses' epochs without building anything. Those
 * launches must still be seen by the other list's appends and see them: a
 * race with them is warned of (W091, a kernel's pointer arguments), an
 * ordered append stays silent, and an access declared between them stays that
 * launch's own.
 */
#include "hz_two_lists.h"

#include "test_kernels.h"

#include <zeil/zeil.h>

enum {
    REPEATS = 4 /* the checked path's launch, then the loop's */
};

typedef struct stamped {
    ze_kernel_handle_t kernel;
    uint64_t *stamp;
} stamped_t;

static void stamp_open(stamped_t *into, two_lists_t *lists)
{
    into->kernel = zt_kernel(lists->f.module, TK_STAMP);
    into->stamp = zt_usm_alloc(&lists->f.env, ZT_USM_DEVICE, HZ_BYTES, 64);
    ZT_ARG(into->kernel, 0, into->stamp);
    ZT_OK(zeKernelSetGroupSize(into->kernel, 1, 1, 1));
}

static void stamp_close(stamped_t *from, two_lists_t *lists)
{
    ZT_OK(zeKernelDestroy(from->kernel));
    lists->extra = from->stamp; /* freed once both lists are drained */
}

/* Every test's two lists and stamped kernel (a checked fixture). */
static two_lists_t t;
static stamped_t s;

static void open_stamped(void)
{
    open_two(&t);
    stamp_open(&s, &t);
}

static void close_stamped(void)
{
    stamp_close(&s, &t);
    close_two(&t);
}

static void launch(ze_command_list_handle_t list, const stamped_t *stamped, int times)
{
    static const ze_group_count_t one = {1, 1, 1};
    for (int i = 0; i < times; i++)
        ZT_OK(zeCommandListAppendLaunchKernel(list, stamped->kernel, &one, NULL, 0, NULL));
}

START_TEST(guesses_are_on)
{
    ck_assert_int_eq(zeil_hazard_guesses_enabled(), 1);
}
END_TEST

/* List A's repeated launches are held back until the host says go; list B
 * fills their argument with no event between: a race to Level Zero's order
 * (the driver runs the fill first). */
START_TEST(fill_racing_repeated_launches_is_a_warning)
{
    ze_event_handle_t go = t.f.event[2], filled = t.f.event[1];
    ZT_OK(zeCommandListAppendWaitOnEvents(t.a, 1, &go));
    size_t mark = zl_log_mark();
    launch(t.a, &s, REPEATS);
    zl_assert_silent(mark);
    hz_fill(t.b, s.stamp, filled, 0, NULL);
    ZT_OK(zeEventHostSynchronize(filled, hz_forever));
    ZT_OK(zeEventHostSignal(go));
    zl_assert_one_finding(mark, "ZEIL-W091", "zeCommandListAppendMemoryFill", "writes",
                          "possibly written by kernel 'stamp' on list", NULL);
}
END_TEST

/* B's fill waits for an event A signals after its repeated launches: silent.
 * A's next launch of the loop is not ordered after the fill: a warning there,
 * at that launch. (The host lets A run it only after the fill is done.) */
START_TEST(repeated_launch_after_an_unordered_fill_is_a_warning)
{
    ze_event_handle_t go = t.f.event[2], launched = t.f.event[3], filled = t.f.event[1],
                      again = t.f.event[4];
    ZT_OK(zeCommandListAppendWaitOnEvents(t.a, 1, &go));
    size_t mark = zl_log_mark();
    launch(t.a, &s, REPEATS);
    ZT_OK(zeCommandListAppendSignalEvent(t.a, launched));
    hz_fill(t.b, s.stamp, filled, 1, &launched);
    zl_assert_silent(mark);
    ZT_OK(zeCommandListAppendWaitOnEvents(t.a, 1, &again));
    launch(t.a, &s, 1);
    zl_assert_one_finding(mark, "ZEIL-W091", "zeCommandListAppendLaunchKernel",
                          "kernel 'stamp' on list", "may read or write",
                          "written by zeCommandListAppendMemoryFill", NULL);
    ZT_OK(zeEventHostSignal(go));
    ZT_OK(zeEventHostSynchronize(filled, hz_forever));
    ZT_OK(zeEventHostSignal(again));
}
END_TEST

/* An allocation of its own filled by B (so it has a history), known done
 * through the event filled, then freed: one history forgotten. */
static void forget_a_history(ze_event_handle_t filled)
{
    void *other = zt_usm_alloc(&t.f.env, ZT_USM_DEVICE, HZ_BYTES, 64);
    hz_fill(t.b, other, filled, 0, NULL);
    ZT_OK(zeEventHostSynchronize(filled, hz_forever));
    ZT_OK(zeMemFree(t.f.env.context, other));
}

/* Another allocation's history forgotten (it is freed) while the loop runs:
 * the loop's next launch cannot trust the histories it found before and
 * asks each again (hz_access_launch_again), and still sees B's unordered
 * fill of its argument. (The host lets A run that launch only after the
 * fill is done: the program races to Level Zero's order, not in fact.) */
START_TEST(repeated_launch_after_a_free_still_sees_an_unordered_fill)
{
    ze_event_handle_t launched = t.f.event[3], filled = t.f.event[1], again = t.f.event[4];
    size_t mark = zl_log_mark();
    launch(t.a, &s, REPEATS);
    ZT_OK(zeCommandListAppendSignalEvent(t.a, launched));
    ZT_OK(zeEventHostSynchronize(launched, hz_forever));
    forget_a_history(t.f.event[0]);
    zl_assert_silent(mark);
    hz_fill(t.b, s.stamp, filled, 0, NULL);
    ZT_OK(zeCommandListAppendWaitOnEvents(t.a, 1, &again));
    launch(t.a, &s, 1);
    zl_assert_one_finding(mark, "ZEIL-W091", "zeCommandListAppendLaunchKernel",
                          "kernel 'stamp' on list", "may read or write",
                          "written by zeCommandListAppendMemoryFill", NULL);
    ZT_OK(zeEventHostSynchronize(filled, hz_forever));
    ZT_OK(zeEventHostSignal(again));
}
END_TEST

/* The same loop with that free, and B's fill ordered after the loop's
 * launches (an event A signals): silent, before and after the free. */
START_TEST(repeated_launches_around_a_free_ordered_fill_is_silent)
{
    ze_event_handle_t launched = t.f.event[3], filled = t.f.event[1], done = t.f.event[4];
    size_t mark = zl_log_mark();
    launch(t.a, &s, REPEATS);
    forget_a_history(t.f.event[0]);
    launch(t.a, &s, REPEATS);
    ZT_OK(zeCommandListAppendSignalEvent(t.a, launched));
    hz_fill(t.b, s.stamp, filled, 1, &launched);
    ZT_OK(zeCommandListAppendBarrier(t.b, done, 0, NULL));
    ZT_OK(zeEventHostSynchronize(done, hz_forever));
    launch(t.a, &s, REPEATS);
    zl_assert_silent(mark);
}
END_TEST

/* A launch of the same kernel with declared accesses (zeil_declare_accesses:
 * it writes x) between the loop's launches: B's copy from x, ordered after
 * that launch only, races with none of the later launches, which do not
 * touch x. */
START_TEST(declared_launch_between_repeated_launches_keeps_its_own_access)
{
    ze_event_handle_t go = t.f.event[2], declared = t.f.event[3], copied = t.f.event[1];
    ZT_OK(zeCommandListAppendWaitOnEvents(t.a, 1, &go));
    size_t mark = zl_log_mark();
    launch(t.a, &s, REPEATS);
    const zeil_access_t writes_x = {t.x, HZ_BYTES, 1};
    zeil_declare_accesses(&writes_x, 1);
    launch(t.a, &s, 1);
    ZT_OK(zeCommandListAppendSignalEvent(t.a, declared));
    launch(t.a, &s, REPEATS);
    hz_copy(t.b, t.y, t.x, copied, 1, &declared);
    ZT_OK(zeEventHostSignal(go));
    ZT_OK(zeEventHostSynchronize(copied, hz_forever));
    zl_assert_silent(mark);
}
END_TEST

/* The loop's launches after the host learned the earlier ones done, then a
 * fill B orders after them: silent; and a free after both are known done. */
START_TEST(repeated_launches_known_done_are_silent)
{
    ze_event_handle_t done = t.f.event[0], filled = t.f.event[1];
    size_t mark = zl_log_mark();
    launch(t.a, &s, REPEATS);
    ZT_OK(zeCommandListAppendBarrier(t.a, done, 0, NULL));
    ZT_OK(zeEventHostSynchronize(done, hz_forever));
    launch(t.a, &s, REPEATS);
    ZT_OK(zeEventHostReset(done));
    ZT_OK(zeCommandListAppendBarrier(t.a, done, 0, NULL));
    hz_fill(t.b, s.stamp, filled, 1, &done);
    ZT_OK(zeEventHostSynchronize(filled, hz_forever));
    zl_assert_silent(mark);
}
END_TEST

/* A case of this suite's tests, each with the fixture. */
static TCase *stamped_case(Suite *suite, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, open_stamped, close_stamped);
    suite_add_tcase(suite, tc);
    return tc;
}

int main(void)
{
    Suite *suite = suite_create("hazards_repeated_launch");
    TCase *silent = stamped_case(suite, "correct programs");
    tcase_add_test(silent, guesses_are_on);
    tcase_add_test(silent, declared_launch_between_repeated_launches_keeps_its_own_access);
    tcase_add_test(silent, repeated_launches_known_done_are_silent);
    tcase_add_test(silent, repeated_launches_around_a_free_ordered_fill_is_silent);
    TCase *misuse = stamped_case(suite, "misuses");
    tcase_add_test(misuse, fill_racing_repeated_launches_is_a_warning);
    tcase_add_test(misuse, repeated_launch_after_an_unordered_fill_is_a_warning);
    tcase_add_test(misuse, repeated_launch_after_a_free_still_sees_an_unordered_fill);
    return zt_run_suite(suite);
}
