/*
 * Native kernels computing real results: vector add and a reduction over more
 * than a million elements, with several group sizes (including sizes that do
 * not divide the element count), the suggested group size, device memory,
 * cooperative launches, and group-size limits.
 */
#include "zt.h"
#include "test_kernels.h"

#include <stdlib.h>

#define N ((1u << 20) + 37) /* not a multiple of any group size used */

static const uint32_t group_sizes[] = {7, 64, 256, 1000, 1024};
#define GROUP_SIZES (sizeof group_sizes / sizeof group_sizes[0])

typedef struct fixture {
    zt_env_t env;
    ze_module_handle_t module;
    ze_command_list_handle_t list; /* asynchronous */
    ze_event_pool_handle_t pool;
    ze_event_handle_t done;
    ze_device_compute_properties_t compute;
} fixture_t;

static void open_fixture(fixture_t *f)
{
    zt_open(&f->env);
    f->module = zt_load_test_module(&f->env);
    f->list = zt_immediate_list(&f->env, 0);
    f->pool = zt_event_pool(&f->env, 1, 0);
    f->done = zt_event(f->pool, 0);
    f->compute =
        (ze_device_compute_properties_t){.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    ZT_OK(zeDeviceGetComputeProperties(f->env.device, &f->compute));
}

static void close_fixture(fixture_t *f)
{
    ZT_OK(zeEventDestroy(f->done));
    ZT_OK(zeEventPoolDestroy(f->pool));
    ZT_OK(zeCommandListDestroy(f->list));
    ZT_OK(zeModuleDestroy(f->module));
    zt_close(&f->env);
}

/* Launches kernel over n items in 1-D groups of group_size and waits. */
static uint32_t launch_1d_and_wait(fixture_t *f, ze_kernel_handle_t kernel, uint64_t n,
                                   uint32_t group_size, int cooperative)
{
    uint32_t groups = (uint32_t)((n + group_size - 1) / group_size);
    ck_assert_uint_le(groups, f->compute.maxGroupCountX);
    ZT_OK(zeKernelSetGroupSize(kernel, group_size, 1, 1));
    ze_group_count_t count = {groups, 1, 1};
    ZT_OK(zeEventHostReset(f->done));
    if (cooperative)
        ZT_OK(
            zeCommandListAppendLaunchCooperativeKernel(f->list, kernel, &count, f->done, 0, NULL));
    else
        ZT_OK(zeCommandListAppendLaunchKernel(f->list, kernel, &count, f->done, 0, NULL));
    ZT_OK(zeEventHostSynchronize(f->done, UINT64_MAX));
    return groups;
}

static uint32_t suggested_group_size(ze_kernel_handle_t kernel, uint64_t n)
{
    uint32_t x = 0, y = 0, z = 0;
    ZT_OK(zeKernelSuggestGroupSize(kernel, (uint32_t)n, 1, 1, &x, &y, &z));
    return x;
}

/* _i: index into group_sizes, or GROUP_SIZES for the suggested size. */
START_TEST(test_vector_add)
{
    fixture_t f;
    open_fixture(&f);
    ze_kernel_handle_t add = zt_kernel(f.module, TK_VECTOR_ADD);
    float *a = zt_usm_alloc(&f.env, ZT_USM_SHARED, N * sizeof(float), 0);
    float *b = zt_usm_alloc(&f.env, ZT_USM_HOST, N * sizeof(float), 0);
    float *c = zt_usm_alloc(&f.env, ZT_USM_SHARED, (N + 1) * sizeof(float), 0);
    for (uint32_t i = 0; i < N; i++) {
        a[i] = (float)(i % 1000);
        b[i] = 0.5f * (float)(i % 7);
        c[i] = -1.0f;
    }
    c[N] = 12345.0f; /* just past n: must stay */
    uint64_t n = N;
    ZT_ARG(add, 0, a);
    ZT_ARG(add, 1, b);
    ZT_ARG(add, 2, c);
    ZT_ARG(add, 3, n);
    uint32_t gs = _i < (int)GROUP_SIZES ? group_sizes[_i] : suggested_group_size(add, n);
    launch_1d_and_wait(&f, add, n, gs, 0);
    for (uint32_t i = 0; i < N; i++)
        if (c[i] != a[i] + b[i])
            ck_abort_msg("group size %u: c[%u] = %f, expected %f", gs, i, c[i], a[i] + b[i]);
    ck_assert_float_eq(c[N], 12345.0f);
    ZT_OK(zeMemFree(f.env.context, a));
    ZT_OK(zeMemFree(f.env.context, b));
    ZT_OK(zeMemFree(f.env.context, c));
    ZT_OK(zeKernelDestroy(add));
    close_fixture(&f);
}
END_TEST

START_TEST(test_vector_add_device_memory_cooperative)
{
    fixture_t f;
    open_fixture(&f);
    ze_kernel_handle_t add = zt_kernel(f.module, TK_VECTOR_ADD);
    float *host = malloc(3 * N * sizeof(float));
    for (uint32_t i = 0; i < N; i++) {
        host[i] = (float)i;
        host[N + i] = 3.0f;
    }
    float *a = zt_usm_alloc(&f.env, ZT_USM_DEVICE, N * sizeof(float), 64);
    float *b = zt_usm_alloc(&f.env, ZT_USM_DEVICE, N * sizeof(float), 64);
    float *c = zt_usm_alloc(&f.env, ZT_USM_DEVICE, N * sizeof(float), 64);
    ZT_OK(zeCommandListAppendMemoryCopy(f.list, a, host, N * sizeof(float), NULL, 0, NULL));
    ZT_OK(zeCommandListAppendMemoryCopy(f.list, b, host + N, N * sizeof(float), NULL, 0, NULL));
    uint64_t n = N;
    ZT_ARG(add, 0, a);
    ZT_ARG(add, 1, b);
    ZT_ARG(add, 2, c);
    ZT_ARG(add, 3, n);
    launch_1d_and_wait(&f, add, n, 128, 1);
    ZT_OK(zeEventHostReset(f.done));
    ZT_OK(
        zeCommandListAppendMemoryCopy(f.list, host + 2 * N, c, N * sizeof(float), f.done, 0, NULL));
    ZT_OK(zeEventHostSynchronize(f.done, UINT64_MAX));
    for (uint32_t i = 0; i < N; i++)
        if (host[2 * N + i] != (float)i + 3.0f)
            ck_abort_msg("c[%u] = %f", i, host[2 * N + i]);
    free(host);
    ZT_OK(zeMemFree(f.env.context, a));
    ZT_OK(zeMemFree(f.env.context, b));
    ZT_OK(zeMemFree(f.env.context, c));
    ZT_OK(zeKernelDestroy(add));
    close_fixture(&f);
}
END_TEST

/* _i: index into group_sizes (from 64 up, so partial sums stay exact). */
START_TEST(test_reduce_sum)
{
    fixture_t f;
    open_fixture(&f);
    ze_kernel_handle_t reduce = zt_kernel(f.module, TK_REDUCE_SUM);
    uint32_t gs = group_sizes[_i];
    uint32_t groups = (N + gs - 1) / gs;
    float *in = zt_usm_alloc(&f.env, ZT_USM_SHARED, N * sizeof(float), 0);
    float *partials = zt_usm_alloc(&f.env, ZT_USM_SHARED, groups * sizeof(float), 0);
    double expected_total = 0;
    for (uint32_t i = 0; i < N; i++) {
        in[i] = (float)(i % 17);
        expected_total += in[i];
    }
    for (uint32_t g = 0; g < groups; g++)
        partials[g] = -1.0f;
    uint64_t n = N;
    ZT_ARG(reduce, 0, in);
    ZT_ARG(reduce, 1, partials);
    ZT_ARG(reduce, 2, n);
    launch_1d_and_wait(&f, reduce, n, gs, 0);
    double total = 0;
    for (uint32_t g = 0; g < groups; g++) {
        double expected = 0;
        for (uint64_t i = (uint64_t)g * gs; i < (uint64_t)(g + 1) * gs && i < N; i++)
            expected += (double)(i % 17);
        if ((double)partials[g] != expected)
            ck_abort_msg("group size %u: partial %u is %f, expected %f", gs, g, partials[g],
                         expected);
        total += partials[g];
    }
    ck_assert_double_eq(total, expected_total);
    ZT_OK(zeMemFree(f.env.context, in));
    ZT_OK(zeMemFree(f.env.context, partials));
    ZT_OK(zeKernelDestroy(reduce));
    close_fixture(&f);
}
END_TEST

START_TEST(test_suggest_group_size)
{
    fixture_t f;
    open_fixture(&f);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_RECORD_GEOMETRY);
    const uint32_t globals[][3] = {
        {1u << 20, 1, 1}, {1000, 3, 7}, {1, 1, 1}, {97, 1, 1}, {64, 64, 64}};
    for (size_t i = 0; i < sizeof globals / sizeof globals[0]; i++) {
        uint32_t s[3] = {0, 0, 0};
        ZT_OK(zeKernelSuggestGroupSize(k, globals[i][0], globals[i][1], globals[i][2], &s[0], &s[1],
                                       &s[2]));
        for (int d = 0; d < 3; d++) {
            ck_assert_uint_ge(s[d], 1);
            ck_assert_uint_le(s[d], globals[i][d]);
        }
        ck_assert_uint_le(s[0], f.compute.maxGroupSizeX);
        ck_assert_uint_le(s[1], f.compute.maxGroupSizeY);
        ck_assert_uint_le(s[2], f.compute.maxGroupSizeZ);
        ck_assert_uint_le((uint64_t)s[0] * s[1] * s[2], f.compute.maxTotalGroupSize);
        /* The suggestion is a size the kernel accepts. */
        ZT_OK(zeKernelSetGroupSize(k, s[0], s[1], s[2]));
    }
    uint32_t x, y, z;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeKernelSuggestGroupSize(k, 64, 1, 1, NULL, &y, &z));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeKernelSuggestGroupSize(k, 64, 1, 1, &x, NULL, &z));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeKernelSuggestGroupSize(k, 64, 1, 1, &x, &y, NULL));
    ZT_OK(zeKernelDestroy(k));
    close_fixture(&f);
}
END_TEST

START_TEST(test_group_size_limits)
{
    fixture_t f;
    open_fixture(&f);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_RECORD_GEOMETRY);
    const ze_device_compute_properties_t *c = &f.compute;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION, zeKernelSetGroupSize(k, 0, 1, 1));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION, zeKernelSetGroupSize(k, 1, 0, 1));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION, zeKernelSetGroupSize(k, 1, 1, 0));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
              zeKernelSetGroupSize(k, c->maxGroupSizeX + 1, 1, 1));
    uint64_t all = (uint64_t)c->maxGroupSizeX * c->maxGroupSizeY * c->maxGroupSizeZ;
    if (all > c->maxTotalGroupSize) /* each within its limit, the product not */
        ZT_RESULT(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
                  zeKernelSetGroupSize(k, c->maxGroupSizeX, c->maxGroupSizeY, c->maxGroupSizeZ));
    ZT_OK(zeKernelSetGroupSize(k, c->maxGroupSizeX, 1, 1));
    ZT_OK(zeKernelDestroy(k));
    close_fixture(&f);
}
END_TEST

START_TEST(test_launch_bad_arguments_refused)
{
    fixture_t f;
    open_fixture(&f);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_STAMP);
    ze_group_count_t count = {1, 1, 1};
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeCommandListAppendLaunchKernel(f.list, k, NULL, NULL, 0, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
              zeCommandListAppendLaunchKernel(f.list, NULL, &count, NULL, 0, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_SIZE,
              zeCommandListAppendLaunchKernel(f.list, k, &count, NULL, 1, NULL));
    ZT_OK(zeKernelDestroy(k));
    close_fixture(&f);
}
END_TEST

static Suite *kernel_suite(void)
{
    Suite *s = suite_create("driver_kernel");
    TCase *tc = tcase_create("kernel");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_vector_add, 0, GROUP_SIZES + 1);
    tcase_add_test(tc, test_vector_add_device_memory_cooperative);
    tcase_add_loop_test(tc, test_reduce_sum, 1, GROUP_SIZES);
    tcase_add_test(tc, test_suggest_group_size);
    tcase_add_test(tc, test_group_size_limits);
    tcase_add_test(tc, test_launch_bad_arguments_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return zt_run_suite(kernel_suite());
}
