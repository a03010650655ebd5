/*
 * zeil with the loader's own validation and tracing layers on
 * (ZE_ENABLE_VALIDATION_LAYER=1, ZE_ENABLE_TRACING_LAYER=1, set by CMake):
 * they sit above every driver, zeil included, and everything still works:
 * launches run and are recorded, zeil's rules still refuse misuse.
 *
 * The demo (ZEIL_TEST_DEMO) runs with zeil below the validation layer's
 * handle-lifetime checks. Debian's 1.8.12 parameter validation refuses
 * ZE_COMMAND_QUEUE_FLAG_IN_ORDER, a value newer than it knows, with or
 * without zeil: that is shown too, as the README says.
 */
#include "zl.h"
#include "test_kernels.h"

#include <zeil/zeil.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* Child mode: the demo, two iterations, its stderr with its stdout. */
static int exec_demo(void)
{
    const char *demo = getenv("ZEIL_TEST_DEMO");
    dup2(STDOUT_FILENO, STDERR_FILENO);
    execl(demo, "zeil_demo_net", "2", (char *)NULL);
    return 127;
}

/* The demo is always built: a missing one is a broken test setup. */
static void assert_demo_given(void)
{
    const char *demo = getenv("ZEIL_TEST_DEMO");
    ck_assert_msg(demo && *demo, "ZEIL_TEST_DEMO is not set (tests/layer/CMakeLists.txt sets it)");
}

START_TEST(test_demo_with_handle_lifetime)
{
    assert_demo_given();
    static const char *const env[] = {
        "ZE_ENABLE_VALIDATION_LAYER=1", "ZE_ENABLE_HANDLE_LIFETIME=1",
        "ZE_ENABLE_PARAMETER_VALIDATION=", "ZE_ENABLE_TRACING_LAYER=", NULL};
    char out[8192];
    size_t mark = zl_log_mark();
    int status = zl_run_child("demo", env, out, sizeof out);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "demo failed: %s", out);
    ck_assert_msg(strstr(out, "vs. the C reference: ok"), "no result line: %s", out);
    zl_assert_silent(mark);
}
END_TEST

START_TEST(test_parameter_validation_refuses_in_order_lists)
{
    assert_demo_given();
    for (int zeil_on = 0; zeil_on < 2; zeil_on++) {
        const char *const env[] = {"ZE_ENABLE_VALIDATION_LAYER=1",
                                   "ZE_ENABLE_PARAMETER_VALIDATION=1", "ZE_ENABLE_TRACING_LAYER=",
                                   zeil_on ? "ZE_ENABLE_LAYERS=zeil" : "ZE_ENABLE_LAYERS=", NULL};
        char out[8192];
        int status = zl_run_child("demo", env, out, sizeof out);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) != 0, "demo passed: %s", out);
        ck_assert_msg(
            strstr(out, "zeCommandListCreateImmediate(") && strstr(out, "returned 0x7800000c"),
            "zeil %s: not the validation layer's refusal: %s", zeil_on ? "on" : "off", out);
    }
}
END_TEST

int main(int argc, char **argv)
{
    static const zl_child_mode_t modes[] = {{"demo", exec_demo}, {NULL, NULL}};
    zl_child_main(argc, argv, modes);
    Suite *s = suite_create("layer_stock_layers");
    TCase *tc = tcase_create("stock_layers");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, test_zeil_below_stock_layers);
    tcase_add_test(tc, test_demo_with_handle_lifetime);
    tcase_add_test(tc, test_parameter_validation_refuses_in_order_lists);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
