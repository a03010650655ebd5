/*
 * Two next drivers (the reference driver and a copy of it in another file):
 * the bootstrap gives each its own shim copy, both stay visible through the
 * loader, and zeil wraps both (registry, rules, records on each). With two
 * drivers the loader wraps handles: zelLoaderTranslateHandle gives the ones
 * zeil sees.
 */
#include "zl.h"
#include "test_kernels.h"

#include <level_zero/loader/ze_loader.h>
#include <zeil/zeil.h>

#include <stdlib.h>
#include <string.h>

START_TEST(test_both_drivers_wrapped)
{
    const char *alt = getenv("ZE_ENABLE_ALT_DRIVERS");
    ck_assert_msg(strstr(alt, "/libzeil_layer.so,") && strstr(alt, "/libzeil_layer.1.so"), "%s",
                  alt);
    ZT_OK(zeInit(0));
    uint32_t n = 0;
    ZT_OK(zeDriverGet(&n, NULL));
    ck_assert_uint_eq(n, 2);
    ze_driver_handle_t drivers[2];
    ZT_OK(zeDriverGet(&n, drivers));
    ck_assert(zeil_is_active());
    zeil_live_counts_t live;
    zeil_get_live_counts(&live);
    ck_assert_uint_eq(live.handles[ZEIL_KIND_DRIVER], 2);

    for (uint32_t d = 0; d < 2; d++) {
        zt_env_t env = {drivers[d], NULL, NULL};
        uint32_t one = 1;
        ZT_OK(zeDeviceGet(env.driver, &one, &env.device));
        ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
        ZT_OK(zeContextCreate(env.driver, &desc, &env.context));
        void *below = NULL;
        ZT_OK(zelLoaderTranslateHandle(ZEL_HANDLE_CONTEXT, env.context, &below));
        zeil_handle_info_t info;
        ck_assert(zeil_lookup_handle(below, &info));
        ck_assert_int_eq(info.kind, ZEIL_KIND_CONTEXT);

        /* Rules apply on each driver. */
        void *ptr = zt_usm_alloc(&env, ZT_USM_HOST, 64, 0);
        ZT_OK(zeMemFree(env.context, ptr));
        ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(env.context, ptr));
        ck_assert_uint_eq(zeil_rule_count("ZEIL-E012"), d + 1);

        /* Records too. */
        ze_command_list_handle_t list = zt_immediate_list(&env, 1);
        ZT_OK(zeCommandListAppendBarrier(list, NULL, 0, NULL));
        void *list_below = NULL;
        ZT_OK(zelLoaderTranslateHandle(ZEL_HANDLE_COMMAND_LIST, list, &list_below));
        ck_assert_uint_eq(zeil_submission_count(list_below), 1);
        ZT_OK(zeCommandListDestroy(list));
        ZT_OK(zeContextDestroy(env.context));
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("layer_two_drivers");
    TCase *tc = tcase_create("two_drivers");
    tcase_add_test(tc, test_both_drivers_wrapped);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
