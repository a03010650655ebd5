/*
 * Barriers with local memory, as OpenCL C source and as SPIR-V (_i): a
 * reduction through a local argument set by size, and a tiled transpose
 * through a kernel-scope __local array, each against a C reference.
 */
#include "kr_common.h"

#include <stdlib.h>
#include <string.h>

START_TEST(test_reduction)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = kr_module(&env, "local", (kr_form_t)_i, NULL);
    ze_kernel_handle_t k = zt_kernel(module, "reduce_sum");
    enum {
        GROUP = 128,
        GROUPS = 64,
        N = GROUP * GROUPS
    };
    int *in = kr_alloc(&env, N * sizeof *in), *out = kr_alloc(&env, GROUPS * sizeof *out);
    for (int i = 0; i < N; i++)
        in[i] = (i * 7919) % 1000 - 500;
    ZT_ARG(k, 0, in);
    ZT_ARG(k, 1, out);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeKernelSetArgumentValue(k, 2, GROUP * sizeof(int), in));
    ZT_OK(zeKernelSetArgumentValue(k, 2, GROUP * sizeof(int), NULL));
    kr_run(&env, k, (uint32_t[3]){GROUP, 1, 1}, (uint32_t[3]){GROUPS, 1, 1});
    for (int g = 0; g < GROUPS; g++) {
        int ref = 0;
        for (int i = 0; i < GROUP; i++)
            ref += in[g * GROUP + i];
        ck_assert_msg(out[g] == ref, "group %d: %d, expected %d", g, out[g], ref);
    }
    ZT_OK(zeKernelDestroy(k));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

START_TEST(test_transpose)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = kr_module(&env, "local", (kr_form_t)_i, NULL);
    ze_kernel_handle_t k = zt_kernel(module, "transpose");
    ze_kernel_properties_t props;
    memset(&props, 0, sizeof props);
    props.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
    ZT_OK(zeKernelGetProperties(k, &props));
    ck_assert_uint_eq(props.localMemSize, 16 * 17 * sizeof(float));
    enum {
        W = 64,
        H = 48
    };
    float *in = kr_alloc(&env, W * H * sizeof *in), *out = kr_alloc(&env, W * H * sizeof *out);
    for (int i = 0; i < W * H; i++)
        in[i] = (float)i;
    uint32_t w = W, h = H;
    ZT_ARG(k, 0, in);
    ZT_ARG(k, 1, out);
    ZT_ARG(k, 2, w);
    ZT_ARG(k, 3, h);
    kr_run(&env, k, (uint32_t[3]){16, 16, 1}, (uint32_t[3]){W / 16, H / 16, 1});
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            ck_assert_msg(out[x * H + y] == in[y * W + x], "out[%d][%d] = %g, expected %g", x, y,
                          out[x * H + y], in[y * W + x]);
    ZT_OK(zeKernelDestroy(k));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("kr_local");
    TCase *tc = tcase_create("local");
    tcase_add_loop_test(tc, test_reduction, 0, KR_FORMS);
    tcase_add_loop_test(tc, test_transpose, 0, KR_FORMS);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
