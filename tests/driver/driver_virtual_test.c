/*
 * The reference driver's virtual memory: page size, reservations, physical
 * memory objects, mappings and access attributes, and device copies into
 * mapped pages.
 */
#include "zt.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static size_t page_size_of(const zt_env_t *env)
{
    size_t page = 0;
    ZT_OK(zeVirtualMemQueryPageSize(env->context, env->device, 1, &page));
    return page;
}

static ze_physical_mem_handle_t physical(const zt_env_t *env, size_t size)
{
    ze_physical_mem_desc_t desc = {ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, NULL, 0, size};
    ze_physical_mem_handle_t phys = NULL;
    ZT_OK(zePhysicalMemCreate(env->context, env->device, &desc, &phys));
    return phys;
}

START_TEST(page_size)
{
    zt_env_t env;
    zt_open(&env);
    size_t page = page_size_of(&env);
    ck_assert_uint_eq(page, (size_t)sysconf(_SC_PAGESIZE));
    size_t big = 0;
    ZT_OK(zeVirtualMemQueryPageSize(env.context, env.device, 1u << 30, &big));
    ck_assert_uint_eq(big % page, 0);
    ZT_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
              zeVirtualMemQueryPageSize(env.context, env.device, 0, &big));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeVirtualMemQueryPageSize(env.context, env.device, 1, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
              zeVirtualMemQueryPageSize(env.context, NULL, 1, &big));
    zt_close(&env);
}
END_TEST

START_TEST(reserve_map_and_share_pages)
{
    zt_env_t env;
    zt_open(&env);
    size_t page = page_size_of(&env);
    void *va = NULL, *vb = NULL;
    ZT_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeVirtualMemReserve(env.context, NULL, 0, &va));
    ZT_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
              zeVirtualMemReserve(env.context, NULL, page + 1, &va));
    ZT_OK(zeVirtualMemReserve(env.context, NULL, 4 * page, &va));
    ZT_OK(zeVirtualMemReserve(env.context, NULL, 2 * page, &vb));
    ck_assert_uint_eq((uintptr_t)va % page, 0);
    /* A reservation is inaccessible until mapped. */
    ze_memory_access_attribute_t access = ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE;
    size_t same = 0;
    ZT_OK(zeVirtualMemGetAccessAttribute(env.context, va, 4 * page, &access, &same));
    ck_assert_int_eq(access, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
    ck_assert_uint_eq(same, 4 * page);

    ze_physical_mem_handle_t phys = physical(&env, 2 * page);
    ZT_RESULT(
        ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
        zeVirtualMemMap(env.context, va, 2 * page, phys, 1, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
    ZT_RESULT(
        ZE_RESULT_ERROR_INVALID_ARGUMENT, /* past the physical memory */
        zeVirtualMemMap(env.context, va, 3 * page, phys, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
    ZT_OK(zeVirtualMemMap(env.context, (char *)va + page, 2 * page, phys, 0,
                          ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
    ZT_RESULT(
        ZE_RESULT_ERROR_INVALID_ARGUMENT, /* pages mapped already */
        zeVirtualMemMap(env.context, va, 2 * page, phys, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
    ZT_OK(zeVirtualMemMap(env.context, vb, 2 * page, phys, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY));
    /* Two virtual ranges, one physical memory. */
    memset((char *)va + page, 0x5a, 2 * page);
    ck_assert_int_eq(((volatile unsigned char *)vb)[2 * page - 1], 0x5a);

    ZT_OK(zeVirtualMemGetAccessAttribute(env.context, va, 4 * page, &access, &same));
    ck_assert_int_eq(access, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
    ck_assert_uint_eq(same, page);
    ZT_OK(zeVirtualMemGetAccessAttribute(env.context, (char *)va + page, 3 * page, &access, &same));
    ck_assert_int_eq(access, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
    ck_assert_uint_eq(same, 2 * page);
    ZT_OK(zeVirtualMemSetAccessAttribute(env.context, (char *)va + 2 * page, page,
                                         ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY));
    ZT_OK(zeVirtualMemGetAccessAttribute(env.context, (char *)va + 2 * page, page, &access, &same));
    ck_assert_int_eq(access, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY);
    ZT_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
              zeVirtualMemSetAccessAttribute(env.context, (char *)va + 1, page,
                                             ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY));
    ZT_RESULT(
        ZE_RESULT_ERROR_INVALID_ENUMERATION,
        zeVirtualMemSetAccessAttribute(env.context, va, page, (ze_memory_access_attribute_t)7));

    /* Mapped physical memory is in use. */
    ZT_RESULT(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, zePhysicalMemDestroy(env.context, phys));
    ZT_OK(zeVirtualMemUnmap(env.context, (char *)va + page, 2 * page));
    ZT_OK(zeVirtualMemGetAccessAttribute(env.context, va, 4 * page, &access, &same));
    ck_assert_int_eq(access, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
    ck_assert_uint_eq(same, 4 * page);
    /* Freeing a reservation unmaps what it still maps. */
    ZT_OK(zeVirtualMemFree(env.context, vb, 2 * page));
    ZT_OK(zePhysicalMemDestroy(env.context, phys));
    /* Part of a reservation, then the rest. */
    ZT_OK(zeVirtualMemFree(env.context, va, page));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeVirtualMemFree(env.context, va, page));
    ZT_OK(zeVirtualMemFree(env.context, (char *)va + page, 3 * page));
    zt_close(&env);
}
END_TEST

START_TEST(unmapped_pages_fault)
{
    zt_env_t env;
    zt_open(&env);
    size_t page = page_size_of(&env);
    void *va = NULL;
    ZT_OK(zeVirtualMemReserve(env.context, NULL, page, &va));
    ze_physical_mem_handle_t phys = physical(&env, page);
    ZT_OK(zeVirtualMemMap(env.context, va, page, phys, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
    ((volatile char *)va)[0] = 1;
    ZT_OK(zeVirtualMemUnmap(env.context, va, page));
    pid_t child = fork();
    if (child == 0) {
        ((volatile char *)va)[0] = 2; /* must fault */
        _exit(0);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(child, &status, 0), child);
    /* Killed by SIGSEGV (AddressSanitizer catches it and exits non-zero). */
    ck_assert_msg((WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV) ||
                      (WIFEXITED(status) && WEXITSTATUS(status) != 0),
                  "the write to an unmapped page did not fault (status %#x)", status);
    ZT_OK(zeVirtualMemFree(env.context, va, page));
    ZT_OK(zePhysicalMemDestroy(env.context, phys));
    zt_close(&env);
}
END_TEST

/* The device copies into and out of mapped pages like any host memory. */
START_TEST(device_copies_through_mapped_pages)
{
    zt_env_t env;
    zt_open(&env);
    size_t page = page_size_of(&env);
    void *va = NULL;
    ZT_OK(zeVirtualMemReserve(env.context, NULL, 2 * page, &va));
    ze_physical_mem_handle_t phys = physical(&env, 2 * page);
    ZT_OK(
        zeVirtualMemMap(env.context, va, 2 * page, phys, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
    unsigned char *src = zt_usm_alloc(&env, ZT_USM_DEVICE, 2 * page, 0);
    unsigned char *dst = zt_usm_alloc(&env, ZT_USM_HOST, 2 * page, 0);
    ze_command_list_handle_t list = zt_immediate_list(&env, 1);
    unsigned char pattern = 0xc3;
    ZT_OK(zeCommandListAppendMemoryFill(list, src, &pattern, 1, 2 * page, NULL, 0, NULL));
    ZT_OK(zeCommandListAppendMemoryCopy(list, va, src, 2 * page, NULL, 0, NULL));
    ZT_OK(zeCommandListAppendMemoryCopy(list, dst, va, 2 * page, NULL, 0, NULL));
    for (size_t i = 0; i < 2 * page; i++)
        if (dst[i] != pattern || ((unsigned char *)va)[i] != pattern)
            ck_abort_msg("byte %zu: %#x / %#x", i, dst[i], ((unsigned char *)va)[i]);
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeMemFree(env.context, src));
    ZT_OK(zeMemFree(env.context, dst));
    ZT_OK(zeVirtualMemFree(env.context, va, 2 * page));
    ZT_OK(zePhysicalMemDestroy(env.context, phys));
    zt_close(&env);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("driver_virtual");
    TCase *tc = tcase_create("virtual");
    tcase_add_test(tc, page_size);
    tcase_add_test(tc, reserve_map_and_share_pages);
    tcase_add_test(tc, unmapped_pages_fault);
    tcase_add_test(tc, device_copies_through_mapped_pages);
    suite_add_tcase(suite, tc);
    return zt_run_suite(suite);
}
