/*
 * A kernel that faults (a store through a null pointer) loses the device,
 * not the process, as a GPU does: through the loader, on an immediate list
 * (asynchronous: its event; synchronous: the append) and on a queue with a
 * fence, the next
 * synchronization reports ZE_RESULT_ERROR_DEVICE_LOST, the launch's event
 * reports it until reset, and the next launch runs and computes.
 */
#include "zt.h"

#include <stdlib.h>

#define GROUPS 64u
#define NO_FAULT UINT64_MAX

typedef struct fixture {
    zt_env_t env;
    ze_module_handle_t module;
    ze_kernel_handle_t kernel;
    uint32_t *out;
    ze_event_pool_handle_t pool;
    ze_event_handle_t done;
} fixture_t;

static void open_fixture(fixture_t *f)
{
    zt_open(&f->env);
    f->module = zt_load_module_from_env(&f->env, "ZEIL_TEST_FAULT_KERNELS");
    f->kernel = zt_kernel(f->module, "write_null");
    f->out = zt_usm_alloc(&f->env, ZT_USM_SHARED, GROUPS * sizeof *f->out, 0);
    f->pool = zt_event_pool(&f->env, 1, 0);
    f->done = zt_event(f->pool, 0);
}

static void close_fixture(fixture_t *f)
{
    ZT_OK(zeEventDestroy(f->done));
    ZT_OK(zeEventPoolDestroy(f->pool));
    ZT_OK(zeMemFree(f->env.context, f->out));
    ZT_OK(zeKernelDestroy(f->kernel));
    ZT_OK(zeModuleDestroy(f->module));
    zt_close(&f->env);
}

/* Appends a launch in which group bad faults (NO_FAULT: none does). */
static ze_result_t append(fixture_t *f, ze_command_list_handle_t list, uint64_t bad,
                          ze_event_handle_t signal)
{
    for (uint32_t i = 0; i < GROUPS; i++)
        f->out[i] = 0;
    ZT_ARG(f->kernel, 0, f->out);
    ZT_ARG(f->kernel, 1, bad);
    ZT_OK(zeKernelSetGroupSize(f->kernel, 1, 1, 1));
    ze_group_count_t count = {GROUPS, 1, 1};
    return zeCommandListAppendLaunchKernel(list, f->kernel, &count, signal, 0, NULL);
}

static void check_all_groups_ran(const fixture_t *f)
{
    for (uint32_t i = 0; i < GROUPS; i++)
        ck_assert_uint_eq(f->out[i], i + 1);
}

START_TEST(immediate_list_reports_device_lost)
{
    fixture_t f;
    open_fixture(&f);
    ze_command_list_handle_t list = zt_immediate_list(&f.env, 0);
    ZT_OK(append(&f, list, 17, f.done));
    ZT_RESULT(ZE_RESULT_ERROR_DEVICE_LOST, zeEventHostSynchronize(f.done, UINT64_MAX));
    ZT_RESULT(ZE_RESULT_ERROR_DEVICE_LOST, zeEventQueryStatus(f.done));
    /* (zeCommandListHostSynchronize, API 1.6, is not in Debian's loader:
     * the synchronous list below stands for the list's own report) */
    ZT_OK(zeEventHostReset(f.done));
    ZT_OK(zeEventQueryStatus(f.done) == ZE_RESULT_NOT_READY ? ZE_RESULT_SUCCESS
                                                            : ZE_RESULT_ERROR_UNKNOWN);
    ZT_OK(append(&f, list, NO_FAULT, f.done));
    ZT_OK(zeEventHostSynchronize(f.done, UINT64_MAX));
    check_all_groups_ran(&f);
    ZT_OK(zeCommandListDestroy(list));
    close_fixture(&f);
}
END_TEST

START_TEST(synchronous_immediate_list_returns_device_lost)
{
    fixture_t f;
    open_fixture(&f);
    ze_command_list_handle_t list = zt_immediate_list(&f.env, 1);
    ZT_RESULT(ZE_RESULT_ERROR_DEVICE_LOST, append(&f, list, 0, NULL));
    ZT_OK(append(&f, list, NO_FAULT, NULL));
    check_all_groups_ran(&f);
    ZT_OK(zeCommandListDestroy(list));
    close_fixture(&f);
}
END_TEST

START_TEST(queue_and_fence_report_device_lost)
{
    fixture_t f;
    open_fixture(&f);
    ze_command_queue_handle_t queue = zt_queue(&f.env, 0);
    ze_fence_handle_t fence = zt_fence(queue);
    ze_command_list_handle_t bad = zt_regular_list(&f.env);
    ZT_OK(append(&f, bad, GROUPS - 1, NULL));
    ZT_OK(zeCommandListClose(bad));
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &bad, fence));
    ZT_RESULT(ZE_RESULT_ERROR_DEVICE_LOST, zeFenceHostSynchronize(fence, UINT64_MAX));
    ZT_RESULT(ZE_RESULT_ERROR_DEVICE_LOST, zeFenceQueryStatus(fence));
    ZT_RESULT(ZE_RESULT_ERROR_DEVICE_LOST, zeCommandQueueSynchronize(queue, UINT64_MAX));
    ZT_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    /* the next execution runs and computes */
    ze_command_list_handle_t good = zt_regular_list(&f.env);
    ZT_OK(append(&f, good, NO_FAULT, NULL));
    ZT_OK(zeCommandListClose(good));
    ZT_OK(zeFenceReset(fence));
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &good, fence));
    ZT_OK(zeFenceHostSynchronize(fence, UINT64_MAX));
    ZT_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    check_all_groups_ran(&f);
    ZT_OK(zeCommandListDestroy(good));
    ZT_OK(zeCommandListDestroy(bad));
    ZT_OK(zeFenceDestroy(fence));
    ZT_OK(zeCommandQueueDestroy(queue));
    close_fixture(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("driver_fault");
    TCase *tc = tcase_create("fault");
    tcase_add_test(tc, immediate_list_reports_device_lost);
    tcase_add_test(tc, synchronous_immediate_list_returns_device_lost);
    tcase_add_test(tc, queue_and_fence_report_device_lost);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
