/*
 * Events and event pools on the host: signal, query, reset, synchronize with
 * and without timeouts, a signal from another host thread, and the spec's
 * error codes.
 */
#include "zt.h"

#include <pthread.h>
#include <time.h>

START_TEST(test_host_signal_query_reset)
{
    zt_env_t env;
    zt_open(&env);
    ze_event_pool_handle_t pool = zt_event_pool(&env, 4, 0);
    ze_event_handle_t ev = zt_event(pool, 2);
    ZT_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(ev));
    ZT_OK(zeEventHostSignal(ev));
    ZT_OK(zeEventQueryStatus(ev));
    ZT_OK(zeEventHostSynchronize(ev, 0));
    /* Signalling a signalled event is valid and changes nothing. */
    ZT_OK(zeEventHostSignal(ev));
    ZT_OK(zeEventQueryStatus(ev));
    ZT_OK(zeEventHostReset(ev));
    ZT_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(ev));
    /* Resetting an unsignalled event is valid too. */
    ZT_OK(zeEventHostReset(ev));
    ZT_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(ev));
    ZT_OK(zeEventDestroy(ev));
    ZT_OK(zeEventPoolDestroy(pool));
    zt_close(&env);
}
END_TEST

START_TEST(test_events_of_a_pool_are_independent)
{
    zt_env_t env;
    zt_open(&env);
    enum {
        COUNT = 16
    };
    ze_event_pool_handle_t pool = zt_event_pool(&env, COUNT, 0);
    ze_event_handle_t ev[COUNT];
    for (uint32_t i = 0; i < COUNT; i++)
        ev[i] = zt_event(pool, i);
    for (uint32_t i = 0; i < COUNT; i += 3)
        ZT_OK(zeEventHostSignal(ev[i]));
    for (uint32_t i = 0; i < COUNT; i++)
        ZT_RESULT(i % 3 == 0 ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY, zeEventQueryStatus(ev[i]));
    /* A destroyed event's slot can hold a new, unsignalled event. */
    ZT_OK(zeEventDestroy(ev[0]));
    ev[0] = zt_event(pool, 0);
    ZT_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(ev[0]));
    for (uint32_t i = 0; i < COUNT; i++)
        ZT_OK(zeEventDestroy(ev[i]));
    ZT_OK(zeEventPoolDestroy(pool));
    zt_close(&env);
}
END_TEST

START_TEST(test_synchronize_timeout_not_ready)
{
    zt_env_t env;
    zt_open(&env);
    ze_event_pool_handle_t pool = zt_event_pool(&env, 1, 0);
    ze_event_handle_t ev = zt_event(pool, 0);
    ZT_RESULT(ZE_RESULT_NOT_READY, zeEventHostSynchronize(ev, 0));
    const uint64_t timeout_ns = 20u * 1000 * 1000;
    uint64_t start = zt_now_ns();
    ZT_RESULT(ZE_RESULT_NOT_READY, zeEventHostSynchronize(ev, timeout_ns));
    uint64_t waited = zt_now_ns() - start;
    /* The timeout may be rounded, but a 20 ms wait is neither skipped nor
     * stretched to seconds. */
    ck_assert_msg(waited >= timeout_ns / 2, "returned after %llu ns", (unsigned long long)waited);
    ck_assert_msg(waited < 1000u * 1000 * 1000, "returned after %llu ns",
                  (unsigned long long)waited);
    ZT_OK(zeEventDestroy(ev));
    ZT_OK(zeEventPoolDestroy(pool));
    zt_close(&env);
}
END_TEST

/* Timeouts around the driver's polling budget (it polls up to 20 us before it
 * sleeps): each one is waited for in full and answered NOT_READY. */
START_TEST(test_short_timeouts_waited_in_full)
{
    zt_env_t env;
    zt_open(&env);
    ze_event_pool_handle_t pool = zt_event_pool(&env, 1, 0);
    ze_event_handle_t ev = zt_event(pool, 0);
    static const uint64_t timeouts_ns[] = {1, 1000, 5000, 19999, 20000, 20001, 60000, 2000000};
    for (size_t i = 0; i < sizeof timeouts_ns / sizeof *timeouts_ns; i++) {
        uint64_t start = zt_now_ns();
        ZT_RESULT(ZE_RESULT_NOT_READY, zeEventHostSynchronize(ev, timeouts_ns[i]));
        uint64_t waited = zt_now_ns() - start;
        ck_assert_msg(waited >= timeouts_ns[i], "timeout %llu ns returned after %llu ns",
                      (unsigned long long)timeouts_ns[i], (unsigned long long)waited);
        ck_assert_msg(waited < 1000u * 1000 * 1000, "timeout %llu ns returned after %llu ns",
                      (unsigned long long)timeouts_ns[i], (unsigned long long)waited);
    }
    ZT_OK(zeEventHostSignal(ev));
    ZT_OK(zeEventHostSynchronize(ev, 1));
    ZT_OK(zeEventDestroy(ev));
    ZT_OK(zeEventPoolDestroy(pool));
    zt_close(&env);
}
END_TEST

static void *signal_later(void *arg)
{
    struct timespec delay = {0, 50 * 1000 * 1000};
    nanosleep(&delay, NULL);
    ck_assert_int_eq(zeEventHostSignal((ze_event_handle_t)arg), ZE_RESULT_SUCCESS);
    return NULL;
}

START_TEST(test_synchronize_wakes_on_signal_from_another_thread)
{
    zt_env_t env;
    zt_open(&env);
    ze_event_pool_handle_t pool = zt_event_pool(&env, 1, 0);
    ze_event_handle_t ev = zt_event(pool, 0);
    pthread_t thread;
    uint64_t start = zt_now_ns();
    ck_assert_int_eq(pthread_create(&thread, NULL, signal_later, ev), 0);
    ZT_OK(zeEventHostSynchronize(ev, UINT64_MAX));
    uint64_t waited = zt_now_ns() - start;
    pthread_join(thread, NULL);
    ck_assert_uint_ge(waited, 40u * 1000 * 1000);
    ZT_OK(zeEventQueryStatus(ev));
    ZT_OK(zeEventDestroy(ev));
    ZT_OK(zeEventPoolDestroy(pool));
    zt_close(&env);
}
END_TEST

START_TEST(test_list_signal_and_reset_commands)
{
    zt_env_t env;
    zt_open(&env);
    ze_event_pool_handle_t pool = zt_event_pool(&env, 2, 0);
    ze_event_handle_t ev = zt_event(pool, 0), done = zt_event(pool, 1);
    ze_command_list_handle_t list = zt_immediate_list(&env, 0);
    ZT_OK(zeCommandListAppendSignalEvent(list, ev));
    ZT_OK(zeEventHostSynchronize(ev, UINT64_MAX));
    ZT_OK(zeCommandListAppendEventReset(list, ev));
    ZT_OK(zeCommandListAppendSignalEvent(list, done));
    ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    ZT_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(ev));
    /* A list waiting on an event signalled by the host. */
    ZT_OK(zeEventHostReset(done));
    ZT_OK(zeCommandListAppendWaitOnEvents(list, 1, &ev));
    ZT_OK(zeCommandListAppendSignalEvent(list, done));
    ZT_RESULT(ZE_RESULT_NOT_READY, zeEventHostSynchronize(done, 20u * 1000 * 1000));
    ZT_OK(zeEventHostSignal(ev));
    ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeEventDestroy(ev));
    ZT_OK(zeEventDestroy(done));
    ZT_OK(zeEventPoolDestroy(pool));
    zt_close(&env);
}
END_TEST

/* A program that destroys an event and its pool while a queued copy still
 * signals it (oneDNN's out-of-order stream test does): a misuse by the
 * specification, which the driver must survive as a GPU does (the event is
 * memory its pool keeps until the copy is done). */
START_TEST(test_pool_destroyed_under_a_queued_command)
{
    zt_env_t env;
    zt_open(&env);
    ze_event_pool_handle_t hold_pool = zt_event_pool(&env, 1, 0);
    ze_event_pool_handle_t doomed_pool = zt_event_pool(&env, 1, 0);
    ze_event_handle_t go = zt_event(hold_pool, 0), doomed = zt_event(doomed_pool, 0);
    ze_command_list_handle_t list = zt_immediate_list(&env, 0);
    static char src[256] = "queued", dst[256];
    ZT_OK(zeCommandListAppendMemoryCopy(list, dst, src, sizeof src, doomed, 1, &go));
    ZT_OK(zeEventDestroy(doomed));
    ZT_OK(zeEventPoolDestroy(doomed_pool));
    ZT_OK(zeEventHostSignal(go));      /* the copy runs and signals what was destroyed */
    ZT_OK(zeCommandListDestroy(list)); /* the copy is done by now */
    ck_assert_str_eq(dst, "queued");
    ZT_OK(zeEventDestroy(go));
    ZT_OK(zeEventPoolDestroy(hold_pool));
    zt_close(&env);
}
END_TEST

START_TEST(test_bad_arguments_refused)
{
    zt_env_t env;
    zt_open(&env);
    ze_event_pool_handle_t pool = NULL;
    ze_event_pool_desc_t pool_desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                      ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 0};
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_SIZE,
              zeEventPoolCreate(env.context, &pool_desc, 0, NULL, &pool));
    pool_desc.count = 2;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_SIZE,
              zeEventPoolCreate(env.context, &pool_desc, 1, NULL, &pool));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeEventPoolCreate(env.context, NULL, 0, NULL, &pool));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeEventPoolCreate(env.context, &pool_desc, 0, NULL, NULL));
    pool_desc.flags = 0x8;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ENUMERATION,
              zeEventPoolCreate(env.context, &pool_desc, 0, NULL, &pool));

    pool = zt_event_pool(&env, 2, 0);
    ze_event_handle_t ev = NULL;
    ze_event_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0, 0, 0};
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeEventCreate(pool, NULL, &ev));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeEventCreate(pool, &desc, NULL));
    desc.signal = 0x8;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ENUMERATION, zeEventCreate(pool, &desc, &ev));
    ZT_OK(zeEventPoolDestroy(pool));
    zt_close(&env);
}
END_TEST

static Suite *event_suite(void)
{
    Suite *s = suite_create("driver_event");
    TCase *tc = tcase_create("event");
    tcase_add_test(tc, test_host_signal_query_reset);
    tcase_add_test(tc, test_events_of_a_pool_are_independent);
    tcase_add_test(tc, test_synchronize_timeout_not_ready);
    tcase_add_test(tc, test_short_timeouts_waited_in_full);
    tcase_add_test(tc, test_synchronize_wakes_on_signal_from_another_thread);
    tcase_add_test(tc, test_list_signal_and_reset_commands);
    tcase_add_test(tc, test_pool_destroyed_under_a_queued_command);
    tcase_add_test(tc, test_bad_arguments_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return zt_run_suite(event_suite());
}
