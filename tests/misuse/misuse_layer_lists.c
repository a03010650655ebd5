/*
 * Misuse of command lists, queues, events and lifetimes (layer rules
 * E020-E041, W031, W050-W060). Observables: refused work never runs (its
 * event stays unsignalled, its kernel never stamps), refused destroys leave
 * the object working; warnings let the call through.
 */
#include "misuse.h"
#include "test_kernels.h"

#include <zeil/zeil.h>

#include <stdlib.h>

static void append_to_closed_list(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_command_list_handle_t list = zt_regular_list(&f.env);
    ZT_OK(zeCommandListClose(list));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandListAppendBarrier(list, f.event[0], 0, NULL));
    ze_command_queue_handle_t queue = zt_queue(&f.env, 1);
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL));
    ck_assert(!zl_signalled(f.event[0])); /* the barrier is not in the list */
}

static void launch_on_closed_list(void)
{
    zl_fixture_t f;
    zl_open(&f);
    uint64_t *stamp;
    ze_kernel_handle_t k = misuse_stamp_kernel(&f, &stamp);
    ze_command_list_handle_t list = zt_regular_list(&f.env);
    ZT_OK(zeCommandListClose(list));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandListAppendLaunchKernel(list, k, &misuse_one_group, NULL, 0, NULL));
    ze_command_queue_handle_t queue = zt_queue(&f.env, 1);
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL));
    ck_assert_uint_eq(*stamp, 0);
}

static void execute_open_list(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_command_list_handle_t list = zt_regular_list(&f.env);
    ZT_OK(zeCommandListAppendSignalEvent(list, f.event[0]));
    ze_command_queue_handle_t queue = zt_queue(&f.env, 1);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL));
    ck_assert(!zl_signalled(f.event[0]));
    ZT_OK(zeCommandListClose(list)); /* the list is still open, so closing works */
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL));
    ck_assert(zl_signalled(f.event[0]));
}

static void execute_immediate_list(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_command_queue_handle_t queue = zt_queue(&f.env, 1);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandQueueExecuteCommandLists(queue, 1, &f.list, NULL));
    misuse_assert_list_works(f.list, f.event[1]);
}

static void execute_list_of_other_device(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_device_handle_t devices[2];
    uint32_t n = 2;
    ZT_OK(zeDeviceGet(f.env.driver, &n, devices));
    ck_assert_uint_eq(n, 2);
    zt_env_t first = f.env, second = f.env;
    first.device = devices[0];
    second.device = devices[1];
    ze_command_queue_handle_t queue = zt_queue(&first, 1);
    ze_command_list_handle_t list = zt_regular_list(&second);
    ZT_OK(zeCommandListAppendSignalEvent(list, f.event[0]));
    ZT_OK(zeCommandListClose(list));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE,
              zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL));
    ZT_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    ck_assert(!zl_signalled(f.event[0]));
}

static void fence_of_other_queue(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_command_queue_handle_t queue = zt_queue(&f.env, 1), other = zt_queue(&f.env, 1);
    ze_fence_handle_t fence = zt_fence(other);
    ze_command_list_handle_t list = zt_regular_list(&f.env);
    ZT_OK(zeCommandListAppendSignalEvent(list, f.event[0]));
    ZT_OK(zeCommandListClose(list));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandQueueExecuteCommandLists(queue, 1, &list, fence));
    ck_assert(!zl_signalled(f.event[0]));
    ck_assert_int_eq(zeFenceQueryStatus(fence), ZE_RESULT_NOT_READY);
}

static void pool_destroyed_with_live_events(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ZT_RESULT(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, zeEventPoolDestroy(f.pool));
    ZT_OK(zeEventHostSignal(f.event[2])); /* the pool's memory is still there */
    ck_assert(zl_signalled(f.event[2]));
}

static void second_signal_without_reset(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ZT_OK(zeCommandListAppendBarrier(f.list, f.event[0], 0, NULL));
    ZT_OK(zeCommandListAppendBarrier(f.list, f.event[0], 0, NULL));
    ck_assert(zl_signalled(f.event[0]));
}

static void launch_with_unset_argument(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_STAMP);
    ZT_OK(zeKernelSetGroupSize(k, 1, 1, 1));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandListAppendLaunchKernel(f.list, k, &misuse_one_group, f.event[0], 0, NULL));
    ck_assert(!zl_signalled(f.event[0])); /* the kernel never ran with a garbage pointer */
}

static void context_destroyed_with_children(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_context_handle_t other = misuse_other_context(&f);
    zt_env_t env = f.env;
    env.context = other;
    zt_immediate_list(&env, 1);
    zt_usm_alloc(&env, ZT_USM_HOST, 64, 0);
    ZT_OK(zeContextDestroy(other));
}

static void module_destroyed_with_kernels(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_module_handle_t module = zt_load_test_module(&f.env);
    zt_kernel(module, TK_STAMP);
    ZT_OK(zeModuleDestroy(module));
}

static void leaks_at_exit(void)
{
    zl_fixture_t f;
    zl_open(&f);
    zt_usm_alloc(&f.env, ZT_USM_HOST, 4096, 0);
    zt_regular_list(&f.env);
    /* exit without destroying anything: the report comes from atexit */
}

/* The application points the loader straight at the driver after zeil's
 * bootstrap chose the shims: zeil must say at exit that it wrapped nothing. */
static void loader_bypasses_zeil(void)
{
    const char *driver = getenv("ZEIL_BOOTSTRAP_NEXT");
    ck_assert_ptr_nonnull(driver);
    setenv("ZE_ENABLE_ALT_DRIVERS", driver, 1);
    zt_env_t env;
    zt_open(&env);
    ck_assert(!zeil_is_active());
    zt_close(&env);
}

static const misuse_case_t cases[] = {
    {"append_to_closed_list", "ZEIL-E020", append_to_closed_list, NULL},
    {"launch_on_closed_list", "ZEIL-E020", launch_on_closed_list, NULL},
    {"execute_open_list", "ZEIL-E021", execute_open_list, NULL},
    {"execute_immediate_list", "ZEIL-E022", execute_immediate_list, NULL},
    {"execute_list_of_other_device", "ZEIL-E023", execute_list_of_other_device, NULL},
    {"fence_of_other_queue", "ZEIL-E024", fence_of_other_queue, NULL},
    {"pool_destroyed_with_live_events", "ZEIL-E030", pool_destroyed_with_live_events, NULL},
    {"second_signal_without_reset", "ZEIL-W031", second_signal_without_reset, NULL},
    {"launch_with_unset_argument", "ZEIL-E041", launch_with_unset_argument, NULL},
    {"context_destroyed_with_children", "ZEIL-W050", context_destroyed_with_children, NULL},
    {"module_destroyed_with_kernels", "ZEIL-W051", module_destroyed_with_kernels, NULL},
    {"leaks_at_exit", "ZEIL-W052", leaks_at_exit, NULL},
    {"loader_bypasses_zeil", "ZEIL-W060", loader_bypasses_zeil, NULL},
};

misuse_case_list_t misuse_layer_list_cases(void)
{
    return MISUSE_LIST(cases);
}
