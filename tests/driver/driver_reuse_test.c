/*
 * The reference driver's USM arena and its reuse mode (ZEIL_CPU_REUSE=1, set
 * by the CMake for this suite): the next allocation of a size class gets the
 * address freed last, the next object of a kind the handle destroyed last,
 * and the C heap never hands out an address that was USM.
 */
#include "zt.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void free_usm(const zt_env_t *env, void *ptr)
{
    ZT_OK(zeMemFree(env->context, ptr));
}

START_TEST(usm_reuses_the_address_freed_last)
{
    zt_env_t env;
    zt_open(&env);
    for (int kind = 0; kind < ZT_USM_KINDS; kind++) {
        void *a = zt_usm_alloc(&env, (zt_usm_kind_t)kind, 1000, 0);
        void *b = zt_usm_alloc(&env, (zt_usm_kind_t)kind, 1000, 0);
        free_usm(&env, a);
        free_usm(&env, b);
        /* Last freed first, whatever the kind asked for. */
        void *c = zt_usm_alloc(&env, (zt_usm_kind_t)((kind + 1) % ZT_USM_KINDS), 900, 0);
        ck_assert_msg(c == b, "%s: got %p, expected %p (freed last)", zt_usm_kind_names[kind], c,
                      b);
        void *d = zt_usm_alloc(&env, (zt_usm_kind_t)kind, 1024, 0);
        ck_assert_ptr_eq(d, a);
        free_usm(&env, c);
        free_usm(&env, d);
    }
    zt_close(&env);
}
END_TEST

START_TEST(usm_alignment_and_sizes)
{
    zt_env_t env;
    zt_open(&env);
    static const size_t sizes[] = {1, 63, 64, 65, 4096, 100000, 3u << 20, 300u << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (size_t align = 1; align <= (1u << 16); align <<= 5) {
            void *p = zt_usm_alloc(&env, ZT_USM_SHARED, sizes[i], align);
            ck_assert_uint_eq((uintptr_t)p % (align < 64 ? 64 : align), 0);
            memset(p, 0x5a, sizes[i] < 65536 ? sizes[i] : 65536);
            ((volatile char *)p)[sizes[i] - 1] = 1;
            void *base = NULL;
            size_t size = 0;
            ZT_OK(zeMemGetAddressRange(env.context, (char *)p + sizes[i] - 1, &base, &size));
            ck_assert_ptr_eq(base, p);
            ck_assert_uint_eq(size, sizes[i]);
            free_usm(&env, p);
        }
    zt_close(&env);
}
END_TEST

/* The C heap never lands on memory that was USM: malloc of every size
 * after frees of USM of the same sizes stays outside every USM block. */
START_TEST(heap_never_gets_a_usm_address)
{
    zt_env_t env;
    zt_open(&env);
    enum {
        N = 64
    };
    uintptr_t lo[N], hi[N];
    for (int i = 0; i < N; i++) {
        size_t size = (size_t)64 << (i % 14);
        void *p = zt_usm_alloc(&env, (zt_usm_kind_t)(i % ZT_USM_KINDS), size, 0);
        lo[i] = (uintptr_t)p;
        hi[i] = lo[i] + size;
        free_usm(&env, p);
    }
    void *heap[N];
    for (int i = 0; i < N; i++) {
        size_t size = (size_t)64 << (i % 14);
        heap[i] = malloc(size);
        ck_assert_ptr_nonnull(heap[i]);
        for (int j = 0; j < N; j++)
            ck_assert_msg((uintptr_t)heap[i] + size <= lo[j] || (uintptr_t)heap[i] >= hi[j],
                          "malloc(%zu) = %p, inside freed USM [%#lx, %#lx)", size, heap[i],
                          (unsigned long)lo[j], (unsigned long)hi[j]);
    }
    for (int i = 0; i < N; i++)
        free(heap[i]);
    zt_close(&env);
}
END_TEST

/* Every object kind: destroyed, then the next of its kind has its handle. */
START_TEST(handles_reused_for_every_kind)
{
    zt_env_t env;
    zt_open(&env);
    ze_context_desc_t cdesc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t ctx[2];
    ZT_OK(zeContextCreate(env.driver, &cdesc, &ctx[0]));
    ZT_OK(zeContextDestroy(ctx[0]));
    ZT_OK(zeContextCreate(env.driver, &cdesc, &ctx[1]));
    ck_assert_ptr_eq(ctx[1], ctx[0]);
    ZT_OK(zeContextDestroy(ctx[1]));

    ze_command_queue_handle_t q = zt_queue(&env, 0);
    ZT_OK(zeCommandQueueDestroy(q));
    ze_command_queue_handle_t q2 = zt_queue(&env, 0);
    ck_assert_ptr_eq(q2, q);

    ze_fence_desc_t fdesc = {ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, 0};
    ze_fence_handle_t f, f2;
    ZT_OK(zeFenceCreate(q2, &fdesc, &f));
    ZT_OK(zeFenceDestroy(f));
    ZT_OK(zeFenceCreate(q2, &fdesc, &f2));
    ck_assert_ptr_eq(f2, f);
    ZT_OK(zeFenceDestroy(f2));
    ZT_OK(zeCommandQueueDestroy(q2));

    ze_command_list_handle_t l = zt_regular_list(&env);
    ZT_OK(zeCommandListDestroy(l));
    ze_command_list_handle_t l2 = zt_immediate_list(&env, 0);
    ck_assert_ptr_eq(l2, l);
    ZT_OK(zeCommandListDestroy(l2));

    ze_event_pool_handle_t p = zt_event_pool(&env, 2, 0);
    ze_event_handle_t e = zt_event(p, 0);
    ZT_OK(zeEventDestroy(e));
    ze_event_handle_t e2 = zt_event(p, 1);
    ck_assert_ptr_eq(e2, e);
    ZT_OK(zeEventDestroy(e2));
    ZT_OK(zeEventPoolDestroy(p));
    ze_event_pool_handle_t p2 = zt_event_pool(&env, 1, 0);
    ck_assert_ptr_eq(p2, p);
    ZT_OK(zeEventPoolDestroy(p2));

    ze_module_handle_t m = zt_load_test_module(&env);
    ze_kernel_handle_t k = zt_kernel(m, "vector_add");
    ZT_OK(zeKernelDestroy(k));
    ze_kernel_handle_t k2 = zt_kernel(m, "reduce_sum");
    ck_assert_ptr_eq(k2, k);
    ZT_OK(zeKernelDestroy(k2));
    ZT_OK(zeModuleDestroy(m));
    ze_module_handle_t m2 = zt_load_test_module(&env);
    ck_assert_ptr_eq(m2, m);
    ZT_OK(zeModuleDestroy(m2));
    zt_close(&env);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("driver_reuse");
    TCase *tc = tcase_create("reuse");
    tcase_add_test(tc, usm_reuses_the_address_freed_last);
    tcase_add_test(tc, usm_alignment_and_sizes);
    tcase_add_test(tc, heap_never_gets_a_usm_address);
    tcase_add_test(tc, handles_reused_for_every_kind);
    suite_add_tcase(suite, tc);
    return zt_run_suite(suite);
}
