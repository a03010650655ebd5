/*
 * Conversions (rounding modes, saturation, as_type), half (vstore_half_rte
 * and back) and double (correctly rounded sqrt and division), as OpenCL C
 * source and as SPIR-V, against C (_Float16 for half).
 */
#include "kr_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    N = 256
};

static float sample(int i)
{
    return (float)(i - N / 2) * 0.37f + (i % 7 == 0 ? 0.5f : 0.0f);
}

static int sat(float v, float lo, float hi)
{
    return v < lo ? (int)lo : v > hi ? (int)hi : (int)v;
}

START_TEST(test_float_to_int)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = kr_module(&env, "convert", (kr_form_t)_i, "-cl-std=CL2.0");
    ze_kernel_handle_t k = zt_kernel(module, "float_to_int");
    float *in = kr_alloc(&env, N * sizeof *in);
    int *out = kr_alloc(&env, 8 * N * sizeof *out);
    for (int i = 0; i < N; i++)
        in[i] = sample(i);
    ZT_ARG(k, 0, in);
    ZT_ARG(k, 1, out);
    kr_run(&env, k, (uint32_t[3]){32, 1, 1}, (uint32_t[3]){N / 32, 1, 1});
    for (int i = 0; i < N; i++) {
        float x = in[i];
        int bits;
        memcpy(&bits, &x, 4);
        int ref[8] = {(int)nearbyintf(x),
                      (int)truncf(x),
                      (int)ceilf(x),
                      (int)floorf(x),
                      sat(truncf(x), 0, 255),
                      sat(nearbyintf(x), -128, 127),
                      sat(truncf(x * 1000.0f), -32768, 32767),
                      bits};
        for (int c = 0; c < 8; c++)
            ck_assert_msg(out[8 * i + c] == ref[c], "x = %a, conversion %d: %d, expected %d",
                          (double)x, c, out[8 * i + c], ref[c]);
    }
    ZT_OK(zeKernelDestroy(k));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

START_TEST(test_half)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = kr_module(&env, "convert", (kr_form_t)_i, "-cl-std=CL2.0");
    ze_kernel_handle_t k = zt_kernel(module, "half_round_trip");
    float *in = kr_alloc(&env, N * sizeof *in), *back = kr_alloc(&env, N * sizeof *back);
    uint16_t *h = kr_alloc(&env, N * sizeof *h);
    for (int i = 0; i < N; i++)
        in[i] = sample(i) * 1.001f;
    ZT_ARG(k, 0, in);
    ZT_ARG(k, 1, h);
    ZT_ARG(k, 2, back);
    kr_run(&env, k, (uint32_t[3]){32, 1, 1}, (uint32_t[3]){N / 32, 1, 1});
    for (int i = 0; i < N; i++) {
        _Float16 ref = (_Float16)in[i];
        uint16_t bits;
        memcpy(&bits, &ref, 2);
        ck_assert_msg(h[i] == bits, "half of %a: 0x%04x, expected 0x%04x", (double)in[i], h[i],
                      bits);
        ck_assert_msg(back[i] == (float)ref, "back from half: %a, expected %a", (double)back[i],
                      (double)(float)ref);
    }
    ZT_OK(zeKernelDestroy(k));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

START_TEST(test_double)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = kr_module(&env, "convert", (kr_form_t)_i, "-cl-std=CL2.0");
    ze_kernel_handle_t k = zt_kernel(module, "double_ops");
    double *in = kr_alloc(&env, N * sizeof *in), *out = kr_alloc(&env, 3 * N * sizeof *out);
    for (int i = 0; i < N; i++)
        in[i] = (double)sample(i) * 1.000000123;
    ZT_ARG(k, 0, in);
    ZT_ARG(k, 1, out);
    kr_run(&env, k, (uint32_t[3]){32, 1, 1}, (uint32_t[3]){N / 32, 1, 1});
    for (int i = 0; i < N; i++) {
        double x = in[i], ref[3] = {sqrt(fabs(x)), x / 3.0, (double)(float)x};
        for (int c = 0; c < 3; c++)
            ck_assert_msg(out[3 * i + c] == ref[c], "x = %a, op %d: %a, expected %a", x, c,
                          out[3 * i + c], ref[c]);
    }
    ZT_OK(zeKernelDestroy(k));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("kr_convert");
    TCase *tc = tcase_create("convert");
    tcase_add_loop_test(tc, test_float_to_int, 0, KR_FORMS);
    tcase_add_loop_test(tc, test_half, 0, KR_FORMS);
    tcase_add_loop_test(tc, test_double, 0, KR_FORMS);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
