/*
 * Misuse of USM (layer rules E010-E015, W040): frees of what is no USM base,
 * double frees, frees in another context, copies and fills outside their
 * allocation or into freed memory. Observables: the allocation is still
 * live and usable, the destination is untouched, the signal event stays
 * unsignalled.
 */
#include "misuse.h"
#include "test_kernels.h"

#include <zeil/zeil.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void free_of_malloc_pointer(void)
{
    zl_fixture_t f;
    zl_open(&f);
    char *heap = malloc(64);
    memset(heap, 3, 64);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(f.env.context, heap));
    ck_assert_int_eq(heap[63], 3);
    free(heap); /* still the C heap's: a driver free would make this crash */
}

static void free_of_interior_pointer(void)
{
    zl_fixture_t f;
    zl_open(&f);
    uint8_t *p = zt_usm_alloc(&f.env, ZT_USM_DEVICE, 256, 0);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(f.env.context, p + 64));
    zeil_alloc_info_t info;
    ck_assert_int_eq(zeil_lookup_pointer(p, &info), 1);
    misuse_assert_memory_usable(&f, p, 256);
}

static void double_free(void)
{
    zl_fixture_t f;
    zl_open(&f);
    void *p = zt_usm_alloc(&f.env, ZT_USM_HOST, 128, 0);
    ZT_OK(zeMemFree(f.env.context, p));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(f.env.context, p));
    /* The driver's heap is intact: new allocations work and are distinct. */
    void *q = zt_usm_alloc(&f.env, ZT_USM_HOST, 128, 0);
    void *r = zt_usm_alloc(&f.env, ZT_USM_HOST, 128, 0);
    ck_assert_ptr_ne(q, r);
    misuse_assert_memory_usable(&f, q, 128);
}

static void free_in_other_context(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_context_handle_t other = misuse_other_context(&f);
    void *p = zt_usm_alloc(&f.env, ZT_USM_SHARED, 128, 0);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(other, p));
    zeil_alloc_info_t info;
    ck_assert_int_eq(zeil_lookup_pointer(p, &info), 1);
    misuse_assert_memory_usable(&f, p, 128);
    ZT_OK(zeMemFree(f.env.context, p));
}

static void fill_past_allocation(void)
{
    zl_fixture_t f;
    zl_open(&f);
    uint8_t *p = zt_usm_alloc(&f.env, ZT_USM_HOST, 512, 0);
    memset(p, 0, 512);
    const uint8_t pattern = 9;
    ZT_RESULT(
        ZE_RESULT_ERROR_INVALID_SIZE,
        zeCommandListAppendMemoryFill(f.list, p + 256, &pattern, 1, 512, f.event[0], 0, NULL));
    ck_assert(!zl_signalled(f.event[0]));
    ck_assert_uint_eq(p[256], 0);
}

static void copy_past_destination(void)
{
    zl_fixture_t f;
    zl_open(&f);
    uint8_t *dst = zt_usm_alloc(&f.env, ZT_USM_HOST, 256, 0);
    uint8_t *src = zt_usm_alloc(&f.env, ZT_USM_HOST, 1024, 0);
    memset(dst, 0, 256);
    memset(src, 1, 1024);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_SIZE,
              zeCommandListAppendMemoryCopy(f.list, dst, src, 512, f.event[0], 0, NULL));
    ck_assert(!zl_signalled(f.event[0]));
    ck_assert_uint_eq(dst[0], 0);
}

static void copy_past_source(void)
{
    zl_fixture_t f;
    zl_open(&f);
    uint8_t *dst = zt_usm_alloc(&f.env, ZT_USM_HOST, 1024, 0);
    uint8_t *src = zt_usm_alloc(&f.env, ZT_USM_HOST, 128, 0);
    memset(dst, 0, 1024);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_SIZE,
              zeCommandListAppendMemoryCopy(f.list, dst, src + 64, 512, f.event[0], 0, NULL));
    ck_assert(!zl_signalled(f.event[0]));
    ck_assert_uint_eq(dst[0], 0);
}

/* A size whose end wraps around the address space must be refused, not
 * computed into a small range. */
static void copy_size_overflows(void)
{
    zl_fixture_t f;
    zl_open(&f);
    uint8_t *dst = zt_usm_alloc(&f.env, ZT_USM_HOST, 256, 0);
    uint8_t *src = zt_usm_alloc(&f.env, ZT_USM_HOST, 256, 0);
    memset(dst, 0, 256);
    ZT_RESULT(
        ZE_RESULT_ERROR_INVALID_SIZE,
        zeCommandListAppendMemoryCopy(f.list, dst + 16, src, SIZE_MAX - 8, f.event[0], 0, NULL));
    ck_assert(!zl_signalled(f.event[0]));
    ck_assert_uint_eq(dst[16], 0);
}

static void copy_into_freed(void)
{
    zl_fixture_t f;
    zl_open(&f);
    uint8_t *dst = zt_usm_alloc(&f.env, ZT_USM_DEVICE, 256, 0);
    uint8_t *src = zt_usm_alloc(&f.env, ZT_USM_HOST, 256, 0);
    ZT_OK(zeMemFree(f.env.context, dst));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandListAppendMemoryCopy(f.list, dst, src, 256, f.event[0], 0, NULL));
    ck_assert(!zl_signalled(f.event[0]));
    misuse_assert_list_works(f.list, f.event[1]);
}

static void fill_freed(void)
{
    zl_fixture_t f;
    zl_open(&f);
    uint8_t *p = zt_usm_alloc(&f.env, ZT_USM_SHARED, 256, 0);
    ZT_OK(zeMemFree(f.env.context, p));
    const uint8_t pattern = 1;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandListAppendMemoryFill(f.list, p, &pattern, 1, 256, f.event[0], 0, NULL));
    ck_assert(!zl_signalled(f.event[0]));
}

/* A warning: the call proceeds (the argument is set), the log says so. */
static void kernel_argument_into_freed(void)
{
    zl_fixture_t f;
    zl_open(&f);
    uint64_t *stamp;
    ze_kernel_handle_t k = misuse_stamp_kernel(&f, &stamp);
    void *gone = zt_usm_alloc(&f.env, ZT_USM_HOST, 64, 0);
    ZT_OK(zeMemFree(f.env.context, gone));
    ZT_OK(zeKernelSetArgumentValue(k, 0, sizeof gone, &gone));
    ZT_OK(zeKernelSetArgumentValue(k, 0, sizeof stamp, &stamp));
    ZT_OK(zeCommandListAppendLaunchKernel(f.list, k, &misuse_one_group, f.event[0], 0, NULL));
    ck_assert(zl_signalled(f.event[0]));
    ck_assert_uint_ne(*stamp, 0);
}

/* A device that cannot use system memory (the reference driver's can): only
 * there is a freed range certain to hold nothing the driver accepts. */
static const char *const no_system_memory[] = {"ZEIL_CPU_SYSTEM_MEMORY=0", NULL};

static const misuse_case_t cases[] = {
    {"free_of_malloc_pointer", "ZEIL-E010", free_of_malloc_pointer, NULL},
    {"free_of_interior_pointer", "ZEIL-E011", free_of_interior_pointer, NULL},
    {"double_free", "ZEIL-E012", double_free, NULL},
    {"free_in_other_context", "ZEIL-E013", free_in_other_context, NULL},
    {"fill_past_allocation", "ZEIL-E014", fill_past_allocation, NULL},
    {"copy_past_destination", "ZEIL-E014", copy_past_destination, NULL},
    {"copy_past_source", "ZEIL-E014", copy_past_source, NULL},
    {"copy_size_overflows", "ZEIL-E014", copy_size_overflows, NULL},
    {"copy_into_freed", "ZEIL-E015", copy_into_freed, no_system_memory},
    {"fill_freed", "ZEIL-E015", fill_freed, no_system_memory},
    {"kernel_argument_into_freed", "ZEIL-W040", kernel_argument_into_freed, no_system_memory},
};

misuse_case_list_t misuse_layer_usm_cases(void)
{
    return MISUSE_LIST(cases);
}
