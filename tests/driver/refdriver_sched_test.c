/*
 * The work-item scheduler (tests/refdriver/execution/rd_schedule.h) on a
 * stand-in for a compiled module (sched_standin.c): barriers over many
 * groups, local memory, sub-group lockstep at 8/16/32, direct against fiber
 * mode, and a faulting work-item that ends its launch with DEVICE_LOST
 * while the process and the next launch go on. Runs the scheduler directly
 * on a pool of its own; driver_fault_test goes through the loader.
 */
#include "rd_schedule.h"
#include "sched_standin.h"
#include "zt.h"

#include <stdlib.h>
#include <string.h>

static rd_threadpool_t *pool;

static void setup(void)
{
    pool = rd_threadpool_create(2);
    ck_assert_ptr_nonnull(pool);
    sched_standin_item_calls = 0;
    sched_standin_direct_calls = 0;
}

static ze_result_t run(int kernel, const void *const *args, const uint32_t *local_sizes,
                       const uint32_t size[3], const uint32_t count[3])
{
    rd_sched_launch_t l;
    memset(&l, 0, sizeof l);
    l.kernel = &sched_standin_module()->kernels[kernel];
    l.args = args;
    l.local_sizes = local_sizes;
    memcpy(l.group_size, size, sizeof l.group_size);
    memcpy(l.group_count, count, sizeof l.group_count);
    return rd_sched_run(pool, &l);
}

/* Global linear id of work-item `lid` (linear local id) of group `group`
 * (linear group index). */
static uint64_t global_of(const uint32_t size[3], const uint32_t count[3], uint64_t group,
                          uint32_t lid)
{
    uint64_t g[3] = {group % count[0], group / count[0] % count[1],
                     group / ((uint64_t)count[0] * count[1])};
    uint32_t l[3] = {lid % size[0], lid / size[0] % size[1], lid / (size[0] * size[1])};
    uint64_t x = g[0] * size[0] + l[0], y = g[1] * size[1] + l[1], z = g[2] * size[2] + l[2];
    return (z * ((uint64_t)count[1] * size[1]) + y) * ((uint64_t)count[0] * size[0]) + x;
}

static void check_neighbour(int kernel, const uint32_t size[3], const uint32_t count[3], int rounds)
{
    uint32_t n = size[0] * size[1] * size[2];
    uint64_t groups = (uint64_t)count[0] * count[1] * count[2];
    int *out = calloc(groups * n, sizeof *out);
    ck_assert_ptr_nonnull(out);
    uint32_t local_sizes[3] = {0, n * (uint32_t)sizeof(int), 0};
    const void *args[3] = {&out, NULL, &rounds};
    ZT_OK(run(kernel, args, local_sizes, size, count));
    for (uint64_t g = 0; g < groups; g++)
        for (uint32_t lid = 0; lid < n; lid++) {
            uint64_t next = global_of(size, count, g, (lid + 1) % n);
            int want = 0;
            for (int r = 0; r < rounds; r++)
                want += (int)(next * 7 + (uint64_t)r);
            ck_assert_msg(out[global_of(size, count, g, lid)] == want,
                          "group %llu item %u: %d, want %d", (unsigned long long)g, lid,
                          out[global_of(size, count, g, lid)], want);
        }
    free(out);
}

START_TEST(barrier_neighbour_1d)
{
    setup();
    check_neighbour(SI_NEIGHBOUR, (uint32_t[]){64, 1, 1}, (uint32_t[]){257, 1, 1}, 3);
    check_neighbour(SI_NEIGHBOUR, (uint32_t[]){1024, 1, 1}, (uint32_t[]){5, 1, 1}, 2);
    check_neighbour(SI_NEIGHBOUR, (uint32_t[]){1, 1, 1}, (uint32_t[]){50, 1, 1}, 2);
}
END_TEST

START_TEST(barrier_neighbour_3d)
{
    setup();
    check_neighbour(SI_NEIGHBOUR, (uint32_t[]){4, 3, 5}, (uint32_t[]){7, 5, 3}, 2);
}
END_TEST

START_TEST(barrier_kernel_with_direct_entry_runs_on_fibers)
{
    setup();
    check_neighbour(SI_NEIGHBOUR_D, (uint32_t[]){32, 2, 1}, (uint32_t[]){100, 1, 1}, 2);
    ck_assert_uint_eq(__atomic_load_n(&sched_standin_direct_calls, __ATOMIC_RELAXED), 0);
    ck_assert_uint_eq(__atomic_load_n(&sched_standin_item_calls, __ATOMIC_RELAXED), 100 * 64);
}
END_TEST

START_TEST(local_memory_reduction)
{
    setup();
    enum {
        N = 256,
        GROUPS = 300
    };
    int *in = malloc(N * GROUPS * sizeof *in), *out = calloc(GROUPS, sizeof *out);
    for (int i = 0; i < N * GROUPS; i++)
        in[i] = (i * 37) % 101 - 50;
    const void *args[2] = {&in, &out};
    ZT_OK(run(SI_REDUCE, args, NULL, (uint32_t[]){N, 1, 1}, (uint32_t[]){GROUPS, 1, 1}));
    for (int g = 0; g < GROUPS; g++) {
        int want = 0;
        for (int i = 0; i < N; i++)
            want += in[g * N + i];
        ck_assert_int_eq(out[g], want);
    }
    free(in);
    free(out);
}
END_TEST

static void check_sg(int kernel, uint32_t sg, uint32_t n)
{
    enum {
        GROUPS = 40
    };
    int *out = calloc((size_t)n * GROUPS, sizeof *out);
    int rounds = 5;
    const void *args[2] = {&out, &rounds};
    ZT_OK(run(kernel, args, NULL, (uint32_t[]){n, 1, 1}, (uint32_t[]){GROUPS, 1, 1}));
    for (uint32_t i = 0; i < n * GROUPS; i++) {
        uint32_t lid = i % n;
        uint32_t size = lid / sg * sg + sg <= n ? sg : n % sg;
        ck_assert_msg(out[i] == (int)size, "sub-group size %u, item %u: %d, want %u", sg, i, out[i],
                      size);
    }
    free(out);
}

START_TEST(sub_group_lockstep_exchange)
{
    setup();
    check_sg(SI_SG_SHIFT8, 8, 100);
    check_sg(SI_SG_SHIFT16, 16, 100);
    check_sg(SI_SG_SHIFT32, 32, 100);
    check_sg(SI_SG_SHIFT32, 32, 256);
    check_sg(SI_SG_SHIFT8, 8, 3);
}
END_TEST

static uint32_t *run_ids(int kernel, const uint32_t size[3], const uint32_t count[3])
{
    uint64_t total = (uint64_t)size[0] * size[1] * size[2] * count[0] * count[1] * count[2];
    uint32_t *out = calloc(2 * total, sizeof *out);
    const void *args[1] = {&out};
    ZT_OK(run(kernel, args, NULL, size, count));
    return out;
}

START_TEST(direct_and_fiber_modes_agree)
{
    setup();
    const uint32_t size[3] = {5, 3, 2}, count[3] = {3, 2, 2};
    uint32_t *fib = run_ids(SI_IDS_FIBER, size, count);
    ck_assert_uint_eq(sched_standin_direct_calls, 0);
    sched_standin_item_calls = 0;
    uint32_t *dir = run_ids(SI_IDS, size, count);
    /* direct: work-item 0 of each group on a fiber, the rest in one call */
    ck_assert_uint_eq(sched_standin_direct_calls, 12);
    ck_assert_uint_eq(sched_standin_item_calls, 12 * 30);
    for (uint64_t g = 0; g < 12; g++)
        for (uint32_t lid = 0; lid < 30; lid++) {
            uint64_t i = global_of(size, count, g, lid);
            uint32_t want0 = lid % 5 | (lid / 5 % 3) << 8 | (lid / 15) << 16;
            uint32_t want1 = lid / 8 | (lid % 8) << 8 | (lid / 8 < 3 ? 8u : 6u) << 16 | lid << 22;
            ck_assert_uint_eq(fib[2 * i], want0);
            ck_assert_uint_eq(fib[2 * i + 1], want1);
            ck_assert_uint_eq(dir[2 * i], want0);
            ck_assert_uint_eq(dir[2 * i + 1], want1);
        }
    free(fib);
    free(dir);
}
END_TEST

START_TEST(barrier_in_some_groups_only)
{
    setup();
    enum {
        N = 48,
        GROUPS = 64
    };
    int *out = calloc(N * GROUPS, sizeof *out);
    uint32_t local_sizes[2] = {0, N * sizeof(int)};
    const void *args[2] = {&out, NULL};
    ZT_OK(
        run(SI_SOME_GROUPS, args, local_sizes, (uint32_t[]){N, 1, 1}, (uint32_t[]){GROUPS, 1, 1}));
    for (int g = 0; g < GROUPS; g++)
        for (int l = 0; l < N; l++)
            ck_assert_int_eq(out[g * N + l], g % 2 ? (l + 1) % N : -l);
    ck_assert_uint_eq(sched_standin_direct_calls, GROUPS / 2);
    free(out);
}
END_TEST

static void check_fault(uint64_t bad)
{
    enum {
        N = 64,
        GROUPS = 200
    };
    int *out = calloc(N * GROUPS, sizeof *out);
    const void *args[2] = {&out, &bad};
    ZT_RESULT(ZE_RESULT_ERROR_DEVICE_LOST,
              run(SI_FAULT, args, NULL, (uint32_t[]){N, 1, 1}, (uint32_t[]){GROUPS, 1, 1}));
    free(out);
    /* the process goes on, and so do launches */
    check_neighbour(SI_NEIGHBOUR, (uint32_t[]){N, 1, 1}, (uint32_t[]){GROUPS, 1, 1}, 2);
}

START_TEST(fault_in_direct_mode_is_device_lost)
{
    setup();
    check_fault(64 * 100 + 5);
    check_fault(3);
}
END_TEST

START_TEST(fault_on_a_fiber_is_device_lost)
{
    setup();
    check_fault(64 * 150); /* work-item 0 of group 150: on its fiber */
    check_fault(0);
    check_fault(64 * 199);
}
END_TEST

START_TEST(stack_overflow_is_device_lost)
{
    setup();
    enum {
        N = 16,
        GROUPS = 8
    };
    int *out = calloc(N * GROUPS, sizeof *out);
    const void *args[1] = {&out};
    ZT_RESULT(ZE_RESULT_ERROR_DEVICE_LOST,
              run(SI_OVERFLOW, args, NULL, (uint32_t[]){N, 1, 1}, (uint32_t[]){GROUPS, 1, 1}));
    free(out);
    check_neighbour(SI_NEIGHBOUR, (uint32_t[]){N, 1, 1}, (uint32_t[]){GROUPS, 1, 1}, 2);
}
END_TEST

START_TEST(bad_launches_are_refused)
{
    setup();
    int *out = NULL;
    const void *args[1] = {&out};
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
              run(SI_IDS, args, NULL, (uint32_t[]){2048, 1, 1}, (uint32_t[]){1, 1, 1}));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
              run(SI_IDS, args, NULL, (uint32_t[]){0, 1, 1}, (uint32_t[]){1, 1, 1}));
    ZT_OK(run(SI_IDS, args, NULL, (uint32_t[]){8, 1, 1}, (uint32_t[]){0, 1, 1}));
    rd_sched_launch_t l;
    memset(&l, 0, sizeof l);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, rd_sched_run(pool, &l));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("refdriver_sched");
    TCase *tc = tcase_create("scheduler");
    tcase_add_test(tc, barrier_neighbour_1d);
    tcase_add_test(tc, barrier_neighbour_3d);
    tcase_add_test(tc, barrier_kernel_with_direct_entry_runs_on_fibers);
    tcase_add_test(tc, local_memory_reduction);
    tcase_add_test(tc, sub_group_lockstep_exchange);
    tcase_add_test(tc, direct_and_fiber_modes_agree);
    tcase_add_test(tc, barrier_in_some_groups_only);
    tcase_add_test(tc, bad_launches_are_refused);
    suite_add_tcase(s, tc);
    TCase *faults = tcase_create("faults");
    tcase_add_test(faults, fault_in_direct_mode_is_device_lost);
    tcase_add_test(faults, fault_on_a_fiber_is_device_lost);
    tcase_add_test(faults, stack_overflow_is_device_lost);
    suite_add_tcase(s, faults);
    return zt_run_suite(s);
}
