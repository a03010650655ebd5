/*
 * Handle rules through the real loader: unknown (E001), destroyed (E002) and
 * wrong-kind (E003) handles, two contexts mixed (E004), devices outside their
 * context or of another device (E005, E023). Each refused call returns its
 * code, writes one line, and never reaches the driver: the launch's signal
 * event stays unsignalled, the allocation is never made.
 * ZEIL_CPU_DEVICES=2 (set by CMake).
 */
#include "zl.h"
#include "test_kernels.h"

#include <zeil/zeil.h>

#include <stdio.h>
#include <string.h>

static const ze_group_count_t one_group = {1, 1, 1};

/* The stamp kernel with its argument set, ready to launch. */
static ze_kernel_handle_t stamp_kernel(ze_module_handle_t module, uint64_t **stamp,
                                       const zt_env_t *env)
{
    ze_kernel_handle_t k = zt_kernel(module, TK_STAMP);
    *stamp = zt_usm_alloc(env, ZT_USM_HOST, sizeof(uint64_t), 0);
    **stamp = 0;
    ZT_ARG(k, 0, *stamp);
    ZT_OK(zeKernelSetGroupSize(k, 1, 1, 1));
    return k;
}

START_TEST(test_unknown_kernel_refused)
{
    zl_fixture_t f;
    zl_open(&f);
    static int not_a_kernel;
    char handle[32];
    snprintf(handle, sizeof handle, "hKernel %p", (void *)&not_a_kernel);
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
              zeCommandListAppendLaunchKernel(f.list, (ze_kernel_handle_t)&not_a_kernel, &one_group,
                                              f.event[0], 0, NULL));
    zl_assert_one_finding(mark, "ZEIL-E001", "zeCommandListAppendLaunchKernel", handle,
                          "is not a handle zeil knows", NULL);
    ck_assert(!zl_signalled(f.event[0]));
    ck_assert_uint_eq(zeil_rule_count("ZEIL-E001"), 1);
    zl_close(&f);
}
END_TEST

START_TEST(test_destroyed_kernel_refused)
{
    zl_fixture_t f;
    zl_open(&f);
    uint64_t *stamp;
    ze_kernel_handle_t k = stamp_kernel(f.module, &stamp, &f.env);
    /* The observable works: a launch that reaches the driver stamps. */
    ZT_OK(zeCommandListAppendLaunchKernel(f.list, k, &one_group, f.event[1], 0, NULL));
    ck_assert(zl_signalled(f.event[1]));
    ck_assert_uint_ne(*stamp, 0);
    *stamp = 0;
    uint64_t before_destroy = zeil_call_number();
    ZT_OK(zeKernelDestroy(k));
    char destroyed[64];
    snprintf(destroyed, sizeof destroyed, "destroyed at call #%llu on thread 1",
             (unsigned long long)before_destroy + 1);
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
              zeCommandListAppendLaunchKernel(f.list, k, &one_group, f.event[0], 0, NULL));
    zl_assert_one_finding(mark, "ZEIL-E002", "zeCommandListAppendLaunchKernel", "was destroyed",
                          "kernel created by zeKernelCreate at call #", destroyed, NULL);
    ck_assert(!zl_signalled(f.event[0]));
    ck_assert_uint_eq(*stamp, 0);
    ZT_OK(zeMemFree(f.env.context, stamp));
    zl_close(&f);
}
END_TEST

START_TEST(test_wrong_kind_refused)
{
    zl_fixture_t f;
    zl_open(&f);
    size_t mark = zl_log_mark();
    /* An event where the kernel belongs. */
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
              zeCommandListAppendLaunchKernel(f.list, (ze_kernel_handle_t)f.event[1], &one_group,
                                              f.event[0], 0, NULL));
    zl_assert_one_finding(mark, "ZEIL-E003", "zeCommandListAppendLaunchKernel",
                          "is an event, not a kernel", NULL);
    ck_assert(!zl_signalled(f.event[0]));
    /* A list where the event belongs. */
    mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeEventHostReset((ze_event_handle_t)f.list));
    zl_assert_one_finding(mark, "ZEIL-E003", "zeEventHostReset", "is a command list, not an event",
                          NULL);
    zl_close(&f);
}
END_TEST

START_TEST(test_destroyed_event_and_fence_refused)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_event_handle_t gone = f.event[7];
    ZT_OK(zeEventDestroy(gone));
    f.event[7] = zt_event(f.pool, 7); /* the fixture destroys what it holds */
    if (f.event[7] == gone)           /* the driver reused the handle: zeil knows it is alive */
        ck_assert_int_eq(zeEventQueryStatus(gone), ZE_RESULT_NOT_READY);
    else {
        size_t mark = zl_log_mark();
        ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeEventQueryStatus(gone));
        zl_assert_one_finding(mark, "ZEIL-E002", "zeEventQueryStatus",
                              "event created by zeEventCreate", NULL);
    }
    ze_command_queue_handle_t queue = zt_queue(&f.env, 1);
    ze_fence_handle_t fence = zt_fence(queue);
    ZT_OK(zeFenceDestroy(fence));
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeFenceQueryStatus(fence));
    zl_assert_one_finding(mark, "ZEIL-E002", "zeFenceQueryStatus", "hFence",
                          "fence created by zeFenceCreate", NULL);
    ZT_OK(zeCommandQueueDestroy(queue));
    mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeCommandQueueSynchronize(queue, 0));
    zl_assert_one_finding(mark, "ZEIL-E002", "zeCommandQueueSynchronize", "was destroyed", NULL);
    zl_close(&f);
}
END_TEST

START_TEST(test_kernel_of_other_context_refused)
{
    zl_fixture_t f;
    zl_open(&f);
    zt_env_t other = f.env;
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ZT_OK(zeContextCreate(f.env.driver, &desc, &other.context));
    ze_module_handle_t module = zt_load_test_module(&other);
    uint64_t *stamp;
    ze_kernel_handle_t k = stamp_kernel(module, &stamp, &other);
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandListAppendLaunchKernel(f.list, k, &one_group, f.event[0], 0, NULL));
    zl_assert_one_finding(mark, "ZEIL-E004", "zeCommandListAppendLaunchKernel",
                          "belongs to context", NULL);
    ck_assert(!zl_signalled(f.event[0]));
    ck_assert_uint_eq(*stamp, 0);
    /* Memory of the other context copied on this context's list. */
    char host[16] = {0};
    mark = zl_log_mark();
    ZT_RESULT(
        ZE_RESULT_ERROR_INVALID_ARGUMENT,
        zeCommandListAppendMemoryCopy(f.list, host, stamp, sizeof *stamp, f.event[0], 0, NULL));
    zl_assert_one_finding(mark, "ZEIL-E004", "zeCommandListAppendMemoryCopy", "srcptr", NULL);
    ck_assert(!zl_signalled(f.event[0]));
    ZT_OK(zeMemFree(other.context, stamp));
    ZT_OK(zeKernelDestroy(k));
    ZT_OK(zeModuleDestroy(module));
    ZT_OK(zeContextDestroy(other.context));
    zl_close(&f);
}
END_TEST

/* USM of a context destroyed since: E004 says the context is gone. */
START_TEST(test_memory_of_destroyed_context_refused)
{
    zl_fixture_t f;
    zl_open(&f);
    zt_env_t other = f.env;
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ZT_OK(zeContextCreate(f.env.driver, &desc, &other.context));
    void *gone = zt_usm_alloc(&other, ZT_USM_DEVICE, 64, 0);
    ZT_OK(zeContextDestroy(other.context));
    char host[64] = {0};
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandListAppendMemoryCopy(f.list, host, gone, sizeof host, f.event[0], 0, NULL));
    zl_assert_one_finding(mark, "ZEIL-E004", "zeCommandListAppendMemoryCopy", "srcptr",
                          "belongs to context", "destroyed", NULL);
    ck_assert(!zl_signalled(f.event[0]));
    zl_close(&f);
}
END_TEST

/* A device handle nothing returned: zeil refuses it before the driver,
 * which would take it for a device. */
START_TEST(test_unknown_device_refused)
{
    zl_fixture_t f;
    zl_open(&f);
    static char not_a_device[256];
    ze_device_properties_t props;
    memset(&props, 0, sizeof props);
    props.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
    char handle[40];
    snprintf(handle, sizeof handle, "hDevice %p", (void *)not_a_device);
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
              zeDeviceGetProperties((ze_device_handle_t)not_a_device, &props));
    zl_assert_one_finding(mark, "ZEIL-E001", "zeDeviceGetProperties", handle,
                          "is not a handle zeil knows", "a device", NULL);
    /* the devices zeDeviceGet returned still pass */
    ZT_OK(zeDeviceGetProperties(f.env.device, &props));
    zl_close(&f);
}
END_TEST

static void two_devices(zt_env_t *env, ze_device_handle_t devices[2])
{
    zt_open(env);
    uint32_t n = 2;
    ZT_OK(zeDeviceGet(env->driver, &n, devices));
    ck_assert_uint_eq(n, 2);
}

START_TEST(test_device_outside_context_refused)
{
    zt_env_t env;
    ze_device_handle_t devices[2];
    two_devices(&env, devices);
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t only_first = NULL;
    ZT_OK(zeContextCreateEx(env.driver, &desc, 1, &devices[0], &only_first));
    ze_device_mem_alloc_desc_t mem = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    void *ptr = NULL;
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeMemAllocDevice(only_first, &mem, 64, 0, devices[1], &ptr));
    zl_assert_one_finding(mark, "ZEIL-E005", "zeMemAllocDevice", "is not a device of context",
                          NULL);
    ck_assert_ptr_null(ptr); /* the driver made no allocation */
    zeil_live_counts_t live;
    zeil_get_live_counts(&live);
    ck_assert_uint_eq(live.allocations, 0);
    ZT_OK(zeMemAllocDevice(only_first, &mem, 64, 0, devices[0], &ptr));
    ZT_OK(zeMemFree(only_first, ptr));
    ZT_OK(zeContextDestroy(only_first));
    zt_close(&env);
}
END_TEST

START_TEST(test_list_of_other_device_refused)
{
    zt_env_t env;
    ze_device_handle_t devices[2];
    two_devices(&env, devices);
    zt_env_t second = env;
    second.device = devices[1];
    env.device = devices[0];
    ze_command_queue_handle_t queue = zt_queue(&env, 1);
    ze_command_list_handle_t list = zt_regular_list(&second);
    ze_event_pool_handle_t pool = zt_event_pool(&env, 1, 0);
    ze_event_handle_t event = zt_event(pool, 0);
    ZT_OK(zeCommandListAppendSignalEvent(list, event));
    ZT_OK(zeCommandListClose(list));
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE,
              zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL));
    zl_assert_one_finding(mark, "ZEIL-E023", "zeCommandQueueExecuteCommandLists",
                          "does not match queue", NULL);
    ZT_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    ck_assert(!zl_signalled(event));
    ZT_OK(zeEventDestroy(event));
    ZT_OK(zeEventPoolDestroy(pool));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeCommandQueueDestroy(queue));
    zt_close(&env);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("layer_rules_handles");
    TCase *tc = tcase_create("handles");
    tcase_add_test(tc, test_unknown_kernel_refused);
    tcase_add_test(tc, test_destroyed_kernel_refused);
    tcase_add_test(tc, test_wrong_kind_refused);
    tcase_add_test(tc, test_destroyed_event_and_fence_refused);
    tcase_add_test(tc, test_kernel_of_other_context_refused);
    tcase_add_test(tc, test_memory_of_destroyed_context_refused);
    tcase_add_test(tc, test_unknown_device_refused);
    tcase_add_test(tc, test_device_outside_context_refused);
    tcase_add_test(tc, test_list_of_other_device_refused);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
