/*
 * The launch path allocates nothing in steady state: this binary interposes
 * malloc, calloc and realloc and counts the calls made from inside zeil's
 * libraries (the return address lies in libzeil*.so) around N launches,
 * copies and barriers after a warm-up. (Not built with sanitizers, which own
 * malloc.)
 */
#include "zl.h"
#include "test_kernels.h"

#include <zeil/zeil.h>

#include <link.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);

#define MAX_RANGES 32
static uintptr_t range_lo[MAX_RANGES], range_hi[MAX_RANGES];
static int range_count;
static _Atomic int counting;
static _Atomic uint64_t zeil_allocations, all_allocations;

static void count(void *caller)
{
    if (!atomic_load_explicit(&counting, memory_order_relaxed))
        return;
    atomic_fetch_add(&all_allocations, 1);
    uintptr_t pc = (uintptr_t)caller;
    for (int i = 0; i < range_count; i++)
        if (pc >= range_lo[i] && pc < range_hi[i])
            atomic_fetch_add(&zeil_allocations, 1);
}

void *malloc(size_t size)
{
    count(__builtin_return_address(0));
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    count(__builtin_return_address(0));
    return __libc_calloc(n, size);
}

void *realloc(void *ptr, size_t size)
{
    count(__builtin_return_address(0));
    return __libc_realloc(ptr, size);
}

static int note_zeil_code(struct dl_phdr_info *info, size_t size, void *user)
{
    (void)size;
    (void)user;
    if (!info->dlpi_name || !strstr(info->dlpi_name, "/libzeil"))
        return 0;
    for (int i = 0; i < info->dlpi_phnum && range_count < MAX_RANGES; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
        range_lo[range_count] = info->dlpi_addr + ph->p_vaddr;
        range_hi[range_count] = range_lo[range_count] + ph->p_memsz;
        range_count++;
    }
    return 0;
}

START_TEST(test_no_allocation_on_launch_path)
{
    zl_fixture_t f;
    zl_open(&f);
    ck_assert(zeil_is_active());
    dl_iterate_phdr(note_zeil_code, NULL);
    ck_assert_int_ge(range_count, 2); /* libzeil.so and the shim */
    ze_kernel_handle_t k = zt_kernel(f.module, TK_STAMP);
    uint64_t *stamp = zt_usm_alloc(&f.env, ZT_USM_HOST, 64, 0);
    char *buf = zt_usm_alloc(&f.env, ZT_USM_DEVICE, 64, 0);
    ZT_OK(zeKernelSetGroupSize(k, 1, 1, 1));
    const ze_group_count_t one = {1, 1, 1};
    char host[64] = {0};
    zeil_attribution_t attr = {9, "reorder", "simple:any", "src f32 8, dst f32 8"};
    for (int round = 0; round < 2; round++) {
        /* Round 0 warms up (the list's ring, counters, interned labels);
         * round 1 is counted. */
        atomic_store(&counting, round);
        for (int i = 0; i < 500; i++) {
            zeil_attribution_push(&attr);
            ZT_OK(zeKernelSetArgumentValue(k, 0, sizeof stamp, &stamp));
            ZT_OK(zeCommandListAppendLaunchKernel(f.list, k, &one, NULL, 0, NULL));
            zeil_attribution_pop();
            ZT_OK(zeCommandListAppendMemoryCopy(f.list, buf, host, sizeof host, NULL, 0, NULL));
            ZT_OK(zeCommandListAppendBarrier(f.list, NULL, 0, NULL));
        }
        atomic_store(&counting, 0);
    }
    ck_assert_uint_eq(zeil_submission_count(f.list), 3000);
    ck_assert_msg(atomic_load(&zeil_allocations) == 0,
                  "zeil allocated %llu times in 1500 launches (all callers: %llu)",
                  (unsigned long long)atomic_load(&zeil_allocations),
                  (unsigned long long)atomic_load(&all_allocations));
    ZT_OK(zeMemFree(f.env.context, stamp));
    ZT_OK(zeMemFree(f.env.context, buf));
    ZT_OK(zeKernelDestroy(k));
    zl_close(&f);
}
END_TEST

/* The counter itself works: zeil's first launch on a new list allocates its
 * ring, and the interposer sees it. */
START_TEST(test_counter_sees_zeil_allocations)
{
    zl_fixture_t f;
    zl_open(&f);
    dl_iterate_phdr(note_zeil_code, NULL);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_STAMP);
    uint64_t *stamp = zt_usm_alloc(&f.env, ZT_USM_HOST, 64, 0);
    ZT_ARG(k, 0, stamp);
    ZT_OK(zeKernelSetGroupSize(k, 1, 1, 1));
    const ze_group_count_t one = {1, 1, 1};
    atomic_store(&counting, 1);
    ZT_OK(zeCommandListAppendLaunchKernel(f.list, k, &one, NULL, 0, NULL));
    atomic_store(&counting, 0);
    ck_assert_uint_gt(atomic_load(&zeil_allocations), 0);
    ZT_OK(zeMemFree(f.env.context, stamp));
    ZT_OK(zeKernelDestroy(k));
    zl_close(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("layer_launch_malloc");
    TCase *tc = tcase_create("malloc");
    tcase_add_test(tc, test_no_allocation_on_launch_path);
    tcase_add_test(tc, test_counter_sees_zeil_allocations);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
