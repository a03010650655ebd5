/*
 * Command queues, regular command lists and fences: record, close, execute,
 * fence, reset, re-execute; deferred execution; a regular list waiting on an
 * immediate list's event; synchronous and asynchronous queue modes;
 * timeouts; append to a closed list; the spec's error codes.
 */
#include "zt.h"
#include "test_kernels.h"

#include <time.h>

#define MS (1000u * 1000u) /* nanoseconds */

static const uint32_t one[3] = {1, 1, 1};
static const ze_fence_desc_t fence_desc = {ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, 0};

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000 * 1000};
    nanosleep(&t, NULL);
}

static void append_spin(ze_command_list_handle_t list, ze_kernel_handle_t spin, uint64_t us,
                        uint64_t *finished_ns)
{
    ZT_ARG(spin, 0, us);
    ZT_ARG(spin, 1, finished_ns);
    zt_launch(list, spin, one, one, NULL, 0, NULL);
}

static void fill_u32(ze_command_list_handle_t list, uint32_t *dst, uint32_t value, size_t count)
{
    ZT_OK(zeCommandListAppendMemoryFill(list, dst, &value, sizeof value, count * sizeof value, NULL,
                                        0, NULL));
}

static void expect_u32(const uint32_t *p, uint32_t value, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (p[i] != value)
            ck_abort_msg("element %zu is %x, expected %x", i, p[i], value);
}

START_TEST(test_execute_fence_reset_reexecute)
{
    enum {
        N = 1 << 16
    };
    zt_env_t env;
    zt_open(&env);
    ze_command_queue_handle_t queue = zt_queue(&env, 0);
    ze_fence_handle_t fence = NULL;
    ZT_OK(zeFenceCreate(queue, &fence_desc, &fence));
    ZT_RESULT(ZE_RESULT_NOT_READY, zeFenceQueryStatus(fence));
    uint32_t *src = zt_usm_alloc(&env, ZT_USM_DEVICE, N * 4, 0);
    uint32_t *dst = zt_usm_alloc(&env, ZT_USM_HOST, N * 4, 0);
    ze_command_list_handle_t list = zt_regular_list(&env);
    fill_u32(list, src, 0x11111111u, N);
    ZT_OK(zeCommandListAppendBarrier(list, NULL, 0, NULL));
    ZT_OK(zeCommandListAppendMemoryCopy(list, dst, src, N * 4, NULL, 0, NULL));
    ZT_OK(zeCommandListClose(list));

    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &list, fence));
    ZT_OK(zeFenceHostSynchronize(fence, UINT64_MAX));
    ZT_OK(zeFenceQueryStatus(fence));
    expect_u32(dst, 0x11111111u, N);

    /* The same closed list runs again; the fence must be reset first. */
    ZT_OK(zeFenceReset(fence));
    ZT_RESULT(ZE_RESULT_NOT_READY, zeFenceQueryStatus(fence));
    for (size_t i = 0; i < N; i++)
        dst[i] = 0;
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &list, fence));
    ZT_OK(zeFenceHostSynchronize(fence, UINT64_MAX));
    expect_u32(dst, 0x11111111u, N);

    /* After a reset the list records new commands. */
    ZT_OK(zeCommandListReset(list));
    fill_u32(list, dst, 0x22222222u, N);
    ZT_OK(zeCommandListClose(list));
    ZT_OK(zeFenceReset(fence));
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &list, fence));
    ZT_OK(zeFenceHostSynchronize(fence, UINT64_MAX));
    expect_u32(dst, 0x22222222u, N);

    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeFenceDestroy(fence));
    ZT_OK(zeCommandQueueDestroy(queue));
    ZT_OK(zeMemFree(env.context, src));
    ZT_OK(zeMemFree(env.context, dst));
    zt_close(&env);
}
END_TEST

START_TEST(test_recorded_commands_wait_for_execute)
{
    zt_env_t env;
    zt_open(&env);
    uint32_t *buf = zt_usm_alloc(&env, ZT_USM_SHARED, 4096, 0);
    for (int i = 0; i < 1024; i++)
        buf[i] = 7;
    ze_command_list_handle_t list = zt_regular_list(&env);
    fill_u32(list, buf, 0x33u, 1024);
    ZT_OK(zeCommandListClose(list));
    sleep_ms(20);
    expect_u32(buf, 7, 1024);
    ze_command_queue_handle_t queue = zt_queue(&env, 0);
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL));
    ZT_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    expect_u32(buf, 0x33u, 1024);
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeCommandQueueDestroy(queue));
    ZT_OK(zeMemFree(env.context, buf));
    zt_close(&env);
}
END_TEST

START_TEST(test_lists_run_in_submission_order)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = zt_load_test_module(&env);
    ze_kernel_handle_t spin = zt_kernel(module, TK_SPIN);
    ze_kernel_handle_t stamp = zt_kernel(module, TK_STAMP);
    uint64_t *times = zt_usm_alloc(&env, ZT_USM_SHARED, 2 * sizeof(uint64_t), 8);
    times[0] = times[1] = 0;
    ze_command_list_handle_t lists[2] = {zt_regular_list(&env), zt_regular_list(&env)};
    append_spin(lists[0], spin, 50u * 1000, &times[0]);
    uint64_t *started = &times[1];
    ZT_ARG(stamp, 0, started);
    zt_launch(lists[1], stamp, one, one, NULL, 0, NULL);
    ZT_OK(zeCommandListClose(lists[0]));
    ZT_OK(zeCommandListClose(lists[1]));
    ze_command_queue_handle_t queue = zt_queue(&env, 0);
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 2, lists, NULL));
    ZT_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    ck_assert_uint_ne(times[0], 0);
    ck_assert_uint_ge(times[1], times[0]);
    ZT_OK(zeCommandListDestroy(lists[0]));
    ZT_OK(zeCommandListDestroy(lists[1]));
    ZT_OK(zeCommandQueueDestroy(queue));
    ZT_OK(zeMemFree(env.context, times));
    ZT_OK(zeKernelDestroy(spin));
    ZT_OK(zeKernelDestroy(stamp));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

START_TEST(test_regular_list_waits_on_immediate_list)
{
    /* A regular list executed on a queue waits for an event an immediate
     * list signals after a slow kernel. */
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = zt_load_test_module(&env);
    ze_kernel_handle_t spin = zt_kernel(module, TK_SPIN);
    ze_kernel_handle_t stamp = zt_kernel(module, TK_STAMP);
    ze_event_pool_handle_t pool = zt_event_pool(&env, 1, 0);
    ze_event_handle_t produced = zt_event(pool, 0);
    uint64_t *times = zt_usm_alloc(&env, ZT_USM_SHARED, 2 * sizeof(uint64_t), 8);
    times[0] = times[1] = 0;
    uint64_t *started = &times[1];
    ze_command_list_handle_t consumer = zt_regular_list(&env);
    ZT_ARG(stamp, 0, started);
    zt_launch(consumer, stamp, one, one, NULL, 1, &produced);
    ZT_OK(zeCommandListClose(consumer));
    ze_command_queue_handle_t queue = zt_queue(&env, 0);
    ze_fence_handle_t fence = NULL;
    ZT_OK(zeFenceCreate(queue, &fence_desc, &fence));
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &consumer, fence));
    ZT_RESULT(ZE_RESULT_NOT_READY, zeFenceHostSynchronize(fence, 20 * MS));
    ck_assert_uint_eq(times[1], 0);
    ze_command_list_handle_t producer = zt_immediate_list(&env, 0);
    ZT_ARG(spin, 0, (uint64_t){50u * 1000});
    ZT_ARG(spin, 1, times);
    zt_launch(producer, spin, one, one, produced, 0, NULL);
    ZT_OK(zeFenceHostSynchronize(fence, UINT64_MAX));
    ck_assert_uint_ne(times[0], 0);
    ck_assert_uint_ge(times[1], times[0]);
    ZT_OK(zeCommandListDestroy(producer));
    ZT_OK(zeFenceDestroy(fence));
    ZT_OK(zeCommandQueueDestroy(queue));
    ZT_OK(zeCommandListDestroy(consumer));
    ZT_OK(zeMemFree(env.context, times));
    ZT_OK(zeEventDestroy(produced));
    ZT_OK(zeEventPoolDestroy(pool));
    ZT_OK(zeKernelDestroy(spin));
    ZT_OK(zeKernelDestroy(stamp));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

/* _i = 0: asynchronous queue, 1: synchronous queue. */
START_TEST(test_queue_modes_and_timeouts)
{
    int sync = _i;
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = zt_load_test_module(&env);
    ze_kernel_handle_t spin = zt_kernel(module, TK_SPIN);
    uint64_t *finished = zt_usm_alloc(&env, ZT_USM_SHARED, sizeof(uint64_t), 8);
    *finished = 0;
    ze_command_list_handle_t list = zt_regular_list(&env);
    append_spin(list, spin, 400u * 1000, finished);
    ZT_OK(zeCommandListClose(list));
    ze_command_queue_handle_t queue = zt_queue(&env, sync);
    ze_fence_handle_t fence = NULL;
    ZT_OK(zeFenceCreate(queue, &fence_desc, &fence));

    uint64_t start = zt_now_ns();
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &list, fence));
    uint64_t returned = zt_now_ns() - start;
    if (sync) {
        ck_assert_uint_ge(returned, 400 * MS);
        ck_assert_uint_ne(*finished, 0);
        ZT_OK(zeFenceQueryStatus(fence));
        ZT_OK(zeCommandQueueSynchronize(queue, 0));
    } else {
        /* Not signalled yet: execute did not wait for the 400 ms kernel. */
        ZT_RESULT(ZE_RESULT_NOT_READY, zeFenceQueryStatus(fence));
        ZT_RESULT(ZE_RESULT_NOT_READY, zeFenceHostSynchronize(fence, 0));
        ZT_RESULT(ZE_RESULT_NOT_READY, zeFenceHostSynchronize(fence, 5 * MS));
        ZT_RESULT(ZE_RESULT_NOT_READY, zeCommandQueueSynchronize(queue, 0));
        ZT_RESULT(ZE_RESULT_NOT_READY, zeCommandQueueSynchronize(queue, 5 * MS));
        /* Timeouts within the driver's polling budget (20 us) are waited in full too. */
        uint64_t polled = zt_now_ns();
        ZT_RESULT(ZE_RESULT_NOT_READY, zeFenceHostSynchronize(fence, 10000));
        ck_assert_uint_ge(zt_now_ns() - polled, 10000);
        polled = zt_now_ns();
        ZT_RESULT(ZE_RESULT_NOT_READY, zeCommandQueueSynchronize(queue, 10000));
        ck_assert_uint_ge(zt_now_ns() - polled, 10000);
        ZT_OK(zeFenceHostSynchronize(fence, UINT64_MAX));
        ck_assert_uint_ge(zt_now_ns() - start, 400 * MS);
        ck_assert_uint_ne(*finished, 0);
        ZT_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    }
    ZT_OK(zeFenceDestroy(fence));
    ZT_OK(zeCommandQueueDestroy(queue));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeMemFree(env.context, finished));
    ZT_OK(zeKernelDestroy(spin));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

START_TEST(test_append_to_closed_list)
{
    /* The specification names no result for appending to a closed list, but
     * a closed list is "ready to be executed": an append must not silently
     * change what it runs. So the suite requires a refusal (any error code),
     * and executing the list runs exactly what was recorded before close. */
    zt_env_t env;
    zt_open(&env);
    uint32_t *buf = zt_usm_alloc(&env, ZT_USM_SHARED, 2 * 1024 * 4, 0);
    for (int i = 0; i < 2048; i++)
        buf[i] = 0;
    ze_command_list_handle_t list = zt_regular_list(&env);
    fill_u32(list, buf, 0x44u, 1024);
    ZT_OK(zeCommandListClose(list));
    uint32_t late = 0x55u;
    ze_result_t r = zeCommandListAppendMemoryFill(list, buf + 1024, &late, sizeof late, 1024 * 4,
                                                  NULL, 0, NULL);
    ck_assert_msg(r != ZE_RESULT_SUCCESS, "append to a closed list succeeded");
    ze_command_queue_handle_t queue = zt_queue(&env, 0);
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL));
    ZT_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    expect_u32(buf, 0x44u, 1024);
    expect_u32(buf + 1024, 0, 1024);
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeCommandQueueDestroy(queue));
    ZT_OK(zeMemFree(env.context, buf));
    zt_close(&env);
}
END_TEST

START_TEST(test_bad_arguments_refused)
{
    zt_env_t env;
    zt_open(&env);
    ze_command_queue_handle_t queue = NULL;
    ze_command_queue_desc_t desc = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_DEFAULT,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeCommandQueueCreate(env.context, env.device, NULL, &queue));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeCommandQueueCreate(env.context, env.device, &desc, NULL));
    desc.priority = (ze_command_queue_priority_t)9;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ENUMERATION,
              zeCommandQueueCreate(env.context, env.device, &desc, &queue));
    ze_command_list_handle_t list = NULL;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeCommandListCreate(env.context, env.device, NULL, &list));
    ze_command_list_desc_t list_desc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0, 0};
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeCommandListCreate(env.context, env.device, &list_desc, NULL));

    queue = zt_queue(&env, 0);
    list = zt_regular_list(&env);
    ZT_OK(zeCommandListClose(list));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_SIZE,
              zeCommandQueueExecuteCommandLists(queue, 0, &list, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeCommandQueueExecuteCommandLists(queue, 1, NULL, NULL));
    ze_fence_handle_t fence = NULL;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeFenceCreate(queue, NULL, &fence));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeFenceCreate(queue, &fence_desc, NULL));
    /* An immediate list is not something a queue executes. */
    ze_command_list_handle_t immediate = zt_immediate_list(&env, 0);
    ze_result_t r = zeCommandQueueExecuteCommandLists(queue, 1, &immediate, NULL);
    ck_assert_msg(r != ZE_RESULT_SUCCESS, "a queue executed an immediate list");
    ZT_OK(zeCommandListDestroy(immediate));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeCommandQueueDestroy(queue));
    zt_close(&env);
}
END_TEST

/* The in-order flags of newer headers (ZE_BIT(1) for queues and immediate
 * lists, ZE_BIT(3) for regular lists) are accepted; unknown bits are not. */
START_TEST(test_in_order_flags_accepted)
{
    zt_env_t env;
    zt_open(&env);
    ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                    NULL,
                                    0,
                                    0,
                                    ZE_BIT(1),
                                    ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                    ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_queue_handle_t queue = NULL;
    ZT_OK(zeCommandQueueCreate(env.context, env.device, &desc, &queue));
    ze_command_list_handle_t immediate = NULL;
    ZT_OK(zeCommandListCreateImmediate(env.context, env.device, &desc, &immediate));
    ze_command_list_desc_t list_desc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0, ZE_BIT(3)};
    ze_command_list_handle_t list = NULL;
    ZT_OK(zeCommandListCreate(env.context, env.device, &list_desc, &list));
    ZT_OK(zeCommandListClose(list));
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL));
    ZT_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));

    ze_command_list_handle_t refused = NULL;
    ze_command_queue_handle_t refused_queue = NULL;
    desc.flags = ZE_BIT(5);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ENUMERATION,
              zeCommandListCreateImmediate(env.context, env.device, &desc, &refused));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ENUMERATION,
              zeCommandQueueCreate(env.context, env.device, &desc, &refused_queue));
    list_desc.flags = ZE_BIT(6);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ENUMERATION,
              zeCommandListCreate(env.context, env.device, &list_desc, &refused));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeCommandListDestroy(immediate));
    ZT_OK(zeCommandQueueDestroy(queue));
    zt_close(&env);
}
END_TEST

static Suite *queue_suite(void)
{
    Suite *s = suite_create("driver_queue");
    TCase *tc = tcase_create("queue");
    tcase_add_test(tc, test_execute_fence_reset_reexecute);
    tcase_add_test(tc, test_recorded_commands_wait_for_execute);
    tcase_add_test(tc, test_lists_run_in_submission_order);
    tcase_add_test(tc, test_regular_list_waits_on_immediate_list);
    tcase_add_loop_test(tc, test_queue_modes_and_timeouts, 0, 2);
    tcase_add_test(tc, test_append_to_closed_list);
    tcase_add_test(tc, test_bad_arguments_refused);
    tcase_add_test(tc, test_in_order_flags_accepted);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return zt_run_suite(queue_suite());
}
