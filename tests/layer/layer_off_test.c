/*
 * Off means off: ZE_ENABLE_LAYERS unset (zeil_add_suite's clean environment)
 * with libzeil.so linked. zeil changes no environment, wraps nothing, knows
 * nothing and counts nothing, while the application runs on the driver.
 */
#include "zl.h"

#include <zeil/zeil.h>

#include <stdlib.h>

START_TEST(test_nothing_changed_or_known)
{
    ck_assert_ptr_null(getenv("ZE_ENABLE_LAYERS"));
    ck_assert_str_eq(getenv("ZE_ENABLE_ALT_DRIVERS"), getenv("ZEIL_TEST_REFERENCE_DRIVER"));
    ck_assert_ptr_null(getenv("ZEIL_BOOTSTRAP_SHIMS"));
    ck_assert_ptr_null(getenv("ZEIL_BOOTSTRAP_NEXT"));
    zt_env_t env;
    zt_open(&env);
    ck_assert_int_eq(zeil_is_enabled(), 0);
    ck_assert_int_eq(zeil_is_active(), 0);
    zeil_handle_info_t info;
    ck_assert_int_eq(zeil_lookup_handle(env.driver, &info), 0);
    ck_assert_int_eq(zeil_lookup_handle(env.context, &info), 0);
    ze_command_list_handle_t list = zt_immediate_list(&env, 1);
    void *ptr = zt_usm_alloc(&env, ZT_USM_HOST, 64, 0);
    ck_assert_int_eq(zeil_lookup_pointer(ptr, NULL), 0);
    ck_assert_int_eq(zeil_bind_list_to_stream(list, 5, "s"), -1);
    /* Misuse is the driver's alone to judge. */
    ze_command_queue_handle_t queue = zt_queue(&env, 1);
    ck_assert_int_ne(zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL), ZE_RESULT_SUCCESS);
    ck_assert_uint_eq(zeil_error_count(), 0);
    ck_assert_uint_eq(zeil_call_number(), 0);
    ck_assert_uint_eq(zeil_submission_count(list), 0);
    zeil_live_counts_t live;
    zeil_get_live_counts(&live);
    ck_assert_uint_eq(live.allocations, 0);
    ck_assert_uint_eq(live.handles[ZEIL_KIND_CONTEXT], 0);
    ZT_OK(zeMemFree(env.context, ptr));
    ZT_OK(zeCommandQueueDestroy(queue));
    ZT_OK(zeCommandListDestroy(list));
    zt_close(&env);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("layer_off");
    TCase *tc = tcase_create("off");
    tcase_add_test(tc, test_nothing_changed_or_known);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
