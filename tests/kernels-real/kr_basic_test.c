/*
 * The first real kernels, as OpenCL C source and as SPIR-V (_i selects):
 * saxpy against a C loop, arguments of every kind (value, struct, constant
 * pointer, null pointer, vector), work-item ids in two dimensions, a
 * required group size, program-scope variables, kernel names and
 * properties.
 */
#include "kr_common.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

START_TEST(test_saxpy)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = kr_module(&env, "basic", (kr_form_t)_i, "-cl-std=CL2.0");
    ze_kernel_handle_t k = zt_kernel(module, "saxpy");
    enum {
        N = 4096
    };
    float *y = kr_alloc(&env, N * sizeof *y), *x = kr_alloc(&env, N * sizeof *x), ref[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i * 0.5f;
        y[i] = (float)(N - i);
        ref[i] = 3.0f * x[i] + y[i];
    }
    float a = 3.0f;
    ZT_ARG(k, 0, y);
    ZT_ARG(k, 1, x);
    ZT_ARG(k, 2, a);
    kr_run(&env, k, (uint32_t[3]){64, 1, 1}, (uint32_t[3]){N / 64, 1, 1});
    for (int i = 0; i < N; i++)
        ck_assert_msg(y[i] == ref[i], "y[%d] = %g, expected %g", i, y[i], ref[i]);
    ZT_OK(zeKernelDestroy(k));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

typedef struct pair {
    int a;
    float b;
} pair_t;

START_TEST(test_argument_kinds)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = kr_module(&env, "basic", (kr_form_t)_i, "-cl-std=CL2.0");
    ze_kernel_handle_t k = zt_kernel(module, "args_mix");
    ze_kernel_properties_t props;
    memset(&props, 0, sizeof props);
    props.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
    ZT_OK(zeKernelGetProperties(k, &props));
    ck_assert_uint_eq(props.numKernelArgs, 5);
    enum {
        N = 64
    };
    int *out = kr_alloc(&env, N * sizeof *out), *in = kr_alloc(&env, N * sizeof *in);
    float *table = kr_alloc(&env, 4 * sizeof *table);
    for (int i = 0; i < 4; i++)
        table[i] = (float)(i + 1);
    for (int i = 0; i < N; i++)
        in[i] = i * 3;
    pair_t p = {5, 2.0f};
    int v[4] = {1, 2, 3, 4};
    ZT_ARG(k, 0, out);
    ZT_ARG(k, 1, p);
    ZT_ARG(k, 2, table);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, zeKernelSetArgumentValue(k, 1, 4, &p));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE,
              zeKernelSetArgumentValue(k, 0, 4, &out));
    ZT_OK(zeKernelSetArgumentValue(k, 3, sizeof(void *), NULL));
    ZT_OK(zeKernelSetArgumentValue(k, 4, sizeof v, v));
    /* Program-scope variable counter_base, read and changed through
     * zeModuleGetGlobalPointer. */
    size_t gsize = 0;
    int *base = NULL;
    ZT_OK(zeModuleGetGlobalPointer(module, "counter_base", &gsize, (void **)&base));
    ck_assert_uint_eq(gsize, sizeof(int));
    ck_assert_int_eq(*base, 7);
    *base = 11;
    kr_run(&env, k, (uint32_t[3]){16, 1, 1}, (uint32_t[3]){N / 16, 1, 1});
    for (int i = 0; i < N; i++) {
        int expected = 5 + (int)(2.0f * (float)((i & 3) + 1)) - 1 + 1 + 20 + 300 + 4000 + 11;
        ck_assert_msg(out[i] == expected, "null pointer: out[%d] = %d, expected %d", i, out[i],
                      expected);
    }
    ZT_ARG(k, 3, in);
    kr_run(&env, k, (uint32_t[3]){16, 1, 1}, (uint32_t[3]){N / 16, 1, 1});
    for (int i = 0; i < N; i++) {
        int expected = 5 + (int)(2.0f * (float)((i & 3) + 1)) + in[i] + 1 + 20 + 300 + 4000 + 11;
        ck_assert_msg(out[i] == expected, "out[%d] = %d, expected %d", i, out[i], expected);
    }
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME,
              zeModuleGetGlobalPointer(module, "no_such_global", NULL, NULL));
    ZT_OK(zeKernelDestroy(k));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

START_TEST(test_ids_2d)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = kr_module(&env, "basic", (kr_form_t)_i, "-cl-std=CL2.0");
    ze_kernel_handle_t k = zt_kernel(module, "ids");
    enum {
        W = 32,
        H = 12
    };
    uint32_t *out = kr_alloc(&env, W * H * sizeof *out);
    ZT_ARG(k, 0, out);
    kr_run(&env, k, (uint32_t[3]){8, 4, 1}, (uint32_t[3]){W / 8, H / 4, 1});
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            uint32_t expected = (x / 8) | (y / 4) << 8 | (x % 8) << 16 | (y % 4) << 24;
            ck_assert_msg(out[y * W + x] == expected, "(%u,%u): 0x%x, expected 0x%x", x, y,
                          out[y * W + x], expected);
        }
    ZT_OK(zeKernelDestroy(k));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

START_TEST(test_required_group_size)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = kr_module(&env, "basic", (kr_form_t)_i, "-cl-std=CL2.0");
    ze_kernel_handle_t k = zt_kernel(module, "fixed_size");
    ze_kernel_properties_t props;
    memset(&props, 0, sizeof props);
    props.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
    ZT_OK(zeKernelGetProperties(k, &props));
    ck_assert_uint_eq(props.requiredGroupSizeX, 8);
    ck_assert_uint_eq(props.requiredGroupSizeY, 2);
    ck_assert_uint_eq(props.requiredGroupSizeZ, 1);
    uint32_t gx = 0, gy = 0, gz = 0;
    ZT_OK(zeKernelSuggestGroupSize(k, 64, 8, 1, &gx, &gy, &gz));
    ck_assert(gx == 8 && gy == 2 && gz == 1);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION, zeKernelSetGroupSize(k, 4, 4, 1));
    uint32_t size = 0;
    char *attrs = NULL;
    ZT_OK(zeKernelGetSourceAttributes(k, &size, &attrs));
    ck_assert_msg(attrs && strstr(attrs, "reqd_work_group_size(8,2,1)"), "attributes: %s",
                  attrs ? attrs : "null");
    int *out = kr_alloc(&env, 64 * 8 * sizeof *out);
    ZT_ARG(k, 0, out);
    kr_run(&env, k, (uint32_t[3]){8, 2, 1}, (uint32_t[3]){8, 4, 1});
    for (int i = 0; i < 64 * 8; i++)
        ck_assert_int_eq(out[i], 802);
    ZT_OK(zeKernelDestroy(k));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

START_TEST(test_names_and_constant_table)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = kr_module(&env, "basic", (kr_form_t)_i, "-cl-std=CL2.0");
    uint32_t count = 0;
    ZT_OK(zeModuleGetKernelNames(module, &count, NULL));
    ck_assert_uint_eq(count, 6);
    const char *names[6];
    ZT_OK(zeModuleGetKernelNames(module, &count, names));
    const char *expected[] = {"saxpy",      "args_mix",       "ids",
                              "fixed_size", "scale_by_table", "write_through"};
    for (int e = 0; e < 6; e++) {
        int found = 0;
        for (uint32_t i = 0; i < count; i++)
            found |= strcmp(names[i], expected[e]) == 0;
        ck_assert_msg(found, "kernel %s is not listed", expected[e]);
    }
    ze_kernel_handle_t k = zt_kernel(module, "scale_by_table");
    char name[64];
    size_t name_size = sizeof name;
    ZT_OK(zeKernelGetName(k, &name_size, name));
    ck_assert_str_eq(name, "scale_by_table");
    ze_kernel_handle_t missing = NULL;
    ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, "no_such_kernel"};
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_NAME, zeKernelCreate(module, &desc, &missing));
    float *out = kr_alloc(&env, 256 * sizeof *out);
    for (int i = 0; i < 256; i++)
        out[i] = (float)i;
    ZT_ARG(k, 0, out);
    kr_run(&env, k, (uint32_t[3]){32, 1, 1}, (uint32_t[3]){8, 1, 1});
    for (int i = 0; i < 256; i++)
        ck_assert_msg(out[i] == (float)i * (float)(1 << (i & 3)), "out[%d] = %g", i, out[i]);
    ZT_OK(zeKernelDestroy(k));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

/* A compiled kernel that faults does not take the process down: the list
 * reports ZE_RESULT_ERROR_DEVICE_LOST. */
START_TEST(test_faulting_kernel)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = kr_module(&env, "basic", (kr_form_t)_i, "-cl-std=CL2.0");
    ze_kernel_handle_t k = zt_kernel(module, "write_through");
    int *bad = (int *)(uintptr_t)0x40;
    ZT_ARG(k, 0, bad);
    ZT_OK(zeKernelSetGroupSize(k, 4, 1, 1));
    ze_command_list_handle_t list = zt_immediate_list(&env, 1);
    ze_group_count_t groups = {2, 1, 1};
    ze_result_t r = zeCommandListAppendLaunchKernel(list, k, &groups, NULL, 0, NULL);
    ck_assert_msg(r == ZE_RESULT_ERROR_DEVICE_LOST, "a faulting launch returned 0x%x", (unsigned)r);
    zeCommandListDestroy(list);
    ZT_OK(zeKernelDestroy(k));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

/* Kernels of one module created and launched by several threads at once. */
typedef struct thread_job {
    const zt_env_t *env;
    ze_module_handle_t module;
    float *y, *x;
    int first, ok;
} thread_job_t;

enum {
    THREADS = 4,
    PER_THREAD = 1024
};

static void *thread_main(void *arg)
{
    thread_job_t *j = arg;
    ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, "saxpy"};
    for (int round = 0; round < 8; round++) {
        ze_kernel_handle_t k = NULL;
        if (zeKernelCreate(j->module, &desc, &k) != ZE_RESULT_SUCCESS)
            return NULL;
        float *y = j->y + j->first, *x = j->x + j->first, a = 1.0f;
        ze_command_list_handle_t list = NULL;
        ze_command_queue_desc_t qd = {
            ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
            ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
        ze_group_count_t groups = {PER_THREAD / 64, 1, 1};
        if (zeKernelSetArgumentValue(k, 0, sizeof y, &y) ||
            zeKernelSetArgumentValue(k, 1, sizeof x, &x) ||
            zeKernelSetArgumentValue(k, 2, sizeof a, &a) || zeKernelSetGroupSize(k, 64, 1, 1) ||
            zeCommandListCreateImmediate(j->env->context, j->env->device, &qd, &list) ||
            zeCommandListAppendLaunchKernel(list, k, &groups, NULL, 0, NULL) ||
            zeCommandListDestroy(list) || zeKernelDestroy(k))
            return NULL;
    }
    j->ok = 1;
    return NULL;
}

START_TEST(test_kernels_from_many_threads)
{
    zt_env_t env;
    zt_open(&env);
    ze_module_handle_t module = kr_module(&env, "basic", (kr_form_t)_i, "-cl-std=CL2.0");
    float *y = kr_alloc(&env, THREADS * PER_THREAD * sizeof *y),
          *x = kr_alloc(&env, THREADS * PER_THREAD * sizeof *x);
    for (int i = 0; i < THREADS * PER_THREAD; i++) {
        y[i] = 0.0f;
        x[i] = (float)i;
    }
    pthread_t threads[THREADS];
    thread_job_t jobs[THREADS];
    for (int t = 0; t < THREADS; t++) {
        jobs[t] = (thread_job_t){&env, module, y, x, t * PER_THREAD, 0};
        ck_assert_int_eq(pthread_create(&threads[t], NULL, thread_main, &jobs[t]), 0);
    }
    for (int t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        ck_assert_msg(jobs[t].ok, "thread %d failed", t);
    }
    for (int i = 0; i < THREADS * PER_THREAD; i++)
        ck_assert_msg(y[i] == 8.0f * (float)i, "y[%d] = %g", i, y[i]);
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("kr_basic");
    TCase *tc = tcase_create("basic");
    tcase_add_loop_test(tc, test_saxpy, 0, KR_FORMS);
    tcase_add_loop_test(tc, test_argument_kinds, 0, KR_FORMS);
    tcase_add_loop_test(tc, test_ids_2d, 0, KR_FORMS);
    tcase_add_loop_test(tc, test_required_group_size, 0, KR_FORMS);
    tcase_add_loop_test(tc, test_names_and_constant_table, 0, KR_FORMS);
    tcase_add_loop_test(tc, test_kernels_from_many_threads, 0, KR_FORMS);
    tcase_add_loop_test(tc, test_faulting_kernel, 0, KR_FORMS);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
