/*
 * Sub-groups of 8, 16 and 32 work-items as the kernels require them
 * (intel_reqd_sub_group_size): ids, reduce, shuffle down, broadcast; and
 * atomics under contention. OpenCL C source and SPIR-V, against C.
 */
#include "kr_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

START_TEST(test_sub_group_sizes)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = kr_module(&env, "subgroup", (kr_form_t)_i, "-cl-std=CL2.0");
    enum {
        GROUP = 64,
        GROUPS = 4,
        N = GROUP * GROUPS
    };
    int *in = kr_alloc(&env, N * sizeof *in), *out = kr_alloc(&env, 4 * N * sizeof *out);
    for (int i = 0; i < N; i++)
        in[i] = (i * 37) % 101 - 50;
    static const unsigned sizes[] = {8, 16, 32};
    for (int s = 0; s < 3; s++) {
        unsigned sg = sizes[s];
        char name[16];
        snprintf(name, sizeof name, "sg_%u", sg);
        ze_kernel_handle_t k = zt_kernel(module, name);
        ze_kernel_properties_t props;
        memset(&props, 0, sizeof props);
        props.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
        ZT_OK(zeKernelGetProperties(k, &props));
        ck_assert_uint_eq(props.requiredSubgroupSize, sg);
        ck_assert_uint_eq(props.maxSubgroupSize, sg);
        ZT_ARG(k, 0, in);
        ZT_ARG(k, 1, out);
        kr_run(&env, k, (uint32_t[3]){GROUP, 1, 1}, (uint32_t[3]){GROUPS, 1, 1});
        for (int i = 0; i < N; i++) {
            int lid = i % GROUP, first = i - lid % (int)sg, lane = lid % (int)sg;
            int sum = 0;
            for (unsigned l = 0; l < sg; l++)
                sum += in[first + (int)l];
            int down = lane + 1 < (int)sg ? in[i + 1] : in[first];
            int ids = (int)(sg * 10000 + (unsigned)(lid / (int)sg) * 100 + (unsigned)lane);
            ck_assert_msg(out[4 * i] == ids, "%s item %d: ids %d, expected %d", name, i, out[4 * i],
                          ids);
            ck_assert_msg(out[4 * i + 1] == sum, "%s item %d: reduce %d, expected %d", name, i,
                          out[4 * i + 1], sum);
            ck_assert_msg(out[4 * i + 2] == down, "%s item %d: shuffle_down %d, expected %d", name,
                          i, out[4 * i + 2], down);
            ck_assert_msg(out[4 * i + 3] == in[first + 3], "%s item %d: broadcast %d, expected %d",
                          name, i, out[4 * i + 3], in[first + 3]);
        }
        ZT_OK(zeKernelDestroy(k));
    }
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

START_TEST(test_atomics_under_contention)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = kr_module(&env, "subgroup", (kr_form_t)_i, "-cl-std=CL2.0");
    ze_kernel_handle_t k = zt_kernel(module, "count_atomics");
    enum {
        N = 1 << 16
    };
    int *counter = kr_alloc(&env, 2 * sizeof *counter), *maximum = kr_alloc(&env, sizeof *maximum);
    int *in = kr_alloc(&env, N * sizeof *in);
    long long sum = 0;
    int max = -1000000;
    for (int i = 0; i < N; i++) {
        in[i] = (i * 7919) % 10007 - 5000;
        sum += in[i];
        max = in[i] > max ? in[i] : max;
    }
    counter[0] = counter[1] = 0;
    *maximum = -1000000;
    ZT_ARG(k, 0, counter);
    ZT_ARG(k, 1, maximum);
    ZT_ARG(k, 2, in);
    kr_run(&env, k, (uint32_t[3]){256, 1, 1}, (uint32_t[3]){N / 256, 1, 1});
    ck_assert_int_eq(counter[0], N);
    ck_assert_int_eq(counter[1], (int)sum);
    ck_assert_int_eq(*maximum, max);
    ZT_OK(zeKernelDestroy(k));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("kr_subgroup");
    TCase *tc = tcase_create("subgroup");
    tcase_add_loop_test(tc, test_sub_group_sizes, 0, KR_FORMS);
    tcase_add_loop_test(tc, test_atomics_under_contention, 0, KR_FORMS);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
