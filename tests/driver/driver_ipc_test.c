/*
 * Interprocess handles: the reference driver announces no IPC
 * (zeDriverGetIpcProperties) and refuses IPC calls with
 * ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, after checking their arguments.
 */
#include "zt.h"

#include <string.h>

START_TEST(no_ipc_announced_and_refused)
{
    zt_env_t env;
    zt_open(&env);
    ze_driver_ipc_properties_t props = {ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES, NULL, 0xff};
    ZT_OK(zeDriverGetIpcProperties(env.driver, &props));
    ck_assert_uint_eq(props.flags & (ZE_IPC_PROPERTY_FLAG_MEMORY | ZE_IPC_PROPERTY_FLAG_EVENT_POOL),
                      0);

    ze_event_pool_handle_t ipc_pool = zt_event_pool(&env, 1, ZE_EVENT_POOL_FLAG_IPC);
    ze_event_pool_handle_t plain_pool = zt_event_pool(&env, 1, 0);
    ze_ipc_event_pool_handle_t handle;
    ZT_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, zeEventPoolGetIpcHandle(ipc_pool, &handle));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventPoolGetIpcHandle(plain_pool, &handle));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeEventPoolGetIpcHandle(ipc_pool, NULL));
    ze_event_pool_handle_t opened = NULL;
    memset(&handle, 0, sizeof handle);
    ZT_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
              zeEventPoolOpenIpcHandle(env.context, handle, &opened));
    ck_assert_ptr_null(opened);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventPoolCloseIpcHandle(ipc_pool));
    ZT_OK(zeEventPoolDestroy(ipc_pool));
    ZT_OK(zeEventPoolDestroy(plain_pool));

    void *usm = zt_usm_alloc(&env, ZT_USM_DEVICE, 256, 0);
    ze_ipc_mem_handle_t mem_handle;
    ZT_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
              zeMemGetIpcHandle(env.context, usm, &mem_handle));
    memset(&mem_handle, 0, sizeof mem_handle);
    void *mapped = NULL;
    ZT_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
              zeMemOpenIpcHandle(env.context, env.device, mem_handle, 0, &mapped));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemCloseIpcHandle(env.context, usm));
    ZT_OK(zeMemFree(env.context, usm));
    zt_close(&env);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("driver_ipc");
    TCase *tc = tcase_create("ipc");
    tcase_add_test(tc, no_ipc_announced_and_refused);
    suite_add_tcase(suite, tc);
    return zt_run_suite(suite);
}
