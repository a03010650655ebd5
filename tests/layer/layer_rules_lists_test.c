/*
 * Command list, event and lifetime rules: appends to closed lists (E020),
 * executing open (E021) or immediate (E022) lists, a fence of another queue
 * (E024), an event pool destroyed before its events (E030), a second signal
 * without reset (W031), a launch with an argument never set (E041), a
 * context (W050) or module (W051) destroyed before its children.
 */
#include "zl.h"
#include "test_kernels.h"

#include <zeil/zeil.h>

#include <stdio.h>

static const ze_group_count_t one_group = {1, 1, 1};

START_TEST(test_append_to_closed_list_refused)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_command_queue_handle_t queue = zt_queue(&f.env, 1);
    ze_command_list_handle_t list = zt_regular_list(&f.env);
    uint64_t close_call = zeil_call_number() + 1;
    ZT_OK(zeCommandListClose(list));
    char text[64];
    snprintf(text, sizeof text, "(zeCommandListClose at call #%llu)",
             (unsigned long long)close_call);
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandListAppendBarrier(list, f.event[0], 0, NULL));
    zl_assert_one_finding(mark, "ZEIL-E020", "zeCommandListAppendBarrier", "is closed", text, NULL);
    /* The refused barrier is not in the list: executing it signals nothing. */
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL));
    ZT_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    ck_assert(!zl_signalled(f.event[0]));
    ck_assert_uint_eq(zeil_submission_count(list), 0);
    /* After a reset it is open again. */
    ZT_OK(zeCommandListReset(list));
    ZT_OK(zeCommandListAppendBarrier(list, f.event[0], 0, NULL));
    ZT_OK(zeCommandListClose(list));
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL));
    ZT_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    ck_assert(zl_signalled(f.event[0]));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeCommandQueueDestroy(queue));
    zl_close(&f);
}
END_TEST

START_TEST(test_execute_of_open_list_refused)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_command_queue_handle_t queue = zt_queue(&f.env, 1);
    ze_command_list_handle_t list = zt_regular_list(&f.env);
    ZT_OK(zeCommandListAppendSignalEvent(list, f.event[0]));
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL));
    zl_assert_one_finding(mark, "ZEIL-E021", "zeCommandQueueExecuteCommandLists", "is open", NULL);
    ZT_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    ck_assert(!zl_signalled(f.event[0]));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeCommandQueueDestroy(queue));
    zl_close(&f);
}
END_TEST

START_TEST(test_execute_of_immediate_list_refused)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_command_queue_handle_t queue = zt_queue(&f.env, 1);
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandQueueExecuteCommandLists(queue, 1, &f.list, NULL));
    zl_assert_one_finding(mark, "ZEIL-E022", "zeCommandQueueExecuteCommandLists", "is immediate",
                          NULL);
    ZT_OK(zeCommandQueueDestroy(queue));
    zl_close(&f);
}
END_TEST

START_TEST(test_fence_of_other_queue_refused)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_command_queue_handle_t queue = zt_queue(&f.env, 1), other = zt_queue(&f.env, 1);
    ze_fence_handle_t fence = zt_fence(other);
    ze_command_list_handle_t list = zt_regular_list(&f.env);
    ZT_OK(zeCommandListAppendSignalEvent(list, f.event[0]));
    ZT_OK(zeCommandListClose(list));
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandQueueExecuteCommandLists(queue, 1, &list, fence));
    zl_assert_one_finding(mark, "ZEIL-E024", "zeCommandQueueExecuteCommandLists",
                          "belongs to queue", NULL);
    ZT_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    ck_assert(!zl_signalled(f.event[0]));
    ck_assert_int_eq(zeFenceQueryStatus(fence), ZE_RESULT_NOT_READY);
    ZT_OK(zeFenceDestroy(fence));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeCommandQueueDestroy(queue));
    ZT_OK(zeCommandQueueDestroy(other));
    zl_close(&f);
}
END_TEST

START_TEST(test_pool_destroyed_with_live_events_refused)
{
    zt_env_t env;
    zt_open(&env);
    ze_event_pool_handle_t pool = zt_event_pool(&env, 4, 0);
    ze_event_handle_t a = zt_event(pool, 0), b = zt_event(pool, 1);
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, zeEventPoolDestroy(pool));
    zl_assert_one_finding(mark, "ZEIL-E030", "zeEventPoolDestroy", "still has 2 live events", NULL);
    /* The pool is still there: its events work. */
    ZT_OK(zeEventHostSignal(a));
    ck_assert(zl_signalled(a));
    ZT_OK(zeEventDestroy(a));
    ZT_OK(zeEventDestroy(b));
    ZT_OK(zeEventPoolDestroy(pool));
    zt_close(&env);
}
END_TEST

/* Regular lists signal when they run: two built up front that signal one
 * event, run alternately with a host reset between runs, are correct; run
 * twice without a reset, the second run is W031. */
START_TEST(test_regular_list_signals_judged_when_run)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_command_queue_handle_t queue = zt_queue(&f.env, 1);
    ze_command_list_handle_t lists[2] = {zt_regular_list(&f.env), zt_regular_list(&f.env)};
    ze_event_handle_t ev = f.event[0];
    size_t mark = zl_log_mark();
    for (int i = 0; i < 2; i++) {
        ZT_OK(zeCommandListAppendBarrier(lists[i], ev, 0, NULL));
        ZT_OK(zeCommandListClose(lists[i]));
    }
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < 2; i++) {
            ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &lists[i], NULL));
            ZT_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));
            ck_assert(zl_signalled(ev));
            ZT_OK(zeEventHostReset(ev));
        }
    zl_assert_silent(mark);
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &lists[0], NULL));
    ZT_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    char text[64];
    snprintf(text, sizeof text, "of command list %p", (void *)lists[1]);
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &lists[1], NULL));
    zl_assert_one_finding(mark, "ZEIL-W031", "zeCommandQueueExecuteCommandLists", text,
                          "and not reset since", NULL);
    ZT_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    ZT_OK(zeCommandListDestroy(lists[0]));
    ZT_OK(zeCommandListDestroy(lists[1]));
    ZT_OK(zeCommandQueueDestroy(queue));
    zl_close(&f);
}
END_TEST

START_TEST(test_second_signal_without_reset_warned)
{
    zl_fixture_t f;
    zl_open(&f);
    uint64_t first = zeil_call_number() + 1;
    ZT_OK(zeCommandListAppendBarrier(f.list, f.event[0], 0, NULL));
    char text[96];
    snprintf(text, sizeof text, "was already signalled by call #%llu and not reset since",
             (unsigned long long)first);
    size_t mark = zl_log_mark();
    ZT_OK(zeCommandListAppendBarrier(f.list, f.event[0], 0, NULL));
    zl_assert_one_finding(mark, "ZEIL-W031", "zeCommandListAppendBarrier", text, NULL);
    ZT_OK(zeEventHostReset(f.event[0]));
    mark = zl_log_mark();
    ZT_OK(zeCommandListAppendBarrier(f.list, f.event[0], 0, NULL));
    zl_assert_silent(mark);
    zl_close(&f);
}
END_TEST

START_TEST(test_launch_with_unset_argument_refused)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_STAMP);
    ZT_OK(zeKernelSetGroupSize(k, 1, 1, 1));
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandListAppendLaunchKernel(f.list, k, &one_group, f.event[0], 0, NULL));
    zl_assert_one_finding(mark, "ZEIL-E041", "zeCommandListAppendLaunchKernel", "kernel 'stamp'",
                          "argument 0 of 1 never set", NULL);
    ck_assert(!zl_signalled(f.event[0]));
    uint64_t *stamp = zt_usm_alloc(&f.env, ZT_USM_HOST, sizeof *stamp, 0);
    ZT_ARG(k, 0, stamp);
    ZT_OK(zeCommandListAppendLaunchKernel(f.list, k, &one_group, f.event[0], 0, NULL));
    ck_assert(zl_signalled(f.event[0]));
    ZT_OK(zeMemFree(f.env.context, stamp));
    ZT_OK(zeKernelDestroy(k));
    zl_close(&f);
}
END_TEST

START_TEST(test_context_destroyed_with_children_warned)
{
    zt_env_t env;
    zt_open(&env);
    ze_command_list_handle_t list = zt_immediate_list(&env, 1);
    (void)list;
    (void)zt_usm_alloc(&env, ZT_USM_HOST, 100, 0);
    size_t mark = zl_log_mark();
    ZT_OK(zeContextDestroy(env.context));
    zl_assert_one_finding(mark, "ZEIL-W050", "zeContextDestroy",
                          "still has 1 allocations (100 bytes), 1 command list alive", NULL);
    zeil_handle_info_t info;
    ck_assert(zeil_lookup_handle(env.context, &info));
    ck_assert_int_eq(info.alive, 0);
}
END_TEST

START_TEST(test_module_destroyed_with_kernels_warned)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = zt_load_test_module(&env);
    ze_kernel_handle_t a = zt_kernel(module, TK_STAMP), b = zt_kernel(module, TK_SPIN);
    size_t mark = zl_log_mark();
    ZT_OK(zeModuleDestroy(module));
    zl_assert_one_finding(mark, "ZEIL-W051", "zeModuleDestroy", "still has 2 live kernels", NULL);
    (void)a;
    (void)b;
    zt_close(&env);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("layer_rules_lists");
    TCase *tc = tcase_create("lists");
    tcase_add_test(tc, test_append_to_closed_list_refused);
    tcase_add_test(tc, test_execute_of_open_list_refused);
    tcase_add_test(tc, test_execute_of_immediate_list_refused);
    tcase_add_test(tc, test_fence_of_other_queue_refused);
    tcase_add_test(tc, test_pool_destroyed_with_live_events_refused);
    tcase_add_test(tc, test_second_signal_without_reset_warned);
    tcase_add_test(tc, test_regular_list_signals_judged_when_run);
    tcase_add_test(tc, test_launch_with_unset_argument_refused);
    tcase_add_test(tc, test_context_destroyed_with_children_warned);
    tcase_add_test(tc, test_module_destroyed_with_kernels_warned);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
