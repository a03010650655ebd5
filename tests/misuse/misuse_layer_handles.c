/*
 * Misuse of handles (layer rules E001-E005): unknown, destroyed, wrong kind,
 * two contexts, a device outside its context. Observables: the launch's
 * signal event stays unsignalled and its kernel never stamps, the list still
 * takes work, no allocation is made.
 */
#include "misuse.h"
#include "test_kernels.h"

#include <zeil/zeil.h>

static int not_a_handle[16];

static void unknown_kernel_launch(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
              zeCommandListAppendLaunchKernel(f.list, (ze_kernel_handle_t)not_a_handle,
                                              &misuse_one_group, f.event[0], 0, NULL));
    ck_assert(!zl_signalled(f.event[0]));
    misuse_assert_list_works(f.list, f.event[1]);
}

static void unknown_event_signal(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
              zeEventHostSignal((ze_event_handle_t)not_a_handle));
    ck_assert_int_eq(not_a_handle[0], 0); /* the driver did not write into it */
}

static void unknown_list_append(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
              zeCommandListAppendSignalEvent((ze_command_list_handle_t)not_a_handle, f.event[0]));
    ck_assert(!zl_signalled(f.event[0]));
}

static void destroyed_kernel_launch(void)
{
    zl_fixture_t f;
    zl_open(&f);
    uint64_t *stamp;
    ze_kernel_handle_t k = misuse_stamp_kernel(&f, &stamp);
    ZT_OK(zeKernelDestroy(k));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
              zeCommandListAppendLaunchKernel(f.list, k, &misuse_one_group, f.event[0], 0, NULL));
    ck_assert(!zl_signalled(f.event[0]));
    ck_assert_uint_eq(*stamp, 0);
}

static void destroyed_event_signal(void)
{
    zl_fixture_t f;
    zl_open(&f);
    /* Used first, so that it is the thread's last live event (checks.h
     * remembers it): the destroy must still reach the next check. */
    ZT_OK(zeEventHostSignal(f.event[7]));
    ZT_OK(zeEventHostReset(f.event[7]));
    ZT_OK(zeEventDestroy(f.event[7]));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeEventHostSignal(f.event[7]));
    misuse_assert_list_works(f.list, f.event[1]);
}

static void destroyed_list_append(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_command_list_handle_t list = zt_immediate_list(&f.env, 1);
    ZT_OK(zeCommandListDestroy(list));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
              zeCommandListAppendSignalEvent(list, f.event[0]));
    ck_assert(!zl_signalled(f.event[0]));
}

static void destroyed_fence_query(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_command_queue_handle_t queue = zt_queue(&f.env, 1);
    ze_fence_handle_t fence = zt_fence(queue);
    ZT_OK(zeFenceDestroy(fence));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeFenceQueryStatus(fence));
    ZT_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));
}

static void destroyed_queue_synchronize(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_command_queue_handle_t queue = zt_queue(&f.env, 1);
    ZT_OK(zeCommandQueueDestroy(queue));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeCommandQueueSynchronize(queue, 0));
}

static void destroyed_module_kernel_create(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_module_handle_t module = zt_load_test_module(&f.env);
    ZT_OK(zeModuleDestroy(module));
    ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, TK_STAMP};
    ze_kernel_handle_t kernel = NULL;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeKernelCreate(module, &desc, &kernel));
    ck_assert_ptr_null(kernel);
}

static void destroyed_event_in_wait_list(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_event_handle_t gone = f.event[7];
    ZT_OK(zeEventDestroy(gone));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
              zeCommandListAppendBarrier(f.list, f.event[1], 1, &gone));
    ck_assert(!zl_signalled(f.event[1]));
}

static void event_as_kernel(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
              zeCommandListAppendLaunchKernel(f.list, (ze_kernel_handle_t)f.event[1],
                                              &misuse_one_group, f.event[0], 0, NULL));
    ck_assert(!zl_signalled(f.event[0]));
    ck_assert(!zl_signalled(f.event[1]));
}

static void list_as_event(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeEventHostReset((ze_event_handle_t)f.list));
    misuse_assert_list_works(f.list, f.event[1]);
}

static void module_as_kernel_argument_target(void)
{
    zl_fixture_t f;
    zl_open(&f);
    uint64_t value = 0;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
              zeKernelSetArgumentValue((ze_kernel_handle_t)f.module, 0, sizeof value, &value));
    ze_kernel_handle_t k = zt_kernel(f.module, TK_STAMP); /* the module is intact */
    ZT_OK(zeKernelDestroy(k));
}

static void kernel_of_other_context(void)
{
    zl_fixture_t f;
    zl_open(&f);
    zt_env_t other = f.env;
    other.context = misuse_other_context(&f);
    ze_command_list_handle_t list = zt_immediate_list(&other, 1);
    uint64_t *stamp;
    ze_kernel_handle_t k = misuse_stamp_kernel(&f, &stamp);
    ze_event_pool_handle_t pool = zt_event_pool(&other, 1, 0);
    ze_event_handle_t event = zt_event(pool, 0);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandListAppendLaunchKernel(list, k, &misuse_one_group, event, 0, NULL));
    ck_assert(!zl_signalled(event));
    ck_assert_uint_eq(*stamp, 0);
}

static void copy_from_other_context(void)
{
    zl_fixture_t f;
    zl_open(&f);
    zt_env_t other = f.env;
    other.context = misuse_other_context(&f);
    uint8_t *theirs = zt_usm_alloc(&other, ZT_USM_HOST, 64, 0);
    uint8_t *ours = zt_usm_alloc(&f.env, ZT_USM_HOST, 64, 0);
    for (int i = 0; i < 64; i++)
        theirs[i] = 7, ours[i] = 0;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandListAppendMemoryCopy(f.list, ours, theirs, 64, f.event[0], 0, NULL));
    ck_assert(!zl_signalled(f.event[0]));
    ck_assert_uint_eq(ours[63], 0);
}

static void signal_event_of_other_context(void)
{
    zl_fixture_t f;
    zl_open(&f);
    zt_env_t other = f.env;
    other.context = misuse_other_context(&f);
    ze_event_pool_handle_t pool = zt_event_pool(&other, 1, 0);
    ze_event_handle_t event = zt_event(pool, 0);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeCommandListAppendSignalEvent(f.list, event));
    ck_assert(!zl_signalled(event));
}

static void device_outside_context(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_device_handle_t devices[2];
    uint32_t n = 2;
    ZT_OK(zeDeviceGet(f.env.driver, &n, devices));
    ck_assert_uint_eq(n, 2);
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t only_first;
    ZT_OK(zeContextCreateEx(f.env.driver, &desc, 1, &devices[0], &only_first));
    ze_device_mem_alloc_desc_t mem = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    void *ptr = NULL;
    zeil_live_counts_t before, after;
    zeil_get_live_counts(&before);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeMemAllocDevice(only_first, &mem, 64, 0, devices[1], &ptr));
    ck_assert_ptr_null(ptr);
    zeil_get_live_counts(&after);
    ck_assert_uint_eq(after.allocations, before.allocations);
}

static const misuse_case_t cases[] = {
    {"unknown_kernel_launch", "ZEIL-E001", unknown_kernel_launch, NULL},
    {"unknown_event_signal", "ZEIL-E001", unknown_event_signal, NULL},
    {"unknown_list_append", "ZEIL-E001", unknown_list_append, NULL},
    {"destroyed_kernel_launch", "ZEIL-E002", destroyed_kernel_launch, NULL},
    {"destroyed_event_signal", "ZEIL-E002", destroyed_event_signal, NULL},
    {"destroyed_list_append", "ZEIL-E002", destroyed_list_append, NULL},
    {"destroyed_fence_query", "ZEIL-E002", destroyed_fence_query, NULL},
    {"destroyed_queue_synchronize", "ZEIL-E002", destroyed_queue_synchronize, NULL},
    {"destroyed_module_kernel_create", "ZEIL-E002", destroyed_module_kernel_create, NULL},
    {"destroyed_event_in_wait_list", "ZEIL-E002", destroyed_event_in_wait_list, NULL},
    {"event_as_kernel", "ZEIL-E003", event_as_kernel, NULL},
    {"list_as_event", "ZEIL-E003", list_as_event, NULL},
    {"module_as_kernel", "ZEIL-E003", module_as_kernel_argument_target, NULL},
    {"kernel_of_other_context", "ZEIL-E004", kernel_of_other_context, NULL},
    {"copy_from_other_context", "ZEIL-E004", copy_from_other_context, NULL},
    {"signal_event_of_other_context", "ZEIL-E004", signal_event_of_other_context, NULL},
    {"device_outside_context", "ZEIL-E005", device_outside_context, NULL},
};

misuse_case_list_t misuse_layer_handle_cases(void)
{
    return MISUSE_LIST(cases);
}
