/*
 * The work-item scheduler on real kernels (cl/exec.cl), as OpenCL C source
 * and as SPIR-V (_i): barriers over many groups in 1D and 3D, sub-groups in
 * lockstep at 8, 16 and 32 (a partial last sub-group included), work-item
 * and sub-group ids on the direct path, a barrier in some groups only, and
 * a faulting work-item that loses the device and not the process, through
 * a synchronous immediate list and through a queue, the next launch
 * computing again.
 */
#include "kr_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fixture {
    zt_env_t env;
    ze_module_handle_t module;
} fixture_t;

static void open_fixture(fixture_t *f, int form)
{
    zt_open(&f->env);
    f->module = kr_module(&f->env, "exec", (kr_form_t)form, NULL);
}

static void close_fixture(fixture_t *f)
{
    ZT_OK(zeModuleDestroy(f->module));
    zt_close(&f->env);
}

static uint64_t global_of(const uint32_t size[3], const uint32_t count[3], uint64_t group,
                          uint32_t lid)
{
    uint64_t g[3] = {group % count[0], group / count[0] % count[1],
                     group / ((uint64_t)count[0] * count[1])};
    uint32_t l[3] = {lid % size[0], lid / size[0] % size[1], lid / (size[0] * size[1])};
    uint64_t x = g[0] * size[0] + l[0], y = g[1] * size[1] + l[1], z = g[2] * size[2] + l[2];
    return (z * ((uint64_t)count[1] * size[1]) + y) * ((uint64_t)count[0] * size[0]) + x;
}

static void check_neighbour(fixture_t *f, const uint32_t size[3], const uint32_t count[3],
                            int rounds)
{
    ze_kernel_handle_t k = zt_kernel(f->module, "neighbour");
    uint32_t n = size[0] * size[1] * size[2];
    uint64_t groups = (uint64_t)count[0] * count[1] * count[2];
    int *out = kr_alloc(&f->env, groups * n * sizeof *out);
    ZT_ARG(k, 0, out);
    ZT_OK(zeKernelSetArgumentValue(k, 1, n * sizeof(int), NULL));
    ZT_ARG(k, 2, rounds);
    kr_run(&f->env, k, size, count);
    for (uint64_t g = 0; g < groups; g++)
        for (uint32_t lid = 0; lid < n; lid++) {
            uint64_t next = global_of(size, count, g, (lid + 1) % n);
            int want = 0;
            for (int r = 0; r < rounds; r++)
                want += (int)next * 7 + r;
            int got = out[global_of(size, count, g, lid)];
            ck_assert_msg(got == want, "group %llu item %u: %d, want %d", (unsigned long long)g,
                          lid, got, want);
        }
    ZT_OK(zeMemFree(f->env.context, out));
    ZT_OK(zeKernelDestroy(k));
}

START_TEST(barriers_over_many_groups)
{
    fixture_t f;
    open_fixture(&f, _i);
    check_neighbour(&f, (uint32_t[]){64, 1, 1}, (uint32_t[]){500, 1, 1}, 3);
    check_neighbour(&f, (uint32_t[]){1024, 1, 1}, (uint32_t[]){4, 1, 1}, 2);
    check_neighbour(&f, (uint32_t[]){4, 3, 5}, (uint32_t[]){5, 4, 3}, 2);
    close_fixture(&f);
}
END_TEST

static void check_sub_groups(fixture_t *f, uint32_t sg, uint32_t n)
{
    char name[32];
    snprintf(name, sizeof name, "sg_rotate%u", sg);
    ze_kernel_handle_t k = zt_kernel(f->module, name);
    ze_kernel_properties_t props = {.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    ZT_OK(zeKernelGetProperties(k, &props));
    ck_assert_uint_eq(props.requiredSubgroupSize, sg);
    enum {
        GROUPS = 16
    };
    int *out = kr_alloc(&f->env, (size_t)n * GROUPS * sizeof *out);
    int rounds = 4;
    ZT_ARG(k, 0, out);
    ZT_ARG(k, 1, rounds);
    kr_run(&f->env, k, (uint32_t[]){n, 1, 1}, (uint32_t[]){GROUPS, 1, 1});
    for (uint32_t i = 0; i < n * GROUPS; i++) {
        uint32_t lid = i % n;
        uint32_t size = lid / sg * sg + sg <= n ? sg : n % sg;
        ck_assert_msg(out[i] == (int)size, "sub-group size %u, item %u: %d, want %u", sg, i, out[i],
                      size);
    }
    ZT_OK(zeMemFree(f->env.context, out));
    ZT_OK(zeKernelDestroy(k));
}

START_TEST(sub_groups_in_lockstep)
{
    fixture_t f;
    open_fixture(&f, _i);
    check_sub_groups(&f, 8, 100);
    check_sub_groups(&f, 16, 100);
    check_sub_groups(&f, 32, 100);
    check_sub_groups(&f, 32, 256);
    close_fixture(&f);
}
END_TEST

START_TEST(ids_on_the_direct_path)
{
    fixture_t f;
    open_fixture(&f, _i);
    ze_kernel_handle_t k = zt_kernel(f.module, "ids");
    enum {
        SX = 12,
        SY = 5,
        CX = 7,
        CY = 3,
        GX = SX * CX,
        GY = SY * CY
    };
    uint32_t *out = kr_alloc(&f.env, 2 * GX * GY * sizeof *out);
    ZT_ARG(k, 0, out);
    kr_run(&f.env, k, (uint32_t[]){SX, SY, 1}, (uint32_t[]){CX, CY, 1});
    ze_kernel_properties_t props = {.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    ZT_OK(zeKernelGetProperties(k, &props));
    uint32_t sg = props.maxSubgroupSize;
    ck_assert(sg == 8 || sg == 16 || sg == 32);
    for (uint32_t y = 0; y < GY; y++)
        for (uint32_t x = 0; x < GX; x++) {
            uint32_t g = y * GX + x, lx = x % SX, ly = y % SY, lid = ly * SX + lx;
            ck_assert_uint_eq(out[2 * g], lx | ly << 8);
            ck_assert_uint_eq(out[2 * g + 1], lid / sg | (lid % sg) << 8 | lid << 16);
        }
    ZT_OK(zeMemFree(f.env.context, out));
    ZT_OK(zeKernelDestroy(k));
    close_fixture(&f);
}
END_TEST

START_TEST(barrier_in_some_groups_only)
{
    fixture_t f;
    open_fixture(&f, _i);
    ze_kernel_handle_t k = zt_kernel(f.module, "some_groups");
    enum {
        N = 48,
        GROUPS = 64
    };
    int *out = kr_alloc(&f.env, N * GROUPS * sizeof *out);
    ZT_ARG(k, 0, out);
    ZT_OK(zeKernelSetArgumentValue(k, 1, N * sizeof(int), NULL));
    kr_run(&f.env, k, (uint32_t[]){N, 1, 1}, (uint32_t[]){GROUPS, 1, 1});
    for (int g = 0; g < GROUPS; g++)
        for (int l = 0; l < N; l++)
            ck_assert_int_eq(out[g * N + l], g % 2 ? (l + 1) % N : -l);
    ZT_OK(zeMemFree(f.env.context, out));
    ZT_OK(zeKernelDestroy(k));
    close_fixture(&f);
}
END_TEST

enum {
    FAULT_GROUP = 64,
    FAULT_GROUPS = 40
};

/* Sets fault's arguments: work-item bad_gid stores through null. */
static ze_kernel_handle_t fault_kernel(fixture_t *f, int *out, uint64_t bad_gid)
{
    ze_kernel_handle_t k = zt_kernel(f->module, "fault");
    ZT_ARG(k, 0, out);
    ZT_OK(zeKernelSetArgumentValue(k, 1, sizeof(int *), NULL));
    ZT_ARG(k, 2, bad_gid);
    ZT_OK(zeKernelSetGroupSize(k, FAULT_GROUP, 1, 1));
    return k;
}

START_TEST(fault_loses_the_device_not_the_process)
{
    fixture_t f;
    open_fixture(&f, _i);
    int *out = kr_alloc(&f.env, FAULT_GROUP * FAULT_GROUPS * sizeof *out);
    ze_group_count_t count = {FAULT_GROUPS, 1, 1};
    ze_command_list_handle_t sync_list = zt_immediate_list(&f.env, 1);
    /* on the direct path (not work-item 0), then on a fiber (work-item 0) */
    uint64_t bad[2] = {FAULT_GROUP * 7 + 5, FAULT_GROUP * 30};
    for (int i = 0; i < 2; i++) {
        ze_kernel_handle_t k = fault_kernel(&f, out, bad[i]);
        ZT_RESULT(ZE_RESULT_ERROR_DEVICE_LOST,
                  zeCommandListAppendLaunchKernel(sync_list, k, &count, NULL, 0, NULL));
        ZT_OK(zeKernelDestroy(k));
    }
    /* through a queue: its next synchronization reports it */
    ze_command_queue_handle_t queue = zt_queue(&f.env, 0);
    ze_command_list_handle_t list = zt_regular_list(&f.env);
    ze_kernel_handle_t k = fault_kernel(&f, out, 3);
    ZT_OK(zeCommandListAppendLaunchKernel(list, k, &count, NULL, 0, NULL));
    ZT_OK(zeCommandListClose(list));
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_DEVICE_LOST, zeCommandQueueSynchronize(queue, UINT64_MAX));
    /* the next launch computes */
    memset(out, 0, FAULT_GROUP * FAULT_GROUPS * sizeof *out);
    uint64_t none = UINT64_MAX;
    ZT_ARG(k, 2, none);
    ZT_OK(zeCommandListAppendLaunchKernel(sync_list, k, &count, NULL, 0, NULL));
    for (int i = 0; i < FAULT_GROUP * FAULT_GROUPS; i++)
        ck_assert_int_eq(out[i], 1);
    ZT_OK(zeKernelDestroy(k));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeCommandQueueDestroy(queue));
    ZT_OK(zeCommandListDestroy(sync_list));
    ZT_OK(zeMemFree(f.env.context, out));
    close_fixture(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("kr_exec");
    TCase *tc = tcase_create("exec");
    tcase_add_loop_test(tc, barriers_over_many_groups, 0, KR_FORMS);
    tcase_add_loop_test(tc, sub_groups_in_lockstep, 0, KR_FORMS);
    tcase_add_loop_test(tc, ids_on_the_direct_path, 0, KR_FORMS);
    tcase_add_loop_test(tc, barrier_in_some_groups_only, 0, KR_FORMS);
    tcase_add_loop_test(tc, fault_loses_the_device_not_the_process, 0, KR_FORMS);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
