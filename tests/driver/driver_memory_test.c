/*
 * USM: host, device and shared allocations, alignment, properties and address
 * ranges from interior pointers, pointers the driver does not know, and the
 * spec's error codes for bad arguments.
 */
#include "zt.h"

#include <stdlib.h>
#include <string.h>

static const ze_memory_type_t expected_type[ZT_USM_KINDS] = {
    ZE_MEMORY_TYPE_HOST, ZE_MEMORY_TYPE_DEVICE, ZE_MEMORY_TYPE_SHARED};

static ze_memory_allocation_properties_t alloc_props(const zt_env_t *env, const void *ptr,
                                                     ze_device_handle_t *device)
{
    ze_memory_allocation_properties_t props = {.stype =
                                                   ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    props.type = ZE_MEMORY_TYPE_FORCE_UINT32;
    ZT_OK(zeMemGetAllocProperties(env->context, ptr, &props, device));
    return props;
}

/* Properties and range of ptr (an allocation of size bytes of kind), seen
 * from its base, its middle and its last byte. */
static void check_allocation(const zt_env_t *env, zt_usm_kind_t kind, char *ptr, size_t size)
{
    const size_t offsets[] = {0, size / 2, size - 1};
    uint64_t id = 0;
    for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; i++) {
        const char *p = ptr + offsets[i];
        ze_device_handle_t device = (ze_device_handle_t)(uintptr_t)1;
        ze_memory_allocation_properties_t props = alloc_props(env, p, &device);
        ck_assert_msg(props.type == expected_type[kind], "%s at +%zu: type %d",
                      zt_usm_kind_names[kind], offsets[i], props.type);
        ck_assert_uint_gt(props.pageSize, 0);
        if (i == 0)
            id = props.id;
        ck_assert_uint_eq(props.id, id);
        if (kind == ZT_USM_HOST)
            ck_assert_ptr_null(device); /* host memory belongs to no device */
        else
            ck_assert_ptr_eq(device, env->device);

        void *base = NULL;
        size_t range = 0;
        ZT_OK(zeMemGetAddressRange(env->context, p, &base, &range));
        ck_assert_ptr_eq(base, ptr);
        ck_assert_uint_ge(range, size);
        /* Either output is optional. */
        base = NULL;
        ZT_OK(zeMemGetAddressRange(env->context, p, &base, NULL));
        ck_assert_ptr_eq(base, ptr);
        range = 0;
        ZT_OK(zeMemGetAddressRange(env->context, p, NULL, &range));
        ck_assert_uint_ge(range, size);
    }
}

START_TEST(test_usm_kind_properties_and_ranges)
{
    zt_usm_kind_t kind = (zt_usm_kind_t)_i;
    zt_env_t env;
    zt_open(&env);
    const size_t sizes[] = {1, 13, 4096, (1u << 20) + 13};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        char *ptr = zt_usm_alloc(&env, kind, sizes[s], 0);
        check_allocation(&env, kind, ptr, sizes[s]);
        ZT_OK(zeMemFree(env.context, ptr));
    }
    zt_close(&env);
}
END_TEST

START_TEST(test_alignment_honoured)
{
    zt_usm_kind_t kind = (zt_usm_kind_t)_i;
    zt_env_t env;
    zt_open(&env);
    const size_t alignments[] = {1, 8, 64, 256, 4096, 65536, 2u << 20};
    for (size_t a = 0; a < sizeof alignments / sizeof alignments[0]; a++) {
        /* An odd size, so alignment cannot come for free from the size. */
        char *ptr = zt_usm_alloc(&env, kind, 1000 + a, alignments[a]);
        ck_assert_msg(((uintptr_t)ptr & (alignments[a] - 1)) == 0, "%s %p not aligned to %zu",
                      zt_usm_kind_names[kind], (void *)ptr, alignments[a]);
        check_allocation(&env, kind, ptr, 1000 + a);
        ZT_OK(zeMemFree(env.context, ptr));
    }
    zt_close(&env);
}
END_TEST

START_TEST(test_host_visible_memory_is_usable)
{
    zt_env_t env;
    zt_open(&env);
    const size_t size = 8u << 20;
    zt_usm_kind_t kinds[] = {ZT_USM_HOST, ZT_USM_SHARED};
    for (int k = 0; k < 2; k++) {
        uint32_t *p = zt_usm_alloc(&env, kinds[k], size, 0);
        for (size_t i = 0; i < size / 4; i++)
            p[i] = (uint32_t)(i * 2654435761u);
        for (size_t i = 0; i < size / 4; i++)
            if (p[i] != (uint32_t)(i * 2654435761u))
                ck_abort_msg("%s: word %zu reads back %x", zt_usm_kind_names[kinds[k]], i, p[i]);
        ZT_OK(zeMemFree(env.context, p));
    }
    zt_close(&env);
}
END_TEST

START_TEST(test_many_allocations_found_from_interior_pointers)
{
    /* Every allocation is found from its own interior pointer among many live
     * ones, with ids unique among them. */
    enum {
        COUNT = 600
    };
    zt_env_t env;
    zt_open(&env);
    char *ptrs[COUNT];
    size_t sizes[COUNT];
    uint64_t ids[COUNT];
    for (int i = 0; i < COUNT; i++) {
        sizes[i] = 16 + (size_t)(i * 37) % 5000;
        ptrs[i] = zt_usm_alloc(&env, (zt_usm_kind_t)(i % ZT_USM_KINDS), sizes[i], 0);
    }
    for (int i = 0; i < COUNT; i++) {
        ze_memory_allocation_properties_t props = alloc_props(&env, ptrs[i] + sizes[i] / 3, NULL);
        ck_assert_int_eq(props.type, expected_type[i % ZT_USM_KINDS]);
        ids[i] = props.id;
        for (int j = 0; j < i; j++)
            if (ids[j] == ids[i])
                ck_abort_msg("allocations %d and %d share id %llu", j, i,
                             (unsigned long long)ids[i]);
        void *base = NULL;
        ZT_OK(zeMemGetAddressRange(env.context, ptrs[i] + sizes[i] - 1, &base, NULL));
        ck_assert_ptr_eq(base, ptrs[i]);
    }
    /* Free every other one; the rest are still found, the freed are not. */
    for (int i = 0; i < COUNT; i += 2)
        ZT_OK(zeMemFree(env.context, ptrs[i]));
    for (int i = 1; i < COUNT; i += 2) {
        ze_memory_allocation_properties_t props = alloc_props(&env, ptrs[i] + 1, NULL);
        ck_assert_int_eq(props.type, expected_type[i % ZT_USM_KINDS]);
        ck_assert_uint_eq(props.id, ids[i]);
        ZT_OK(zeMemFree(env.context, ptrs[i]));
    }
    zt_close(&env);
}
END_TEST

START_TEST(test_unknown_pointers)
{
    /* "The application may query attributes of a memory allocation unrelated
     * to the context. When this occurs, the returned allocation type will be
     * ZE_MEMORY_TYPE_UNKNOWN". */
    zt_env_t env;
    zt_open(&env);
    char *heap = malloc(4096);
    int on_stack = 0;
    ck_assert_int_eq(alloc_props(&env, heap + 10, NULL).type, ZE_MEMORY_TYPE_UNKNOWN);
    ck_assert_int_eq(alloc_props(&env, &on_stack, NULL).type, ZE_MEMORY_TYPE_UNKNOWN);
    free(heap);

    char *freed = zt_usm_alloc(&env, ZT_USM_DEVICE, 4096, 0);
    ZT_OK(zeMemFree(env.context, freed));
    ck_assert_int_eq(alloc_props(&env, freed, NULL).type, ZE_MEMORY_TYPE_UNKNOWN);

    /* An allocation of another context is unrelated to this one. */
    zt_env_t other = env;
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ZT_OK(zeContextCreate(env.driver, &desc, &other.context));
    char *foreign = zt_usm_alloc(&other, ZT_USM_SHARED, 4096, 0);
    ck_assert_int_eq(alloc_props(&env, foreign + 1, NULL).type, ZE_MEMORY_TYPE_UNKNOWN);
    ck_assert_int_eq(alloc_props(&other, foreign + 1, NULL).type, ZE_MEMORY_TYPE_SHARED);
    ZT_OK(zeMemFree(other.context, foreign));
    ZT_OK(zeContextDestroy(other.context));
    zt_close(&env);
}
END_TEST

START_TEST(test_bad_arguments_refused)
{
    zt_env_t env;
    zt_open(&env);
    ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    ze_host_mem_alloc_desc_t hd = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
    void *p = NULL;
    ze_context_handle_t c = env.context;
    ze_device_handle_t d = env.device;

    ZT_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeMemAllocHost(c, &hd, 0, 0, &p));
    ZT_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeMemAllocDevice(c, &dd, 0, 0, d, &p));
    ZT_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeMemAllocShared(c, &dd, &hd, 0, 0, d, &p));
    ZT_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT, zeMemAllocHost(c, &hd, 64, 3, &p));
    ZT_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT, zeMemAllocDevice(c, &dd, 64, 48, d, &p));
    ZT_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT, zeMemAllocShared(c, &dd, &hd, 64, 6, d, &p));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeMemAllocHost(c, NULL, 64, 0, &p));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeMemAllocHost(c, &hd, 64, 0, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeMemAllocDevice(c, NULL, 64, 0, d, &p));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeMemAllocDevice(c, &dd, 64, 0, d, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeMemAllocShared(c, NULL, &hd, 64, 0, d, &p));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeMemAllocShared(c, &dd, NULL, 64, 0, d, &p));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeMemAllocShared(c, &dd, &hd, 64, 0, d, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeMemAllocDevice(c, &dd, 64, 0, NULL, &p));
    ze_device_mem_alloc_desc_t bad_flags = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0x8, 0};
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ENUMERATION, zeMemAllocDevice(c, &bad_flags, 64, 0, d, &p));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeMemFree(c, NULL));

    ze_memory_allocation_properties_t props = {.stype =
                                                   ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeMemGetAllocProperties(c, NULL, &props, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeMemGetAllocProperties(c, &props, NULL, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeMemGetAddressRange(c, NULL, NULL, NULL));
    zt_close(&env);
}
END_TEST

START_TEST(test_shared_without_device)
{
    /* "Passing nullptr as the device handle does not associate the shared
     * allocation with any device." */
    zt_env_t env;
    zt_open(&env);
    ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    ze_host_mem_alloc_desc_t hd = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
    char *p = NULL;
    ZT_OK(zeMemAllocShared(env.context, &dd, &hd, 4096, 64, NULL, (void **)&p));
    ck_assert_ptr_nonnull(p);
    ze_device_handle_t device = (ze_device_handle_t)(uintptr_t)1;
    ze_memory_allocation_properties_t props = alloc_props(&env, p + 4095, &device);
    ck_assert_int_eq(props.type, ZE_MEMORY_TYPE_SHARED);
    ck_assert_ptr_null(device);
    memset(p, 0x11, 4096);
    ZT_OK(zeMemFree(env.context, p));
    zt_close(&env);
}
END_TEST

static Suite *memory_suite(void)
{
    Suite *s = suite_create("driver_memory");
    TCase *tc = tcase_create("memory");
    tcase_add_loop_test(tc, test_usm_kind_properties_and_ranges, 0, ZT_USM_KINDS);
    tcase_add_loop_test(tc, test_alignment_honoured, 0, ZT_USM_KINDS);
    tcase_add_test(tc, test_host_visible_memory_is_usable);
    tcase_add_test(tc, test_many_allocations_found_from_interior_pointers);
    tcase_add_test(tc, test_unknown_pointers);
    tcase_add_test(tc, test_bad_arguments_refused);
    tcase_add_test(tc, test_shared_without_device);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return zt_run_suite(memory_suite());
}
