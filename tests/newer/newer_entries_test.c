/*
 * The entries of API versions after 1.4, called as a program calls them,
 * through a loader of the version ZEIL_PLAY_VERSION (play_loader.c, linked
 * first so that its Level Zero functions are the ones this program calls),
 * zeil's shim, and the driver from the future in front of the reference
 * driver. The suite runs at 1.17 (every case) and at 1.4 (where the newer
 * entries answer unsupported and unseen handles are E001).
 */
#include "future_canary.h"
#include "play_loader.h"
#include "test_kernels.h"
#include "zl.h"

#include <zeil/zeil.h>
#include <zeil/dnnl_ze.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned play_minor(void)
{
    const char *v = getenv("ZEIL_PLAY_VERSION");
    unsigned major = 0, minor = 0;
    ck_assert_msg(v && sscanf(v, "%u.%u", &major, &minor) == 2 && major == 1,
                  "ZEIL_PLAY_VERSION=%s", v ? v : "(unset)");
    return minor;
}

/* What zt_open does, the way programs written for API 1.10+ start:
 * zeInitDrivers alone, never zeInit or zeDriverGet. */
static void open_with_init_drivers(zt_env_t *env)
{
    ze_init_driver_type_desc_t desc = {ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC, NULL,
                                       ZE_INIT_DRIVER_TYPE_FLAG_GPU | ZE_INIT_DRIVER_TYPE_FLAG_NPU};
    uint32_t n = 0;
    ZT_OK(zeInitDrivers(&n, NULL, &desc));
    ck_assert_uint_eq(n, 1);
    ZT_OK(zeInitDrivers(&n, &env->driver, &desc));
    n = 1;
    ZT_OK(zeDeviceGet(env->driver, &n, &env->device));
    ze_context_desc_t cdesc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ZT_OK(zeContextCreate(env->driver, &cdesc, &env->context));
}

static ze_command_list_handle_t in_order_list(const zt_env_t *env)
{
    ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                    NULL,
                                    0,
                                    1,
                                    ZE_BIT(1) /* in order */,
                                    ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                    ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH};
    ze_command_list_handle_t list;
    ZT_OK(zeCommandListCreateImmediate(env->context, env->device, &desc, &list));
    return list;
}

/* A program of API 1.17 end to end: zeInitDrivers, a launch that passes its
 * arguments, zeCommandListHostSynchronize; zeil checks and records it all. */
START_TEST(test_program_of_api_1_17)
{
    if (play_minor() < 17)
        return;
    size_t mark = zl_log_mark();
    zt_env_t env;
    open_with_init_drivers(&env);
    ze_module_handle_t module = zt_load_test_module(&env);
    ze_kernel_handle_t stamp = zt_kernel(module, TK_STAMP);
    ze_command_list_handle_t list = in_order_list(&env);
    uint64_t *started = zt_usm_alloc(&env, ZT_USM_HOST, sizeof *started, 0);
    *started = 0;
    void *args[] = {&started};
    ze_group_count_t groups = {1, 1, 1};
    ze_group_size_t sizes = {1, 1, 1};
    ZT_OK(zeCommandListAppendLaunchKernelWithArguments(list, stamp, groups, sizes, args, NULL, NULL,
                                                       0, NULL));
    ZT_OK(zeCommandListHostSynchronize(list, UINT64_MAX));
    ck_assert_uint_ne(*started, 0);
    *started = 0;
    ZT_OK(zeCommandListAppendLaunchKernelWithParameters(list, stamp, &groups, NULL, NULL, 0, NULL));
    uint64_t copy = 0;
    ZT_OK(zeCommandListAppendMemoryCopyWithParameters(list, &copy, started, sizeof copy, NULL, NULL,
                                                      0, NULL));
    ZT_OK(zeCommandListHostSynchronize(list, UINT64_MAX));
    ck_assert_uint_ne(copy, 0);
    ck_assert_uint_eq(zeil_submission_count(list), 3);
    zeil_handle_info_t info;
    ck_assert(zeil_lookup_handle(env.driver, &info) && info.kind == ZEIL_KIND_DRIVER);
    zl_assert_no_error(mark);
    ZT_OK(zeMemFree(env.context, started));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeKernelDestroy(stamp));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

/* The list queries: what zeil knows it answers, the rest the driver does. */
START_TEST(test_list_queries)
{
    unsigned minor = play_minor();
    zt_env_t env;
    zt_open(&env);
    ze_command_list_handle_t list = in_order_list(&env);
    ze_bool_t immediate = 0;
    ze_command_queue_flags_t flags = 0;
    ze_command_queue_priority_t priority = 0;
    uint32_t ordinal = 7;
    if (minor < 9) {
        ZT_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, zeCommandListIsImmediate(list, &immediate));
    } else {
        ZT_OK(zeCommandListIsImmediate(list, &immediate));
        ck_assert_uint_eq(immediate, 1);
        ZT_OK(zeCommandListGetOrdinal(list, &ordinal));
        ck_assert_uint_eq(ordinal, 0);
        ZT_OK(zeCommandListImmediateGetIndex(list, &ordinal));
        ck_assert_uint_eq(ordinal, 1);
    }
    if (minor >= 17) {
        ZT_OK(zeCommandListImmediateGetFlags(list, &flags));
        ck_assert_uint_eq(flags, ZE_BIT(1));
        ZT_OK(zeCommandListImmediateGetPriority(list, &priority));
        ck_assert_uint_eq(priority, ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH);
        ze_command_list_handle_t regular = zt_regular_list(&env);
        ze_command_queue_mode_t mode;
        ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeCommandListImmediateGetMode(regular, &mode));
        ZT_OK(zeCommandListDestroy(regular));
    }
    ZT_OK(zeCommandListDestroy(list));
    zt_close(&env);
}
END_TEST

/* Misuse through the newer entries is caught as through the old ones. */
START_TEST(test_newer_misuse)
{
    if (play_minor() < 17)
        return;
    zt_env_t env;
    zt_open(&env);
    size_t mark;
    ze_command_list_handle_t gone = in_order_list(&env);
    ZT_OK(zeCommandListDestroy(gone));
    mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeCommandListHostSynchronize(gone, 0));
    zl_assert_one_finding(mark, "ZEIL-E002", "zeCommandListHostSynchronize", "was destroyed", NULL);

    ze_command_list_handle_t regular = zt_regular_list(&env);
    ZT_OK(zeCommandListClose(regular));
    ze_module_handle_t module = zt_load_test_module(&env);
    ze_kernel_handle_t stamp = zt_kernel(module, TK_STAMP);
    uint64_t *started = zt_usm_alloc(&env, ZT_USM_DEVICE, 64, 0);
    ZT_ARG(stamp, 0, started);
    ze_group_count_t groups = {1, 1, 1};
    mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeCommandListAppendLaunchKernelWithParameters(
                                                    regular, stamp, &groups, NULL, NULL, 0, NULL));
    zl_assert_one_finding(mark, "ZEIL-E020", "zeCommandListAppendLaunchKernelWithParameters",
                          "is closed", NULL);

    ze_command_list_handle_t list = in_order_list(&env);
    static unsigned char host[128];
    mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_SIZE,
              zeCommandListAppendMemoryCopyWithParameters(list, started, host, sizeof host, NULL,
                                                          NULL, 0, NULL));
    zl_assert_one_finding(mark, "ZEIL-E014", "zeCommandListAppendMemoryCopyWithParameters", NULL);
    ze_command_list_handle_t open_list = zt_regular_list(&env);
    mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandListImmediateAppendCommandListsExp(list, 1, &open_list, NULL, 0, NULL));
    zl_assert_one_finding(mark, "ZEIL-E021", "zeCommandListImmediateAppendCommandListsExp",
                          "is open", NULL);
    ZT_OK(zeMemFree(env.context, started));
    mark = zl_log_mark();
    uint32_t pattern = 0;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandListAppendMemoryFillWithParameters(list, started, &pattern, sizeof pattern,
                                                          64, NULL, NULL, 0, NULL));
    zl_assert_one_finding(mark, "ZEIL-E015", "zeCommandListAppendMemoryFillWithParameters", NULL);
    ZT_OK(zeCommandListDestroy(open_list));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeCommandListDestroy(regular));
    ZT_OK(zeKernelDestroy(stamp));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

typedef ze_result_t(ZE_APICALL *getter_fn)(ze_api_version_t, void *);

/* A list zeil never saw created: made by the driver's own table, as an
 * entry zeil passes through or an extension function would make it. At a
 * version where such entries exist (zeCommandListCreateCloneExp, 1.9) zeil
 * registers it at first sight and the call goes on; at 1.4 every creator of
 * lists is zeil's, and it is E001. */
START_TEST(test_list_zeil_never_saw)
{
    unsigned minor = play_minor();
    zt_env_t env;
    zt_open(&env);
    void *driver = dlopen(getenv("ZEIL_TEST_FUTURE_DRIVER"), RTLD_NOW | RTLD_LOCAL);
    ck_assert_ptr_nonnull(driver);
    zeil_full_ze_command_list_dditable_t own;
    memset(&own, 0, sizeof own);
    ZT_OK(((getter_fn)dlsym(driver, "zeGetCommandListProcAddrTable"))(ZE_API_VERSION_1_4, &own));
    ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                    NULL,
                                    0,
                                    0,
                                    ZE_BIT(1),
                                    ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
                                    ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t unseen;
    ZT_OK(own.pfnCreateImmediate(env.context, env.device, &desc, &unseen));
    size_t mark = zl_log_mark();
    if (minor >= 9) {
        ZT_OK(zeCommandListAppendBarrier(unseen, NULL, 0, NULL));
        zl_assert_one_finding(mark, "ZEIL-W080", "zeCommandListAppendBarrier",
                              "zeil could not see it", "registers it now as a command list", NULL);
        zeil_handle_info_t info;
        ck_assert(zeil_lookup_handle(unseen, &info));
        ck_assert_int_eq(info.kind, ZEIL_KIND_COMMAND_LIST);
        ck_assert_ptr_eq(info.context, env.context);
        ck_assert_int_eq(info.is_immediate, 1);
        ck_assert_uint_eq(zeil_submission_count(unseen), 1);
        ZT_OK(zeCommandListDestroy(unseen));
    } else {
        ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
                  zeCommandListAppendBarrier(unseen, NULL, 0, NULL));
        zl_assert_one_finding(mark, "ZEIL-E001", "zeCommandListAppendBarrier",
                              "is not a handle zeil knows", NULL);
        ZT_OK(own.pfnDestroy(unseen));
    }
    zt_close(&env);
}
END_TEST

/* Entries the reference driver lacks reach the future driver's canaries
 * through zeil: counter-based events (1.15) are intercepted, the driver's
 * answer comes back unchanged and nothing is registered. */
START_TEST(test_counter_based_event_reaches_driver)
{
    unsigned minor = play_minor();
    zt_env_t env;
    zt_open(&env);
    ze_event_counter_based_desc_t desc = {0};
    ze_event_handle_t event = NULL;
    ze_result_t r = zeEventCounterBasedCreate(env.context, env.device, &desc, &event);
    if (minor >= 15)
        ck_assert_uint_eq((uint32_t)r,
                          (uint32_t)future_canary_result("ze_event_dditable_t",
                                                         ZEIL_DDI_INDEX_zeEventCounterBasedCreate));
    else
        ck_assert_uint_eq(r, ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ptr_null(event);
    zt_close(&env);
}
END_TEST

static uint32_t canary(const char *table, unsigned index)
{
    return (uint32_t)future_canary_result(table, index);
}

static void host_function(void *user)
{
    (void)user;
}

/* Every newer entry zeil intercepts, called validly: it reaches the driver
 * (the reference driver's answer, or the future driver's canary where the
 * reference driver has none) through zeil. */
START_TEST(test_newer_entries_reach_driver)
{
    if (play_minor() < 17)
        return;
    zt_env_t env;
    zt_open(&env);
    ze_command_list_handle_t list = in_order_list(&env);
    size_t mark = zl_log_mark();
    ck_assert_uint_eq((uint32_t)zeDeviceSynchronize(env.device),
                      canary("ze_device_dditable_t", ZEIL_DDI_INDEX_zeDeviceSynchronize));
    ck_assert_uint_eq(
        (uint32_t)zeCommandListAppendHostFunction(list, host_function, NULL, NULL, NULL, 0, NULL),
        canary("ze_command_list_dditable_t", ZEIL_DDI_INDEX_zeCommandListAppendHostFunction));
    ze_command_list_handle_t regular = zt_regular_list(&env);
    ZT_OK(zeCommandListClose(regular));
    ck_assert_uint_eq(
        (uint32_t)zeCommandListImmediateAppendCommandListsWithParameters(list, 1, &regular, NULL,
                                                                         NULL, 0, NULL),
        canary("ze_command_list_dditable_t",
               ZEIL_DDI_INDEX_zeCommandListImmediateAppendCommandListsWithParameters));
    ck_assert_uint_eq(
        (uint32_t)zeCommandListImmediateAppendCommandListsExp(list, 1, &regular, NULL, 0, NULL),
        canary("ze_command_list_exp_dditable_t",
               ZEIL_DDI_INDEX_zeCommandListImmediateAppendCommandListsExp));
    ze_command_list_flags_t flags = 1;
    ZT_OK(zeCommandListGetFlags(regular, &flags));
    ck_assert_uint_eq(flags, 0);
    ze_command_queue_mode_t mode;
    ZT_OK(zeCommandListImmediateGetMode(list, &mode));
    ck_assert_uint_eq(mode, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    uint32_t *buffer = zt_usm_alloc(&env, ZT_USM_SHARED, 64, 0);
    uint32_t pattern = 0x5a5a5a5a;
    ZT_OK(zeCommandListAppendMemoryFillWithParameters(list, buffer, &pattern, sizeof pattern, 64,
                                                      NULL, NULL, 0, NULL));
    ZT_OK(zeCommandListHostSynchronize(list, UINT64_MAX));
    ck_assert_uint_eq(buffer[15], pattern);
    ck_assert_uint_eq(zeil_submission_count(list), 1);
    zl_assert_no_error(mark);
    ZT_OK(zeMemFree(env.context, buffer));
    ZT_OK(zeCommandListDestroy(regular));
    ZT_OK(zeCommandListDestroy(list));
    zt_close(&env);
}
END_TEST

/* The interop library checks a stream's list it never saw created through
 * the driver's queries where the version has them: the list of
 * test_list_zeil_never_saw makes a stream at 1.9+, and is unknown at 1.4. */
START_TEST(test_interop_stream_on_list_zeil_never_saw)
{
    unsigned minor = play_minor();
    zt_env_t env;
    zt_open(&env);
    void *driver = dlopen(getenv("ZEIL_TEST_FUTURE_DRIVER"), RTLD_NOW | RTLD_LOCAL);
    ck_assert_ptr_nonnull(driver);
    zeil_full_ze_command_list_dditable_t own;
    memset(&own, 0, sizeof own);
    ZT_OK(((getter_fn)dlsym(driver, "zeGetCommandListProcAddrTable"))(ZE_API_VERSION_1_4, &own));
    ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                    NULL,
                                    0,
                                    0,
                                    ZE_BIT(1),
                                    ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                    ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t unseen;
    ZT_OK(own.pfnCreateImmediate(env.context, env.device, &desc, &unseen));
    dnnl_engine_t engine;
    ck_assert_int_eq(dnnl_ze_interop_engine_create(&engine, env.driver, env.device, env.context),
                     dnnl_success);
    dnnl_stream_t stream = NULL;
    size_t mark = zl_log_mark();
    dnnl_status_t st = dnnl_ze_interop_stream_create(&stream, engine, unseen, 0);
    char *log = zl_log_since(mark);
    if (minor >= 9) {
        ck_assert_msg(st == dnnl_success, "stream_create returned %d: %s", (int)st, log);
        ck_assert_msg(strstr(log, "[ZEIL-W080] zeil_adopt_handle"), "not adopted: %s", log);
        ck_assert_int_eq(dnnl_stream_destroy(stream), dnnl_success);
        ZT_OK(zeCommandListDestroy(unseen));
    } else {
        ck_assert_int_ne(st, dnnl_success);
        ck_assert_msg(strstr(log, "[ZEIL-E112]") && strstr(log, "unknown to the zeil registry"),
                      "not refused as unknown: %s", log);
        ZT_OK(own.pfnDestroy(unseen));
    }
    free(log);
    ck_assert_int_eq(dnnl_engine_destroy(engine), dnnl_success);
    zt_close(&env);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("newer_entries");
    TCase *tc = tcase_create("entries");
    tcase_add_test(tc, test_program_of_api_1_17);
    tcase_add_test(tc, test_list_queries);
    tcase_add_test(tc, test_newer_misuse);
    tcase_add_test(tc, test_list_zeil_never_saw);
    tcase_add_test(tc, test_counter_based_event_reaches_driver);
    tcase_add_test(tc, test_newer_entries_reach_driver);
    tcase_add_test(tc, test_interop_stream_on_list_zeil_never_saw);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
