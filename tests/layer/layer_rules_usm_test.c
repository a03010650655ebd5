/*
 * USM rules: free of a non-USM pointer (E010), of an interior pointer (E011),
 * double free (E012), free in another context (E013), fill and copy ranges
 * past their allocation (E014) or into freed memory (E015), and a kernel
 * argument into freed USM (W040, a warning: the call proceeds).
 */
#include "zl.h"
#include "test_kernels.h"

#include <zeil/zeil.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ze_memory_type_t type_of(ze_context_handle_t context, const void *ptr)
{
    ze_memory_allocation_properties_t props = {.stype =
                                                   ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    ze_device_handle_t device = NULL;
    ZT_OK(zeMemGetAllocProperties(context, ptr, &props, &device));
    return props.type;
}

START_TEST(test_free_of_non_usm_refused)
{
    zt_env_t env;
    zt_open(&env);
    void *heap = malloc(64);
    char text[64];
    snprintf(text, sizeof text, "%p is not a USM allocation", heap);
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(env.context, heap));
    zl_assert_one_finding(mark, "ZEIL-E010", "zeMemFree", text, NULL);
    free(heap);
    zt_close(&env);
}
END_TEST

START_TEST(test_free_of_interior_pointer_refused)
{
    zt_env_t env;
    zt_open(&env);
    char *base = zt_usm_alloc(&env, ZT_USM_DEVICE, 256, 0);
    char text[96];
    snprintf(text, sizeof text,
             "%p is inside allocation %p (256 bytes, allocated by "
             "zeMemAllocDevice at call #",
             (void *)(base + 64), (void *)base);
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(env.context, base + 64));
    zl_assert_one_finding(mark, "ZEIL-E011", "zeMemFree", text, "not its base", NULL);
    /* The driver never freed it. */
    ck_assert_int_eq(type_of(env.context, base), ZE_MEMORY_TYPE_DEVICE);
    ZT_OK(zeMemFree(env.context, base));
    zt_close(&env);
}
END_TEST

START_TEST(test_double_free_refused)
{
    zt_env_t env;
    zt_open(&env);
    uint64_t alloc_call = zeil_call_number() + 1;
    void *ptr = zt_usm_alloc(&env, ZT_USM_HOST, 128, 0);
    uint64_t free_call = zeil_call_number() + 1;
    ZT_OK(zeMemFree(env.context, ptr));
    char text[160];
    snprintf(text, sizeof text,
             "zeMemFree: %p was already freed (allocated by zeMemAllocHost at "
             "call #%llu, freed at call #%llu)",
             ptr, (unsigned long long)alloc_call, (unsigned long long)free_call);
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(env.context, ptr));
    zl_assert_one_finding(mark, "ZEIL-E012", "zeMemFree", text, "zeil: error [ZEIL-E012]", NULL);
    ck_assert_uint_eq(zeil_rule_count("ZEIL-E012"), 1);
    ck_assert_uint_ge(zeil_error_count(), 1);
    zeil_alloc_info_t info;
    ck_assert_int_eq(zeil_lookup_pointer(ptr, &info), 2);
    ck_assert_uint_eq(info.freed_call, free_call);
    zt_close(&env);
}
END_TEST

/* A free the driver refuses (here an unknown free policy, which zeil leaves
 * to the driver) leaves the allocation live: zeil buried it before the
 * driver's call and makes it live again, as it was. */
START_TEST(test_free_refused_by_driver_stays_live)
{
    zt_env_t env;
    zt_open(&env);
    uint64_t alloc_call = zeil_call_number() + 1;
    void *ptr = zt_usm_alloc(&env, ZT_USM_HOST, 128, 0);
    ze_memory_free_ext_desc_t desc = {ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, NULL, 0x80};
    size_t mark = zl_log_mark();
    ze_result_t r = zeMemFreeExt(env.context, &desc, ptr);
    ck_assert_int_ne(r, ZE_RESULT_SUCCESS);
    zl_assert_no_error(mark);
    zeil_alloc_info_t info;
    ck_assert_int_eq(zeil_lookup_pointer((char *)ptr + 127, &info), 1);
    ck_assert_ptr_eq(info.base, ptr);
    ck_assert_uint_eq(info.size, 128);
    ck_assert_uint_eq(info.created_call, alloc_call);
    ck_assert_int_eq(type_of(env.context, ptr), ZE_MEMORY_TYPE_HOST);
    ZT_OK(zeMemFree(env.context, ptr));
    ck_assert_int_eq(zeil_lookup_pointer(ptr, &info), 2);
    ck_assert_uint_eq(zeil_rule_count("ZEIL-E012"), 0);
    zt_close(&env);
}
END_TEST

START_TEST(test_free_in_other_context_refused)
{
    zt_env_t env;
    zt_open(&env);
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t other = NULL;
    ZT_OK(zeContextCreate(env.driver, &desc, &other));
    void *ptr = zt_usm_alloc(&env, ZT_USM_HOST, 128, 0);
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(other, ptr));
    zl_assert_one_finding(mark, "ZEIL-E013", "zeMemFree", "belongs to context", "freed in context",
                          NULL);
    ck_assert_int_eq(type_of(env.context, ptr), ZE_MEMORY_TYPE_HOST);
    ZT_OK(zeMemFree(env.context, ptr));
    ZT_OK(zeContextDestroy(other));
    zt_close(&env);
}
END_TEST

START_TEST(test_fill_past_allocation_refused)
{
    zl_fixture_t f;
    zl_open(&f);
    unsigned char *buf = zt_usm_alloc(&f.env, ZT_USM_HOST, 64, 0);
    memset(buf, 0, 64);
    unsigned char pattern = 0xff;
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_SIZE,
              zeCommandListAppendMemoryFill(f.list, buf + 60, &pattern, 1, 8, f.event[0], 0, NULL));
    zl_assert_one_finding(mark, "ZEIL-E014", "zeCommandListAppendMemoryFill",
                          "+ 8 bytes ends 4 bytes past allocation", "(64 bytes)", NULL);
    ck_assert(!zl_signalled(f.event[0]));
    for (int i = 60; i < 64; i++)
        ck_assert_uint_eq(buf[i], 0);
    /* In range, the same fill reaches the driver. */
    ZT_OK(zeCommandListAppendMemoryFill(f.list, buf + 60, &pattern, 1, 4, f.event[1], 0, NULL));
    ck_assert(zl_signalled(f.event[1]));
    ck_assert_uint_eq(buf[63], 0xff);
    unsigned char source[128] = {0};
    mark = zl_log_mark();
    ZT_RESULT(
        ZE_RESULT_ERROR_INVALID_SIZE,
        zeCommandListAppendMemoryCopy(f.list, buf, source, sizeof source, f.event[2], 0, NULL));
    zl_assert_one_finding(mark, "ZEIL-E014", "zeCommandListAppendMemoryCopy", "dstptr",
                          "ends 64 bytes past", NULL);
    ck_assert(!zl_signalled(f.event[2]));
    ZT_OK(zeMemFree(f.env.context, buf));
    zl_close(&f);
}
END_TEST

START_TEST(test_copy_into_freed_memory_refused)
{
    zl_fixture_t f;
    /* A device that cannot use system memory: nothing the driver accepts can
     * lie in the freed range (layer_freed_ranges_test covers the other case). */
    zt_set_system_memory(0);
    zl_open(&f);
    void *buf = zt_usm_alloc(&f.env, ZT_USM_SHARED, 64, 0);
    ZT_OK(zeMemFree(f.env.context, buf));
    char source[16] = "abc";
    size_t mark = zl_log_mark();
    ZT_RESULT(
        ZE_RESULT_ERROR_INVALID_ARGUMENT,
        zeCommandListAppendMemoryCopy(f.list, buf, source, sizeof source, f.event[0], 0, NULL));
    zl_assert_one_finding(mark, "ZEIL-E015", "zeCommandListAppendMemoryCopy",
                          "is in freed allocation", "allocated by zeMemAllocShared", NULL);
    ck_assert(!zl_signalled(f.event[0]));
    zl_close(&f);
}
END_TEST

/* zeCommandListAppendMemoryCopyFromContext gets the copy's checks, its
 * source judged in hContextSrc: freed (E015), one byte past (E014). */
START_TEST(test_copy_from_context_checked)
{
    zl_fixture_t f;
    zt_set_system_memory(0);
    zl_open(&f);
    zt_env_t other = f.env;
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ZT_OK(zeContextCreate(f.env.driver, &desc, &other.context));
    char *src = zt_usm_alloc(&other, ZT_USM_HOST, 64, 0);
    memset(src, 7, 64);
    char *dst = zt_usm_alloc(&f.env, ZT_USM_HOST, 128, 0);
    /* valid: another context's memory, read through its own context */
    size_t mark = zl_log_mark();
    ZT_OK(zeCommandListAppendMemoryCopyFromContext(f.list, dst, other.context, src, 64, f.event[0],
                                                   0, NULL));
    zl_assert_silent(mark);
    ck_assert_int_eq(dst[63], 7);
    mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_SIZE,
              zeCommandListAppendMemoryCopyFromContext(f.list, dst, other.context, src, 65,
                                                       f.event[1], 0, NULL));
    zl_assert_one_finding(mark, "ZEIL-E014", "zeCommandListAppendMemoryCopyFromContext", "srcptr",
                          "ends 1 bytes past", NULL);
    ck_assert(!zl_signalled(f.event[1]));
    ZT_OK(zeMemFree(other.context, src));
    /* freed device memory: nothing the driver accepts can be there */
    char *gone = zt_usm_alloc(&other, ZT_USM_DEVICE, 64, 0);
    ZT_OK(zeMemFree(other.context, gone));
    mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandListAppendMemoryCopyFromContext(f.list, dst, other.context, gone, 64,
                                                       f.event[2], 0, NULL));
    zl_assert_one_finding(mark, "ZEIL-E015", "zeCommandListAppendMemoryCopyFromContext", "srcptr",
                          "is in freed allocation", NULL);
    ck_assert(!zl_signalled(f.event[2]));
    ZT_OK(zeMemFree(f.env.context, dst));
    ZT_OK(zeContextDestroy(other.context));
    zl_close(&f);
}
END_TEST

/* Every USM pointer parameter gets the checks its meaning calls for
 * (scripts/gen-wrappers, USM_PARAMS): a prefetch's range, residency's
 * range in its context, an image copy's destination. */
START_TEST(test_every_usm_parameter_checked)
{
    zl_fixture_t f;
    zt_set_system_memory(0);
    zl_open(&f);
    char *buf = zt_usm_alloc(&f.env, ZT_USM_SHARED, 64, 0);
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_SIZE, zeCommandListAppendMemoryPrefetch(f.list, buf, 65));
    zl_assert_one_finding(mark, "ZEIL-E014", "zeCommandListAppendMemoryPrefetch", "ptr",
                          "ends 1 bytes past", NULL);
    mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_SIZE,
              zeContextMakeMemoryResident(f.env.context, f.env.device, buf + 32, 64));
    zl_assert_one_finding(mark, "ZEIL-E014", "zeContextMakeMemoryResident", "ptr",
                          "ends 32 bytes past", NULL);
    char *gone = zt_usm_alloc(&f.env, ZT_USM_DEVICE, 64, 0);
    ZT_OK(zeMemFree(f.env.context, gone));
    mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandListAppendImageCopyToMemory(f.list, gone, NULL, NULL, f.event[0], 0, NULL));
    zl_assert_one_finding(mark, "ZEIL-E015", "zeCommandListAppendImageCopyToMemory", "dstptr",
                          "is in freed allocation", NULL);
    ck_assert(!zl_signalled(f.event[0]));
    ZT_OK(zeMemFree(f.env.context, buf));
    zl_close(&f);
}
END_TEST

START_TEST(test_kernel_argument_into_freed_memory_warned)
{
    zl_fixture_t f;
    /* A device that cannot use system memory: nothing the driver accepts can
     * lie in the freed range (layer_freed_ranges_test covers the other case). */
    zt_set_system_memory(0);
    zl_open(&f);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_STAMP);
    uint64_t *stamp = zt_usm_alloc(&f.env, ZT_USM_HOST, 64, 0);
    ZT_OK(zeMemFree(f.env.context, stamp));
    uint64_t *inside = stamp + 2;
    size_t mark = zl_log_mark();
    ZT_OK(zeKernelSetArgumentValue(k, 0, sizeof inside, &inside));
    zl_assert_one_finding(mark, "ZEIL-W040", "zeKernelSetArgumentValue",
                          "zeil: warning [ZEIL-W040]", "argument 0 of kernel 'stamp'",
                          "points into freed allocation", NULL);
    ck_assert_uint_eq(zeil_rule_count("ZEIL-W040"), 1);
    /* A live pointer says nothing. */
    uint64_t *live = zt_usm_alloc(&f.env, ZT_USM_HOST, 64, 0);
    mark = zl_log_mark();
    ZT_ARG(k, 0, live);
    zl_assert_silent(mark);
    ZT_OK(zeMemFree(f.env.context, live));
    ZT_OK(zeKernelDestroy(k));
    zl_close(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("layer_rules_usm");
    TCase *tc = tcase_create("usm");
    tcase_add_test(tc, test_free_of_non_usm_refused);
    tcase_add_test(tc, test_free_of_interior_pointer_refused);
    tcase_add_test(tc, test_double_free_refused);
    tcase_add_test(tc, test_free_in_other_context_refused);
    tcase_add_test(tc, test_free_refused_by_driver_stays_live);
    tcase_add_test(tc, test_fill_past_allocation_refused);
    tcase_add_test(tc, test_copy_from_context_checked);
    tcase_add_test(tc, test_every_usm_parameter_checked);
    tcase_add_test(tc, test_copy_into_freed_memory_refused);
    tcase_add_test(tc, test_kernel_argument_into_freed_memory_warned);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
