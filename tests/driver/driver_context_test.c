/*
 * Contexts: plain and with an explicit device list, status, independence of
 * two contexts, and the spec's answers to null arguments.
 */
#include "zt.h"

static const ze_context_desc_t context_desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};

START_TEST(test_create_status_destroy)
{
    zt_env_t env;
    zt_open(&env);
    ck_assert_ptr_nonnull(env.context);
    ZT_OK(zeContextGetStatus(env.context));
    zt_close(&env);
}
END_TEST

START_TEST(test_two_contexts_are_distinct)
{
    zt_env_t env;
    zt_open(&env);
    ze_context_handle_t other = NULL;
    ZT_OK(zeContextCreate(env.driver, &context_desc, &other));
    ck_assert_ptr_nonnull(other);
    ck_assert_ptr_ne(other, env.context);
    /* Destroying one leaves the other working. */
    ZT_OK(zeContextDestroy(other));
    ZT_OK(zeContextGetStatus(env.context));
    void *ptr = zt_usm_alloc(&env, ZT_USM_HOST, 64, 0);
    ZT_OK(zeMemFree(env.context, ptr));
    zt_close(&env);
}
END_TEST

START_TEST(test_create_ex_with_device_list)
{
    zt_env_t env;
    zt_open(&env);
    ze_context_handle_t ctx = NULL;
    ZT_OK(zeContextCreateEx(env.driver, &context_desc, 1, &env.device, &ctx));
    ck_assert_ptr_nonnull(ctx);
    ZT_OK(zeContextGetStatus(ctx));
    zt_env_t ex = {env.driver, env.device, ctx};
    void *ptr = zt_usm_alloc(&ex, ZT_USM_DEVICE, 4096, 0);
    ze_command_list_handle_t list = zt_immediate_list(&ex, 1);
    uint8_t pattern = 0x5a;
    ZT_OK(zeCommandListAppendMemoryFill(list, ptr, &pattern, 1, 4096, NULL, 0, NULL));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeMemFree(ctx, ptr));
    ZT_OK(zeContextDestroy(ctx));
    zt_close(&env);
}
END_TEST

START_TEST(test_create_ex_without_devices_means_all)
{
    zt_env_t env;
    zt_open(&env);
    ze_context_handle_t ctx = NULL;
    ZT_OK(zeContextCreateEx(env.driver, &context_desc, 0, NULL, &ctx));
    ck_assert_ptr_nonnull(ctx);
    zt_env_t ex = {env.driver, env.device, ctx};
    void *ptr = zt_usm_alloc(&ex, ZT_USM_SHARED, 4096, 0);
    ZT_OK(zeMemFree(ctx, ptr));
    ZT_OK(zeContextDestroy(ctx));
    zt_close(&env);
}
END_TEST

START_TEST(test_null_arguments_refused)
{
    zt_env_t env;
    zt_open(&env);
    ze_context_handle_t ctx = NULL;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeContextCreate(env.driver, NULL, &ctx));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeContextCreate(env.driver, &context_desc, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeContextCreateEx(env.driver, NULL, 0, NULL, &ctx));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeContextCreateEx(env.driver, &context_desc, 0, NULL, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_SIZE,
              zeContextCreateEx(env.driver, &context_desc, 1, NULL, &ctx));
    ze_context_desc_t bad_flags = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0x2};
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ENUMERATION, zeContextCreate(env.driver, &bad_flags, &ctx));
    zt_close(&env);
}
END_TEST

static Suite *context_suite(void)
{
    Suite *s = suite_create("driver_context");
    TCase *tc = tcase_create("context");
    tcase_add_test(tc, test_create_status_destroy);
    tcase_add_test(tc, test_two_contexts_are_distinct);
    tcase_add_test(tc, test_create_ex_with_device_list);
    tcase_add_test(tc, test_create_ex_without_devices_means_all);
    tcase_add_test(tc, test_null_arguments_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return zt_run_suite(context_suite());
}
