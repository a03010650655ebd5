/*
 * zeil's checks on real kernels: the saxpy of cl/basic.cl, compiled by the
 * reference driver from OpenCL C and from SPIR-V, run with zeil on and its
 * hazard checks on (ZE_ENABLE_LAYERS=zeil, ZEIL_CHECKS=+hazards). A launch
 * with an argument never set is refused (E041), an argument pointing into
 * freed USM is warned of (W040), and freeing an argument of a launch still
 * queued behind an unsignalled event is refused (E092); the launch then runs
 * and computes, and the free succeeds once it is done.
 */
#include "kr_common.h"

#include <zeil/zeil.h>

enum {
    N = 1024
};

static ze_kernel_handle_t saxpy(const zt_env_t *env, kr_form_t form, ze_module_handle_t *module)
{
    *module = kr_module(env, "basic", form, "-cl-std=CL2.0");
    return zt_kernel(*module, "saxpy");
}

START_TEST(test_argument_never_set)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module;
    ze_kernel_handle_t k = saxpy(&env, (kr_form_t)_i, &module);
    float *y = kr_alloc(&env, N * sizeof *y);
    ZT_ARG(k, 0, y);
    ZT_OK(zeKernelSetGroupSize(k, 64, 1, 1));
    ze_command_list_handle_t list = zt_immediate_list(&env, 1);
    uint64_t before = zeil_rule_count("ZEIL-E041");
    ze_group_count_t groups = {N / 64, 1, 1};
    ck_assert_int_eq(zeCommandListAppendLaunchKernel(list, k, &groups, NULL, 0, NULL),
                     ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert_uint_eq(zeil_rule_count("ZEIL-E041"), before + 1);
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeMemFree(env.context, y));
    ZT_OK(zeKernelDestroy(k));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

START_TEST(test_argument_into_freed_usm)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module;
    ze_kernel_handle_t k = saxpy(&env, (kr_form_t)_i, &module);
    float *x = kr_alloc(&env, N * sizeof *x);
    ZT_OK(zeMemFree(env.context, x));
    uint64_t before = zeil_rule_count("ZEIL-W040");
    ZT_ARG(k, 1, x); /* a warning: the call itself is valid */
    ck_assert_uint_eq(zeil_rule_count("ZEIL-W040"), before + 1);
    ZT_OK(zeKernelDestroy(k));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

START_TEST(test_free_of_a_queued_launch_argument)
{
    zt_env_t env;
    zt_open(&env);
    ck_assert_msg(zeil_hazards_enabled(), "the suite runs with ZEIL_CHECKS=+hazards");
    ze_module_handle_t module;
    ze_kernel_handle_t k = saxpy(&env, (kr_form_t)_i, &module);
    float *y = kr_alloc(&env, N * sizeof *y), *x = kr_alloc(&env, N * sizeof *x);
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    float a = 2.0f;
    ZT_ARG(k, 0, y);
    ZT_ARG(k, 1, x);
    ZT_ARG(k, 2, a);
    ze_event_pool_handle_t pool = zt_event_pool(&env, 2, 0);
    ze_event_handle_t gate = zt_event(pool, 0), done = zt_event(pool, 1);
    ze_command_list_handle_t list = zt_in_order_list(&env);
    zt_launch(list, k, (uint32_t[3]){64, 1, 1}, (uint32_t[3]){N / 64, 1, 1}, done, 1, &gate);
    uint64_t before = zeil_rule_count("ZEIL-E092");
    ck_assert_int_eq(zeMemFree(env.context, x), ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
    ck_assert_uint_eq(zeil_rule_count("ZEIL-E092"), before + 1);
    ZT_OK(zeEventHostSignal(gate));
    ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    for (int i = 0; i < N; i++)
        ck_assert_msg(y[i] == 2.0f * (float)i + 1.0f, "y[%d] = %g", i, y[i]);
    ZT_OK(zeMemFree(env.context, x)); /* the launch is done: a valid free */
    ZT_OK(zeMemFree(env.context, y));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeEventDestroy(gate));
    ZT_OK(zeEventDestroy(done));
    ZT_OK(zeEventPoolDestroy(pool));
    ZT_OK(zeKernelDestroy(k));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("kr_zeil_checks");
    TCase *tc = tcase_create("checks");
    tcase_add_loop_test(tc, test_argument_never_set, 0, KR_FORMS);
    tcase_add_loop_test(tc, test_argument_into_freed_usm, 0, KR_FORMS);
    tcase_add_loop_test(tc, test_free_of_a_queued_launch_argument, 0, KR_FORMS);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
