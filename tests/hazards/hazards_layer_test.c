/*
 * The hazard checks (layer/hazards) through the real loader and reference
 * driver, with ZEIL_CHECKS=hazards: correct programs that are easy to get
 * wrong stay silent; races, frees in flight and hangs are reported with both
 * sides and their path, and only the free is refused.
 */
#include "hz_two_lists.h"

#include "test_kernels.h"

#include <zeil/zeil.h>

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Signals the event 20 ms from now (a thread's work). */
static void *signal_soon(void *event)
{
    struct timespec delay = {0, 20 * 1000 * 1000};
    nanosleep(&delay, NULL);
    zeEventHostSignal((ze_event_handle_t)event);
    return NULL;
}

START_TEST(checks_are_on)
{
    ck_assert_int_eq(zeil_hazards_enabled(), 1);
}
END_TEST

/* ---- correct programs: silent ---------------------------------------- */

START_TEST(event_between_lists_is_silent)
{
    two_lists_t t;
    open_two(&t);
    size_t mark = zl_log_mark();
    hz_fill(t.a, t.x, t.f.event[0], 0, NULL);
    hz_copy(t.b, t.y, t.x, NULL, 1, &t.f.event[0]);
    close_two(&t);
    zl_assert_silent(mark);
}
END_TEST

START_TEST(host_signalled_waits_are_silent)
{
    two_lists_t t;
    open_two(&t);
    size_t mark = zl_log_mark();
    /* Both lists wait for the host; the host signals after the appends. */
    ze_event_handle_t go = t.f.event[2];
    hz_fill(t.a, t.x, t.f.event[0], 1, &go);
    hz_copy(t.b, t.y, t.x, t.f.event[1], 1, &t.f.event[0]);
    ZT_OK(zeEventHostSignal(go));
    ZT_OK(zeEventHostSynchronize(t.f.event[1], hz_forever));
    ZT_OK(zeMemFree(t.f.env.context, t.y)); /* known done through both lists */
    t.y = zt_usm_alloc(&t.f.env, ZT_USM_DEVICE, HZ_BYTES, 64);
    close_two(&t);
    zl_assert_silent(mark);
}
END_TEST

/* An event the host signals before any append used it has no state then
 * (hazards.h): it gets one, and a later wait on it is known to be over. */
START_TEST(event_signalled_by_the_host_first_is_silent)
{
    two_lists_t t;
    open_two(&t);
    size_t mark = zl_log_mark();
    ze_event_handle_t early = t.f.event[3];
    ZT_OK(zeEventHostSignal(early));
    hz_fill(t.a, t.x, t.f.event[0], 1, &early);
    ZT_OK(zeEventHostSynchronize(t.f.event[0], hz_forever));
    ZT_OK(zeEventHostReset(early));
    ZT_OK(zeEventHostSignal(early)); /* reset and signalled again: still over */
    hz_copy(t.b, t.y, t.x, t.f.event[1], 1, &early);
    ZT_OK(zeEventHostSynchronize(t.f.event[1], hz_forever));
    ZT_OK(zeEventHostReset(early));
    close_two(&t);
    zl_assert_silent(mark);
}
END_TEST

START_TEST(event_reused_after_reset_is_silent)
{
    two_lists_t t;
    open_two(&t);
    size_t mark = zl_log_mark();
    for (int i = 0; i < 4; i++) {
        hz_fill(t.a, t.x, t.f.event[0], 0, NULL);
        hz_copy(t.b, t.y, t.x, t.f.event[1], 1, &t.f.event[0]);
        ZT_OK(zeEventHostSynchronize(t.f.event[1], hz_forever));
        ZT_OK(zeEventHostReset(t.f.event[0]));
        ZT_OK(zeEventHostReset(t.f.event[1]));
    }
    /* The same with the resets appended to the lists; the host waits for
     * both resets, so no signal of the last round is taken for this one's. */
    for (int i = 0; i < 3; i++) {
        hz_fill(t.a, t.x, t.f.event[0], 0, NULL);
        hz_copy(t.b, t.y, t.x, t.f.event[1], 1, &t.f.event[0]);
        ZT_OK(zeEventHostSynchronize(t.f.event[1], hz_forever));
        ZT_OK(zeCommandListAppendEventReset(t.a, t.f.event[0]));
        ZT_OK(zeCommandListAppendEventReset(t.b, t.f.event[1]));
        ZT_OK(zeCommandListAppendBarrier(t.a, t.f.event[2], 0, NULL));
        ZT_OK(zeCommandListAppendBarrier(t.b, t.f.event[3], 0, NULL));
        ZT_OK(zeEventHostSynchronize(t.f.event[2], hz_forever));
        ZT_OK(zeEventHostSynchronize(t.f.event[3], hz_forever));
        ZT_OK(zeEventHostReset(t.f.event[2]));
        ZT_OK(zeEventHostReset(t.f.event[3]));
    }
    close_two(&t);
    zl_assert_silent(mark);
}
END_TEST

START_TEST(in_order_list_without_events_is_silent)
{
    two_lists_t t;
    open_two(&t);
    size_t mark = zl_log_mark();
    hz_fill(t.a, t.x, NULL, 0, NULL);
    hz_copy(t.a, t.y, t.x, NULL, 0, NULL);
    hz_copy(t.a, t.x, t.y, NULL, 0, NULL);
    hz_fill(t.a, t.y, t.f.event[0], 0, NULL);
    ZT_OK(zeEventHostSynchronize(t.f.event[0], hz_forever));
    /* The last append's event covers all of an in-order list. */
    ZT_OK(zeMemFree(t.f.env.context, t.x));
    t.x = zt_usm_alloc(&t.f.env, ZT_USM_DEVICE, HZ_BYTES, 64);
    close_two(&t);
    zl_assert_silent(mark);
}
END_TEST

START_TEST(regular_list_through_queue_and_fence_is_silent)
{
    two_lists_t t;
    open_two(&t);
    size_t mark = zl_log_mark();
    ze_command_list_handle_t regular = zt_regular_list(&t.f.env);
    ze_command_queue_handle_t queue = zt_queue(&t.f.env, 0);
    ze_fence_handle_t fence = zt_fence(queue);
    hz_fill(regular, t.x, NULL, 0, NULL);
    hz_copy(regular, t.y, t.x, NULL, 0, NULL);
    ZT_OK(zeCommandListClose(regular));
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &regular, fence));
    ZT_OK(zeFenceHostSynchronize(fence, hz_forever));
    hz_copy(t.b, t.x, t.y, t.f.event[0], 0, NULL);           /* after the fence: ordered */
    ZT_OK(zeEventHostSynchronize(t.f.event[0], hz_forever)); /* before the list runs again */
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &regular, NULL));
    ZT_OK(zeCommandQueueSynchronize(queue, hz_forever));
    ZT_OK(zeFenceDestroy(fence));
    ZT_OK(zeCommandQueueDestroy(queue));
    ZT_OK(zeCommandListDestroy(regular));
    close_two(&t);
    zl_assert_silent(mark);
}
END_TEST

START_TEST(fence_polled_until_ready_is_silent)
{
    two_lists_t t;
    open_two(&t);
    size_t mark = zl_log_mark();
    ze_command_list_handle_t regular = zt_regular_list(&t.f.env);
    ze_command_queue_handle_t queue = zt_queue(&t.f.env, 0);
    ze_fence_handle_t fence = zt_fence(queue);
    hz_fill(regular, t.x, NULL, 0, NULL);
    ZT_OK(zeCommandListClose(regular));
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &regular, fence));
    while (zeFenceQueryStatus(fence) == ZE_RESULT_NOT_READY)
        sched_yield();
    ZT_OK(zeMemFree(t.f.env.context, t.x)); /* ready: the fill is done */
    t.x = zt_usm_alloc(&t.f.env, ZT_USM_DEVICE, HZ_BYTES, 64);
    ZT_OK(zeFenceDestroy(fence));
    ZT_OK(zeCommandQueueDestroy(queue));
    ZT_OK(zeCommandListDestroy(regular));
    close_two(&t);
    zl_assert_silent(mark);
}
END_TEST

START_TEST(synchronous_list_is_silent)
{
    zl_fixture_t f;
    zl_open(&f);
    size_t mark = zl_log_mark();
    void *x = zt_usm_alloc(&f.env, ZT_USM_DEVICE, HZ_BYTES, 64);
    hz_fill(f.list, x, NULL, 0, NULL); /* done when the append returns */
    ZT_OK(zeMemFree(f.env.context, x));
    zl_close(&f);
    zl_assert_silent(mark);
}
END_TEST

/* ---- misuses: reported ------------------------------------------------ */

/* Two lists write disjoint rows of one allocation with region copies (16
 * rows of 256 bytes): no event is needed between them. List A's copy is held
 * back until B is done, so the race reported last is one to Level Zero's
 * order, not one the driver runs (TSan would see that one). */
START_TEST(region_copies_of_disjoint_rows_are_silent)
{
    two_lists_t t;
    open_two(&t);
    size_t mark = zl_log_mark();
    ze_copy_region_t top = {0, 0, 0, 256, 8, 1}, bottom = {0, 8, 0, 256, 8, 1};
    ze_copy_region_t middle = {16, 4, 0, 128, 8, 1};
    ze_event_handle_t go = t.f.event[2];
    ZT_OK(zeCommandListAppendMemoryCopyRegion(t.a, t.x, &top, 256, 0, t.y, &top, 256, 0, NULL, 1,
                                              &go));
    ZT_OK(zeCommandListAppendMemoryCopyRegion(t.b, t.x, &bottom, 256, 0, t.y, &bottom, 256, 0, NULL,
                                              0, NULL));
    zl_assert_silent(mark);
    /* rows 4..11 overlap both: a race, named with its exact range */
    t.extra = zt_usm_alloc(&t.f.env, ZT_USM_DEVICE, HZ_BYTES, 64);
    ZT_OK(zeCommandListAppendMemoryCopyRegion(t.b, t.extra, &middle, 256, 0, t.x, &middle, 256, 0,
                                              t.f.event[1], 0, NULL));
    ZT_OK(zeEventHostSynchronize(t.f.event[1], hz_forever));
    ZT_OK(zeEventHostSignal(go));
    char range[64];
    snprintf(range, sizeof range, "reads %p+%d", (void *)((char *)t.x + 4 * 256 + 16),
             7 * 256 + 128);
    zl_assert_one_finding(mark, "ZEIL-E090", "zeCommandListAppendMemoryCopyRegion", range, NULL);
    close_two(&t);
}
END_TEST

/* The stamp kernel writing *stamp, as a multi-kernel indirect launch of one. */
typedef struct indirect {
    ze_kernel_handle_t kernel;
    uint32_t *count;
    ze_group_count_t *groups;
} indirect_t;

static void indirect_open(indirect_t *k, const zl_fixture_t *f, void *stamp)
{
    k->kernel = zt_kernel(f->module, TK_STAMP);
    ZT_ARG(k->kernel, 0, stamp);
    ZT_OK(zeKernelSetGroupSize(k->kernel, 1, 1, 1));
    k->count = zt_usm_alloc(&f->env, ZT_USM_SHARED, sizeof *k->count, 0);
    k->groups = zt_usm_alloc(&f->env, ZT_USM_SHARED, sizeof *k->groups, 0);
    *k->count = 1;
    *k->groups = (ze_group_count_t){1, 1, 1};
}

static void indirect_close(indirect_t *k, const zl_fixture_t *f)
{
    ZT_OK(zeKernelDestroy(k->kernel));
    ZT_OK(zeMemFree(f->env.context, k->count));
    ZT_OK(zeMemFree(f->env.context, k->groups));
}

/* List A's last append (a copy from a context, a multi-kernel indirect
 * launch) signals the event list B waits on before it fills the same memory;
 * the host waits for B and frees it. Both used to look unsignalled for
 * ever: two false E090, a false E094 and the free refused (E092). */
START_TEST(appends_of_every_kind_signal_their_events)
{
    for (int kind = 0; kind < 2; kind++) {
        two_lists_t t;
        open_two(&t);
        indirect_t k;
        t.extra = zt_usm_alloc(&t.f.env, ZT_USM_DEVICE, HZ_BYTES, 64);
        indirect_open(&k, &t.f, t.extra);
        size_t mark = zl_log_mark();
        ze_event_handle_t a_done = t.f.event[0], b_done = t.f.event[1];
        hz_fill(t.a, t.x, NULL, 0, NULL);
        if (kind == 0)
            ZT_OK(zeCommandListAppendMemoryCopyFromContext(t.a, t.y, t.f.env.context, t.x, HZ_BYTES,
                                                           a_done, 0, NULL));
        else
            ZT_OK(zeCommandListAppendLaunchMultipleKernelsIndirect(t.a, 1, &k.kernel, k.count,
                                                                   k.groups, a_done, 0, NULL));
        hz_fill(t.b, t.x, b_done, 1, &a_done);
        ZT_OK(zeEventHostSynchronize(a_done, hz_forever)); /* alone: no E094 */
        ZT_OK(zeEventHostSynchronize(b_done, hz_forever));
        ZT_OK(zeMemFree(t.f.env.context, t.x)); /* known done: not refused */
        t.x = zt_usm_alloc(&t.f.env, ZT_USM_DEVICE, HZ_BYTES, 64);
        zl_assert_silent(mark);
        indirect_close(&k, &t.f);
        close_two(&t);
    }
}
END_TEST

START_TEST(copy_from_context_racing_a_fill_is_reported)
{
    two_lists_t t;
    open_two(&t);
    size_t mark = zl_log_mark();
    ze_event_handle_t go = t.f.event[2];
    hz_fill(t.a, t.x, NULL, 1, &go);
    ZT_OK(zeCommandListAppendMemoryCopyFromContext(t.b, t.y, t.f.env.context, t.x, HZ_BYTES,
                                                   t.f.event[1], 0, NULL));
    ZT_OK(zeEventHostSynchronize(t.f.event[1], hz_forever));
    ZT_OK(zeEventHostSignal(go));
    zl_assert_one_finding(mark, "ZEIL-E090", "zeCommandListAppendMemoryCopyFromContext", "reads",
                          "written by zeCommandListAppendMemoryFill", NULL);
    close_two(&t);
}
END_TEST

START_TEST(freeing_a_multi_kernel_launch_argument_in_flight_is_refused)
{
    two_lists_t t;
    open_two(&t);
    indirect_t k;
    indirect_open(&k, &t.f, t.x);
    size_t mark = zl_log_mark();
    ze_event_handle_t go = t.f.event[2], done = t.f.event[0];
    ZT_OK(zeCommandListAppendLaunchMultipleKernelsIndirect(t.a, 1, &k.kernel, k.count, k.groups,
                                                           done, 1, &go));
    ZT_RESULT(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, zeMemFree(t.f.env.context, t.x));
    zl_assert_one_finding(mark, "ZEIL-E092", "zeMemFree", "not known to be complete", NULL);
    ZT_OK(zeEventHostSignal(go));
    ZT_OK(zeEventHostSynchronize(done, hz_forever));
    indirect_close(&k, &t.f);
    close_two(&t);
}
END_TEST

/* The launch a loop repeats moves its access's epoch without a lock
 * (hz_access.c): a launch of the same arguments after the host learned the
 * first one done still holds its allocation. */
START_TEST(freeing_an_argument_of_a_repeated_launch_in_flight_is_refused)
{
    two_lists_t t;
    open_two(&t);
    ze_kernel_handle_t k = zt_kernel(t.f.module, TK_STAMP);
    uint64_t *stamp = zt_usm_alloc(&t.f.env, ZT_USM_DEVICE, HZ_BYTES, 64);
    ZT_ARG(k, 0, stamp);
    ZT_OK(zeKernelSetGroupSize(k, 1, 1, 1));
    ze_group_count_t one = {1, 1, 1};
    ze_event_handle_t go = t.f.event[2], done = t.f.event[0];
    size_t mark = zl_log_mark();
    for (int i = 0; i < 3; i++) /* the first through the checked path, then the loop's */
        ZT_OK(zeCommandListAppendLaunchKernel(t.a, k, &one, NULL, 0, NULL));
    ZT_OK(zeCommandListAppendBarrier(t.a, done, 0, NULL));
    ZT_OK(zeEventHostSynchronize(done, hz_forever)); /* the host knows those done */
    ZT_OK(zeCommandListAppendWaitOnEvents(t.a, 1, &go));
    for (int i = 0; i < 3; i++)
        ZT_OK(zeCommandListAppendLaunchKernel(t.a, k, &one, NULL, 0, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, zeMemFree(t.f.env.context, stamp));
    zl_assert_one_finding(mark, "ZEIL-E092", "zeMemFree", "kernel 'stamp' on list",
                          "not known to be complete", NULL);
    ZT_OK(zeEventHostSignal(go));
    ZT_OK(zeEventHostReset(done));
    ZT_OK(zeCommandListAppendBarrier(t.a, done, 0, NULL));
    ZT_OK(zeEventHostSynchronize(done, hz_forever));
    ZT_OK(zeKernelDestroy(k));
    t.extra = stamp; /* freed once both lists are drained */
    close_two(&t);
}
END_TEST

START_TEST(race_between_lists_names_both_sides)
{
    two_lists_t t;
    open_two(&t);
    size_t mark = zl_log_mark();
    /* The fill is held back until the copy is done: a race to Level Zero's
     * order, yet not one the driver runs (TSan would see that one). */
    ze_event_handle_t go = t.f.event[2];
    hz_fill(t.a, t.x, NULL, 1, &go);
    uint64_t fill_call = zeil_call_number();
    hz_copy(t.b, t.y, t.x, t.f.event[1], 0, NULL); /* no event: a race, yet the copy runs */
    ZT_OK(zeEventHostSynchronize(t.f.event[1], hz_forever));
    ZT_OK(zeEventHostSignal(go));
    char written[64], at[64];
    snprintf(written, sizeof written, "reads %p+%d", t.x, HZ_BYTES);
    snprintf(at, sizeof at, "(call #%llu)", (unsigned long long)fill_call);
    zl_assert_one_finding(mark, "ZEIL-E090", "zeCommandListAppendMemoryCopy", written,
                          "written by zeCommandListAppendMemoryFill on list", at,
                          "with no event between them", NULL);
    close_two(&t);
}
END_TEST

START_TEST(free_in_flight_is_refused)
{
    two_lists_t t;
    open_two(&t);
    size_t mark = zl_log_mark();
    ze_event_handle_t go = t.f.event[2];
    hz_fill(t.a, t.x, t.f.event[0], 1, &go); /* cannot run before the host says go */
    ZT_RESULT(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, zeMemFree(t.f.env.context, t.x));
    zl_assert_one_finding(mark, "ZEIL-E092", "zeMemFree", "is written by",
                          "not known to be complete", NULL);
    ZT_OK(zeEventHostSignal(go));
    ZT_OK(zeEventHostSynchronize(t.f.event[0], hz_forever));
    /* The driver never saw the free: the fill reached the memory. */
    uint32_t *seen = zt_usm_alloc(&t.f.env, ZT_USM_HOST, HZ_BYTES, 64);
    hz_copy(t.a, seen, t.x, t.f.event[1], 0, NULL);
    ZT_OK(zeEventHostSynchronize(t.f.event[1], hz_forever));
    ck_assert_uint_eq(seen[HZ_BYTES / 4 - 1], 0x5a5a5a5a);
    ZT_OK(zeMemFree(t.f.env.context, seen));
    mark = zl_log_mark();
    close_two(&t); /* the free now succeeds */
    zl_assert_silent(mark);
}
END_TEST

START_TEST(two_list_cycle_is_reported_at_the_closing_append)
{
    two_lists_t t;
    open_two(&t);
    size_t mark = zl_log_mark();
    ze_event_handle_t e1 = t.f.event[0], e2 = t.f.event[1];
    ZT_OK(zeCommandListAppendBarrier(t.a, e1, 1, &e2));
    zl_assert_silent(mark);
    ZT_OK(zeCommandListAppendBarrier(t.b, e2, 1, &e1)); /* not refused */
    zl_assert_one_finding(mark, "ZEIL-E093", "zeCommandListAppendBarrier", "wait cycle",
                          "which only this call signals", NULL);
    /* The host breaks the cycle. */
    ZT_OK(zeEventHostSignal(e2));
    ZT_OK(zeEventHostSynchronize(e1, hz_forever));
    close_two(&t);
}
END_TEST

/* Another thread may signal the event yet (a valid program may): no error,
 * a warning with the wait graph once the wait is blocked ZEIL_HANG_WARN_MS
 * (set to 200 for this suite). */
START_TEST(infinite_wait_on_unsignalled_event_is_warned_once_blocked)
{
    two_lists_t t;
    open_two(&t);
    size_t mark = zl_log_mark();
    ze_event_handle_t never = t.f.event[2], done = t.f.event[0];
    hz_fill(t.a, t.x, done, 1, &never);
    zl_late_signal_t s = {never, "ZEIL-W097"};
    pthread_t helper;
    ck_assert_int_eq(pthread_create(&helper, NULL, zl_signal_when_reported, &s), 0);
    ZT_OK(zeEventHostSynchronize(done, hz_forever)); /* returns once the helper signals */
    pthread_join(helper, NULL);
    char path[96];
    snprintf(path, sizeof path, "on event %p, which nothing pending signals", (void *)never);
    zl_assert_one_finding(mark, "ZEIL-W097", "zeEventHostSynchronize",
                          "blocked for 200 ms waiting on event", path,
                          "unless another thread signals it", NULL);
    ck_assert_uint_eq(zeil_rule_count("ZEIL-E094"), 0);
    close_two(&t);
}
END_TEST

/* Signalled by another thread within the threshold: nothing to say. */
START_TEST(infinite_wait_another_thread_ends_is_silent)
{
    two_lists_t t;
    open_two(&t);
    size_t mark = zl_log_mark();
    ze_event_handle_t go = t.f.event[2], done = t.f.event[0];
    hz_fill(t.a, t.x, done, 1, &go);
    pthread_t helper;
    ck_assert_int_eq(pthread_create(&helper, NULL, signal_soon, go), 0);
    ZT_OK(zeEventHostSynchronize(done, hz_forever));
    pthread_join(helper, NULL);
    close_two(&t);
    zl_assert_silent(mark);
}
END_TEST

/* A wait on work queued behind it on its own in-order list: a cycle, which
 * zeil can prove, is E094 before blocking (after the append's E093). */
START_TEST(infinite_wait_on_a_cycle_is_reported_before_blocking)
{
    two_lists_t t;
    open_two(&t);
    ze_event_handle_t later = t.f.event[2], done = t.f.event[0];
    hz_fill(t.a, t.x, done, 1, &later);
    ZT_OK(zeCommandListAppendSignalEvent(t.a, later)); /* behind the fill: E093 */
    ck_assert_uint_eq(zeil_rule_count("ZEIL-E093"), 1);
    size_t mark = zl_log_mark();
    zl_late_signal_t s = {later, "ZEIL-E094"};
    pthread_t helper;
    ck_assert_int_eq(pthread_create(&helper, NULL, zl_signal_when_reported, &s), 0);
    ZT_OK(zeEventHostSynchronize(done, hz_forever)); /* the host breaks the cycle */
    pthread_join(helper, NULL);
    zl_assert_one_finding(mark, "ZEIL-E094", "zeEventHostSynchronize", "waits for ever on event",
                          "(a cycle)", "its work waits on itself", NULL);
    close_two(&t);
}
END_TEST

START_TEST(finite_wait_that_times_out_is_warned_once)
{
    two_lists_t t;
    open_two(&t);
    size_t mark = zl_log_mark();
    ze_event_handle_t never = t.f.event[2], done = t.f.event[0];
    hz_fill(t.a, t.x, done, 1, &never);
    for (int i = 0; i < 3; i++)
        ZT_RESULT(ZE_RESULT_NOT_READY, zeEventHostSynchronize(done, 1000 * 1000));
    zl_assert_one_finding(mark, "ZEIL-W095", "zeEventHostSynchronize", "timed out",
                          "which nothing pending signals", NULL);
    ZT_OK(zeEventHostSignal(never));
    ZT_OK(zeEventHostSynchronize(done, hz_forever));
    close_two(&t);
}
END_TEST

START_TEST(queue_and_fence_waits_on_unsignalled_event_are_reported)
{
    zl_fixture_t f;
    zl_open(&f);
    void *x = zt_usm_alloc(&f.env, ZT_USM_DEVICE, HZ_BYTES, 64);
    ze_command_list_handle_t regular = zt_regular_list(&f.env);
    ze_command_queue_handle_t queue = zt_queue(&f.env, 0);
    ze_fence_handle_t fence = zt_fence(queue);
    ze_event_handle_t never = f.event[2];
    hz_fill(regular, x, NULL, 1, &never);
    ZT_OK(zeCommandListClose(regular));
    size_t mark = zl_log_mark();
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &regular, fence));
    for (int i = 0; i < 2; i++)
        ZT_RESULT(ZE_RESULT_NOT_READY, zeFenceHostSynchronize(fence, 1000 * 1000));
    zl_assert_one_finding(mark, "ZEIL-W095", "zeFenceHostSynchronize", "timed out waiting on fence",
                          "its work waits (call #", "which nothing pending signals", NULL);
    mark = zl_log_mark();
    zl_late_signal_t s = {never, "ZEIL-W097"};
    pthread_t helper;
    ck_assert_int_eq(pthread_create(&helper, NULL, zl_signal_when_reported, &s), 0);
    ZT_OK(zeCommandQueueSynchronize(queue, hz_forever));
    pthread_join(helper, NULL);
    zl_assert_one_finding(mark, "ZEIL-W097", "zeCommandQueueSynchronize",
                          "ms waiting on command queue", "its work waits (call #",
                          "unless another thread signals it", NULL);
    mark = zl_log_mark();
    ZT_OK(zeMemFree(f.env.context, x)); /* the queue's work is known done */
    ZT_OK(zeFenceDestroy(fence));
    ZT_OK(zeCommandQueueDestroy(queue));
    ZT_OK(zeCommandListDestroy(regular));
    zl_close(&f);
    zl_assert_silent(mark);
}
END_TEST

START_TEST(kernel_pointer_argument_race_is_a_warning)
{
    two_lists_t t;
    open_two(&t);
    ze_kernel_handle_t k = zt_kernel(t.f.module, TK_STAMP);
    uint64_t *stamp = zt_usm_alloc(&t.f.env, ZT_USM_HOST, HZ_BYTES, 64);
    ZT_ARG(k, 0, stamp);
    ZT_OK(zeKernelSetGroupSize(k, 1, 1, 1));
    size_t mark = zl_log_mark();
    static const uint32_t zero = 0;
    ze_event_handle_t go = t.f.event[2]; /* the fill waits for the launch to be done */
    ZT_OK(zeCommandListAppendMemoryFill(t.a, stamp, &zero, sizeof zero, HZ_BYTES, NULL, 1, &go));
    ze_group_count_t one = {1, 1, 1};
    ZT_OK(zeCommandListAppendLaunchKernel(t.b, k, &one, t.f.event[1], 0, NULL));
    ZT_OK(zeEventHostSynchronize(t.f.event[1], hz_forever));
    ZT_OK(zeEventHostSignal(go));
    zl_assert_one_finding(mark, "ZEIL-W091", "zeCommandListAppendLaunchKernel",
                          "kernel 'stamp' on list", "may read or write",
                          "written by zeCommandListAppendMemoryFill", NULL);
    t.extra = stamp;
    close_two(&t);
}
END_TEST

START_TEST(more_lists_than_slots_stops_the_checks)
{
    zl_fixture_t f;
    zl_open(&f);
    enum {
        LISTS = 65
    };
    ze_command_list_handle_t lists[LISTS];
    size_t mark = zl_log_mark();
    for (int i = 0; i < LISTS; i++) {
        lists[i] = zt_immediate_list(&f.env, 1);
        ZT_OK(zeCommandListAppendBarrier(lists[i], NULL, 0, NULL));
    }
    zl_assert_one_finding(mark, "ZEIL-W096", "zeCommandListAppendBarrier", "the hazard checks stop",
                          "the 65th command list or queue", NULL);
    for (int i = 0; i < LISTS; i++)
        ZT_OK(zeCommandListDestroy(lists[i]));
    zl_close(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("hazards_layer");
    /* A hang shows as the test that hung, not as the suite's timeout. */
    TCase *silent = tcase_create("correct programs");
    tcase_set_timeout(silent, 60);
    tcase_add_test(silent, checks_are_on);
    tcase_add_test(silent, event_between_lists_is_silent);
    tcase_add_test(silent, host_signalled_waits_are_silent);
    tcase_add_test(silent, event_reused_after_reset_is_silent);
    tcase_add_test(silent, event_signalled_by_the_host_first_is_silent);
    tcase_add_test(silent, in_order_list_without_events_is_silent);
    tcase_add_test(silent, regular_list_through_queue_and_fence_is_silent);
    tcase_add_test(silent, fence_polled_until_ready_is_silent);
    tcase_add_test(silent, synchronous_list_is_silent);
    tcase_add_test(silent, region_copies_of_disjoint_rows_are_silent);
    tcase_add_test(silent, appends_of_every_kind_signal_their_events);
    tcase_add_test(silent, infinite_wait_another_thread_ends_is_silent);
    suite_add_tcase(s, silent);
    TCase *misuse = tcase_create("misuses");
    tcase_set_timeout(misuse, 60);
    tcase_add_test(misuse, race_between_lists_names_both_sides);
    tcase_add_test(misuse, free_in_flight_is_refused);
    tcase_add_test(misuse, copy_from_context_racing_a_fill_is_reported);
    tcase_add_test(misuse, freeing_a_multi_kernel_launch_argument_in_flight_is_refused);
    tcase_add_test(misuse, freeing_an_argument_of_a_repeated_launch_in_flight_is_refused);
    tcase_add_test(misuse, two_list_cycle_is_reported_at_the_closing_append);
    tcase_add_test(misuse, infinite_wait_on_unsignalled_event_is_warned_once_blocked);
    tcase_add_test(misuse, infinite_wait_on_a_cycle_is_reported_before_blocking);
    tcase_add_test(misuse, finite_wait_that_times_out_is_warned_once);
    tcase_add_test(misuse, queue_and_fence_waits_on_unsignalled_event_are_reported);
    tcase_add_test(misuse, kernel_pointer_argument_race_is_a_warning);
    tcase_add_test(misuse, more_lists_than_slots_stops_the_checks);
    suite_add_tcase(s, misuse);
    return zt_run_suite(s);
}
