/*
 * zeil with the loader's own validation and tracing layers on
 * (ZE_ENABLE_VALIDATION_LAYER=1, ZE_ENABLE_TRACING_LAYER=1, set by CMake):
 * they sit above every driver, zeil included, and everything still works:
 * launches run and are recorded, zeil's rules still refuse misuse.
 */
#include "zl.h"
#include "test_kernels.h"

#include <zeil/zeil.h>

#include <stdlib.h>

START_TEST(test_zeil_below_stock_layers)
{
    ck_assert_str_eq(getenv("ZE_ENABLE_VALIDATION_LAYER"), "1");
    ck_assert_str_eq(getenv("ZE_ENABLE_TRACING_LAYER"), "1");
    zl_fixture_t f;
    zl_open(&f);
    ck_assert(zeil_is_active());
    ze_kernel_handle_t k = zt_kernel(f.module, TK_STAMP);
    uint64_t *stamp = zt_usm_alloc(&f.env, ZT_USM_HOST, 8, 0);
    *stamp = 0;
    ZT_ARG(k, 0, stamp);
    const uint32_t one[3] = {1, 1, 1};
    zt_launch(f.list, k, one, one, f.event[0], 0, NULL);
    ck_assert(zl_signalled(f.event[0]));
    ck_assert_uint_ne(*stamp, 0);
    ck_assert_uint_eq(zeil_submission_count(f.list), 1);
    ZT_OK(zeMemFree(f.env.context, stamp));
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(f.env.context, stamp));
    zl_assert_one_finding(mark, "ZEIL-E012", "zeMemFree", "was already freed", NULL);
    ZT_OK(zeKernelDestroy(k));
    zl_close(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("layer_stock_layers");
    TCase *tc = tcase_create("stock_layers");
    tcase_add_test(tc, test_zeil_below_stock_layers);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
