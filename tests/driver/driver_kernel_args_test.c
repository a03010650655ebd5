/*
 * Kernel arguments and launch geometry: scalars of every size and a struct
 * arrive intact, argument values and group sizes are copied (a later set does
 * not change an earlier append), null argument values reach the kernel as
 * null, every group of 1-, 2- and 3-D launches runs exactly once with the
 * right ids and sizes (also when an indirect launch reads its group count at
 * run time), kernel properties and names, and the spec's error codes for bad
 * arguments.
 */
#include "zt.h"
#include "test_kernels.h"

#include <stdlib.h>
#include <string.h>

typedef struct fixture {
    zt_env_t env;
    ze_module_handle_t module;
    ze_event_pool_handle_t pool;
} fixture_t;

static void open_fixture(fixture_t *f)
{
    zt_open(&f->env);
    f->module = zt_load_test_module(&f->env);
    f->pool = zt_event_pool(&f->env, 2, 0);
}

static void close_fixture(fixture_t *f)
{
    ZT_OK(zeEventPoolDestroy(f->pool));
    ZT_OK(zeModuleDestroy(f->module));
    zt_close(&f->env);
}

typedef struct scale_args {
    double *out;
    const float *in;
    uint64_t n;
    uint8_t a8;
    uint16_t a16;
    uint32_t a32;
    uint64_t a64;
    float f32;
    double f64;
    tk_blob24_t blob;
    tk_scale_echo_t *echo;
} scale_args_t;

static void set_scale_args(ze_kernel_handle_t k, scale_args_t *a)
{
    ZT_ARG(k, 0, a->out);
    ZT_ARG(k, 1, a->in);
    ZT_ARG(k, 2, a->n);
    ZT_ARG(k, 3, a->a8);
    ZT_ARG(k, 4, a->a16);
    ZT_ARG(k, 5, a->a32);
    ZT_ARG(k, 6, a->a64);
    ZT_ARG(k, 7, a->f32);
    ZT_ARG(k, 8, a->f64);
    ZT_ARG(k, 9, a->blob);
    ZT_ARG(k, 10, a->echo);
}

static void check_scale(const scale_args_t *a)
{
    const tk_scale_echo_t *e = a->echo;
    ck_assert_uint_eq(e->written, 1);
    ck_assert_uint_eq(e->a8, a->a8);
    ck_assert_uint_eq(e->a16, a->a16);
    ck_assert_uint_eq(e->a32, a->a32);
    ck_assert_uint_eq(e->a64, a->a64);
    ck_assert_int_eq(memcmp(&e->f32, &a->f32, sizeof a->f32), 0);
    ck_assert_int_eq(memcmp(&e->f64, &a->f64, sizeof a->f64), 0);
    ck_assert_int_eq(memcmp(&e->blob, &a->blob, sizeof a->blob), 0);
    for (uint64_t i = 0; i < a->n; i++)
        if (a->out[i] != (double)a->in[i] * a->f64)
            ck_abort_msg("out[%llu] = %f, expected %f", (unsigned long long)i, a->out[i],
                         (double)a->in[i] * a->f64);
}

static scale_args_t make_scale_args(const zt_env_t *env, uint64_t n, double factor, uint32_t seed)
{
    scale_args_t a;
    double *out = zt_usm_alloc(env, ZT_USM_SHARED, n * sizeof(double), 0);
    float *in = zt_usm_alloc(env, ZT_USM_SHARED, n * sizeof(float), 0);
    a.echo = zt_usm_alloc(env, ZT_USM_SHARED, sizeof(tk_scale_echo_t), 0);
    memset(a.echo, 0, sizeof *a.echo);
    for (uint64_t i = 0; i < n; i++) {
        in[i] = (float)(i % 101) - 50.0f;
        out[i] = 0;
    }
    a.out = out;
    a.in = in;
    a.n = n;
    a.a8 = (uint8_t)(0xA5 ^ seed);
    a.a16 = (uint16_t)(0xBEEF ^ seed);
    a.a32 = 0xDEADBEEFu ^ seed;
    a.a64 = 0x0123456789ABCDEFull ^ ((uint64_t)seed << 40);
    a.f32 = 3.25f + (float)seed;
    a.f64 = factor;
    for (int i = 0; i < 6; i++)
        a.blob.words[i] = 0x01010101u * (uint32_t)(i + 1) + seed;
    return a;
}

static void free_scale_args(const zt_env_t *env, scale_args_t *a)
{
    ZT_OK(zeMemFree(env->context, a->out));
    ZT_OK(zeMemFree(env->context, (void *)a->in));
    ZT_OK(zeMemFree(env->context, a->echo));
}

START_TEST(test_scalars_of_every_size_arrive)
{
    fixture_t f;
    open_fixture(&f);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_SCALE);
    ze_command_list_handle_t list = zt_immediate_list(&f.env, 1);
    scale_args_t a = make_scale_args(&f.env, 10000, -1.5, 0);
    set_scale_args(k, &a);
    const uint32_t gs[3] = {100, 1, 1}, gc[3] = {100, 1, 1};
    zt_launch(list, k, gs, gc, NULL, 0, NULL);
    check_scale(&a);
    free_scale_args(&f.env, &a);
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeKernelDestroy(k));
    close_fixture(&f);
}
END_TEST

START_TEST(test_argument_values_copied)
{
    /* Two launches of one kernel object with different arguments, both held
     * back by an event until both are appended: each sees its own values. */
    fixture_t f;
    open_fixture(&f);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_SCALE);
    ze_command_list_handle_t list = zt_immediate_list(&f.env, 0);
    ze_event_handle_t gate = zt_event(f.pool, 0), done = zt_event(f.pool, 1);
    scale_args_t first = make_scale_args(&f.env, 4096, 2.0, 1);
    scale_args_t second = make_scale_args(&f.env, 4096, 3.0, 2);
    const uint32_t gs[3] = {64, 1, 1}, gc[3] = {64, 1, 1};
    set_scale_args(k, &first);
    zt_launch(list, k, gs, gc, NULL, 1, &gate);
    /* Overwrite the caller's copies too: the driver must have its own. */
    scale_args_t kept = first;
    memset(&first, 0x5C, sizeof first);
    set_scale_args(k, &second);
    zt_launch(list, k, gs, gc, done, 0, NULL);
    ZT_OK(zeEventHostSignal(gate));
    ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    check_scale(&kept);
    check_scale(&second);
    free_scale_args(&f.env, &kept);
    free_scale_args(&f.env, &second);
    ZT_OK(zeEventDestroy(gate));
    ZT_OK(zeEventDestroy(done));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeKernelDestroy(k));
    close_fixture(&f);
}
END_TEST

/* Checks the records of a launch of group_count groups of group_size. */
static void check_geometry(const tk_geometry_t *records, const uint32_t group_size[3],
                           const uint32_t group_count[3])
{
    uint64_t total = (uint64_t)group_count[0] * group_count[1] * group_count[2];
    for (uint64_t i = 0; i < total; i++) {
        const tk_geometry_t *r = &records[i];
        uint32_t id[3] = {(uint32_t)(i % group_count[0]),
                          (uint32_t)(i / group_count[0] % group_count[1]),
                          (uint32_t)(i / group_count[0] / group_count[1])};
        int ok = r->runs == 1;
        for (int d = 0; d < 3; d++)
            ok = ok && r->group_id[d] == id[d] && r->group_size[d] == group_size[d] &&
                 r->group_count[d] == group_count[d] &&
                 r->global_size[d] == (uint64_t)group_size[d] * group_count[d];
        if (!ok)
            ck_abort_msg("group %llu: runs %u, id (%u,%u,%u) expected (%u,%u,%u), size (%u,%u,%u), "
                         "count (%u,%u,%u), global (%llu,%llu,%llu)",
                         (unsigned long long)i, r->runs, r->group_id[0], r->group_id[1],
                         r->group_id[2], id[0], id[1], id[2], r->group_size[0], r->group_size[1],
                         r->group_size[2], r->group_count[0], r->group_count[1], r->group_count[2],
                         (unsigned long long)r->global_size[0],
                         (unsigned long long)r->global_size[1],
                         (unsigned long long)r->global_size[2]);
    }
}

/* Group counts include ones that share factors ({4, 6, 2}): with coprime
 * counts a driver that mixed up the dimensions of a group id could still
 * reach every group exactly once. */
static const uint32_t geometries[][2][3] = {
    {{1, 1, 1}, {1, 1, 1}},    {{4, 3, 2}, {5, 3, 2}}, {{256, 1, 1}, {17, 1, 1}},
    {{1, 1, 1}, {3000, 1, 1}}, {{2, 2, 2}, {1, 7, 3}}, {{8, 8, 1}, {9, 1, 11}},
    {{2, 1, 3}, {4, 6, 2}},
};

START_TEST(test_launch_geometry)
{
    const uint32_t *gs = geometries[_i][0], *gc = geometries[_i][1];
    fixture_t f;
    open_fixture(&f);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_RECORD_GEOMETRY);
    ze_command_list_handle_t list = zt_immediate_list(&f.env, 1);
    size_t total = (size_t)gc[0] * gc[1] * gc[2];
    tk_geometry_t *records = zt_usm_alloc(&f.env, ZT_USM_SHARED, (total + 1) * sizeof *records, 0);
    memset(records, 0, (total + 1) * sizeof *records);
    ZT_ARG(k, 0, records);
    zt_launch(list, k, gs, gc, NULL, 0, NULL);
    check_geometry(records, gs, gc);
    ck_assert_uint_eq(records[total].runs, 0); /* nothing beyond the launch */
    ZT_OK(zeMemFree(f.env.context, records));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeKernelDestroy(k));
    close_fixture(&f);
}
END_TEST

START_TEST(test_group_size_copied_at_append)
{
    fixture_t f;
    open_fixture(&f);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_RECORD_GEOMETRY);
    ze_command_list_handle_t list = zt_immediate_list(&f.env, 0);
    ze_event_handle_t gate = zt_event(f.pool, 0), done = zt_event(f.pool, 1);
    const uint32_t gs1[3] = {4, 1, 1}, gs2[3] = {8, 2, 1}, gc[3] = {6, 1, 1};
    tk_geometry_t *r1 = zt_usm_alloc(&f.env, ZT_USM_SHARED, 6 * sizeof *r1, 0);
    tk_geometry_t *r2 = zt_usm_alloc(&f.env, ZT_USM_SHARED, 6 * sizeof *r2, 0);
    memset(r1, 0, 6 * sizeof *r1);
    memset(r2, 0, 6 * sizeof *r2);
    ZT_ARG(k, 0, r1);
    zt_launch(list, k, gs1, gc, NULL, 1, &gate);
    ZT_ARG(k, 0, r2);
    zt_launch(list, k, gs2, gc, done, 0, NULL);
    ZT_OK(zeEventHostSignal(gate));
    ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    check_geometry(r1, gs1, gc);
    check_geometry(r2, gs2, gc);
    ZT_OK(zeMemFree(f.env.context, r1));
    ZT_OK(zeMemFree(f.env.context, r2));
    ZT_OK(zeEventDestroy(gate));
    ZT_OK(zeEventDestroy(done));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeKernelDestroy(k));
    close_fixture(&f);
}
END_TEST

START_TEST(test_null_argument_value)
{
    /* "If null then argument value is considered null": the kernel sees a
     * null argument, and a later non-null value replaces it. */
    fixture_t f;
    open_fixture(&f);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_NULL_PROBE);
    ze_command_list_handle_t list = zt_immediate_list(&f.env, 1);
    uint32_t *out = zt_usm_alloc(&f.env, ZT_USM_SHARED, sizeof(uint32_t), 0);
    const uint32_t one[3] = {1, 1, 1};
    *out = 7;
    ZT_ARG(k, 0, out);
    ZT_OK(zeKernelSetArgumentValue(k, 1, sizeof(uint64_t), NULL));
    zt_launch(list, k, one, one, NULL, 0, NULL);
    ck_assert_uint_eq(*out, 1);
    uint64_t value = 0;
    ZT_ARG(k, 1, value);
    zt_launch(list, k, one, one, NULL, 0, NULL);
    ck_assert_uint_eq(*out, 0);
    ZT_OK(zeMemFree(f.env.context, out));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeKernelDestroy(k));
    close_fixture(&f);
}
END_TEST

START_TEST(test_indirect_launch_reads_counts_when_it_runs)
{
    /* "The implementation must not access the contents of the launch
     * arguments as they are free to be modified by either the Host or device
     * up until execution": a copy earlier on the same list writes the group
     * count, and the launch must see that count, not the buffer's value at
     * append time. */
    fixture_t f;
    open_fixture(&f);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_RECORD_GEOMETRY);
    ze_command_list_handle_t list = zt_immediate_list(&f.env, 0);
    ze_event_handle_t gate = zt_event(f.pool, 0), done = zt_event(f.pool, 1);
    const uint32_t gs[3] = {3, 2, 1}, gc[3] = {4, 2, 3};
    ze_group_count_t *counts = zt_usm_alloc(&f.env, ZT_USM_DEVICE, sizeof *counts, 8);
    ze_group_count_t *staged = zt_usm_alloc(&f.env, ZT_USM_HOST, sizeof *staged, 8);
    *staged = (ze_group_count_t){1, 1, 1};
    tk_geometry_t *records = zt_usm_alloc(&f.env, ZT_USM_SHARED, 25 * sizeof *records, 0);
    memset(records, 0, 25 * sizeof *records);
    ZT_OK(zeCommandListAppendMemoryCopy(list, counts, staged, sizeof *counts, NULL, 1, &gate));
    ZT_ARG(k, 0, records);
    ZT_OK(zeKernelSetGroupSize(k, gs[0], gs[1], gs[2]));
    ZT_OK(zeCommandListAppendLaunchKernelIndirect(list, k, counts, done, 0, NULL));
    *staged = (ze_group_count_t){gc[0], gc[1], gc[2]}; /* before the copy runs */
    ZT_OK(zeEventHostSignal(gate));
    ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    check_geometry(records, gs, gc);
    ck_assert_uint_eq(records[24].runs, 0);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeCommandListAppendLaunchKernelIndirect(list, k, NULL, NULL, 0, NULL));
    ZT_OK(zeMemFree(f.env.context, counts));
    ZT_OK(zeMemFree(f.env.context, staged));
    ZT_OK(zeMemFree(f.env.context, records));
    ZT_OK(zeEventDestroy(gate));
    ZT_OK(zeEventDestroy(done));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeKernelDestroy(k));
    close_fixture(&f);
}
END_TEST

START_TEST(test_kernel_properties_and_name)
{
    fixture_t f;
    open_fixture(&f);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_SCALE);
    ze_kernel_properties_t props = {.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    ZT_OK(zeKernelGetProperties(k, &props));
    ck_assert_uint_eq(props.numKernelArgs, TK_SCALE_NUM_ARGS);
    size_t size = 0;
    ZT_OK(zeKernelGetName(k, &size, NULL));
    ck_assert_uint_eq(size, strlen(TK_SCALE) + 1);
    char name[64];
    memset(name, 'x', sizeof name);
    ZT_OK(zeKernelGetName(k, &size, name));
    ck_assert_str_eq(name, TK_SCALE);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeKernelGetName(k, NULL, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeKernelGetProperties(k, NULL));
    ZT_OK(zeKernelDestroy(k));
    close_fixture(&f);
}
END_TEST

START_TEST(test_bad_arguments_refused)
{
    fixture_t f;
    open_fixture(&f);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_SCALE);
    uint64_t value = 7;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX,
              zeKernelSetArgumentValue(k, TK_SCALE_NUM_ARGS, sizeof value, &value));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX,
              zeKernelSetArgumentValue(k, 1000, sizeof value, &value));
    /* Argument 2 is a uint64_t, argument 3 a uint8_t. */
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE,
              zeKernelSetArgumentValue(k, 2, 4, &value));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE,
              zeKernelSetArgumentValue(k, 3, 8, &value));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE,
              zeKernelSetArgumentValue(k, 9, 0, &value));
    ZT_OK(zeKernelDestroy(k));
    close_fixture(&f);
}
END_TEST

static Suite *kernel_args_suite(void)
{
    Suite *s = suite_create("driver_kernel_args");
    TCase *tc = tcase_create("kernel_args");
    tcase_add_test(tc, test_scalars_of_every_size_arrive);
    tcase_add_test(tc, test_argument_values_copied);
    tcase_add_loop_test(tc, test_launch_geometry, 0, sizeof geometries / sizeof geometries[0]);
    tcase_add_test(tc, test_group_size_copied_at_append);
    tcase_add_test(tc, test_indirect_launch_reads_counts_when_it_runs);
    tcase_add_test(tc, test_null_argument_value);
    tcase_add_test(tc, test_kernel_properties_and_name);
    tcase_add_test(tc, test_bad_arguments_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return zt_run_suite(kernel_args_suite());
}
