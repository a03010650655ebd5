/*
 * Pointers inside freed USM ranges are never refused when the driver accepts
 * them at the time of the call (W016 says where they lie); the "freed"
 * findings (E012, E015, W040) stay where nothing else can be there.
 * The reference driver takes USM from an arena of its own, so the C heap
 * never hands out a freed USM address; the reuse cases say so when it does
 * not happen and then check the freed address itself.
 */
#include "zl.h"
#include "test_kernels.h"

#include <zeil/zeil.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The test's own answer to "can the host read ptr", by another route than
 * zeil's: write() from an unreadable address fails with EFAULT (the raw
 * system call: a sanitizer's write() would call the read a use after free). */
static int host_readable(const void *ptr)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    long n = syscall(SYS_write, fds[1], ptr, 1);
    int readable = n == 1 || errno != EFAULT;
    close(fds[0]);
    close(fds[1]);
    return readable;
}

/* Frees a fresh host USM allocation of size bytes and returns heap memory
 * the C heap put in its place, or null (arena driver: noted). *freed is
 * the freed base. */
static void *heap_where_usm_was(zl_fixture_t *f, size_t size, void **freed)
{
    *freed = zt_usm_alloc(&f->env, ZT_USM_HOST, size, 0);
    ZT_OK(zeMemFree(f->env.context, *freed));
    void *reused = zt_heap_reuse(*freed, size);
    if (!reused)
        fprintf(stderr, "note: the driver's USM never shares addresses with the C heap\n");
    return reused;
}

START_TEST(copy_into_heap_memory_at_freed_address_proceeds)
{
    zt_set_system_memory(1);
    zl_fixture_t f;
    zl_open(&f);
    void *freed;
    char *host = heap_where_usm_was(&f, 256, &freed);
    if (host) {
        memset(host, 0, 256);
        char source[16] = "reused by heap";
        uint64_t refused = zeil_rule_count("ZEIL-E015");
        size_t mark = zl_log_mark();
        ZT_OK(zeCommandListAppendMemoryCopy(f.list, host, source, sizeof source, f.event[0], 0,
                                            NULL));
        zl_assert_one_finding(mark, "ZEIL-W016", "zeCommandListAppendMemoryCopy",
                              "zeil: warning [ZEIL-W016]", "lies where freed allocation",
                              "allocated by zeMemAllocHost", "accepts system memory", NULL);
        ck_assert(zl_signalled(f.event[0]));
        ck_assert_str_eq(host, "reused by heap");
        ck_assert_uint_eq(zeil_rule_count("ZEIL-E015"), refused);
        free(host);
    }
    zl_close(&f);
}
END_TEST

/* Without system memory too, the host side of a copy or fill may be plain
 * host memory (drivers import or stage it), so host memory where host USM
 * was proceeds with W016. Where the C heap did not take the address, the
 * freed address itself is asked, with zero bytes so that nothing is written
 * into it: still mapped (the driver kept it), W016 the same; unmapped, E015.
 * A freed device or shared range stays E015 however mapped (the driver's own
 * memory): layer_rules_usm_test and the misuse cases copy_into_freed and
 * fill_freed hold that. */
static void transfer_where_host_usm_was(int fill)
{
    zt_set_system_memory(0);
    zl_fixture_t f;
    zl_open(&f);
    void *freed;
    char *host = heap_where_usm_was(&f, 256, &freed);
    char *target = host ? host : freed;
    size_t bytes = host ? 16 : 0;
    if (host)
        memset(host, 0, 256);
    static const char source[16] = "host memory";
    const char *api = fill ? "zeCommandListAppendMemoryFill" : "zeCommandListAppendMemoryCopy";
    size_t mark = zl_log_mark();
    ze_result_t r =
        fill ? zeCommandListAppendMemoryFill(f.list, target, "x", 1, bytes, f.event[0], 0, NULL)
             : zeCommandListAppendMemoryCopy(f.list, target, source, bytes, f.event[0], 0, NULL);
    if (host || host_readable(freed)) {
        ZT_OK(r);
        zl_assert_one_finding(mark, "ZEIL-W016", api, "lies where freed allocation",
                              "allocated by zeMemAllocHost",
                              "mapped host memory, which drivers take in copies and fills", NULL);
        ck_assert(zl_signalled(f.event[0]));
        if (host)
            ck_assert_str_eq(host, fill ? "xxxxxxxxxxxxxxxx" : "host memory");
    } else {
        ck_assert_int_eq(r, ZE_RESULT_ERROR_INVALID_ARGUMENT);
        zl_assert_one_finding(mark, "ZEIL-E015", api, "is in freed allocation", NULL);
        ck_assert(!zl_signalled(f.event[0]));
    }
    free(host);
    zl_close(&f);
}

START_TEST(copy_where_host_usm_was_proceeds_without_system_memory)
{
    transfer_where_host_usm_was(0);
}
END_TEST

START_TEST(fill_where_host_usm_was_proceeds_without_system_memory)
{
    transfer_where_host_usm_was(1);
}
END_TEST

/* On a device that uses system memory, the freed address itself is judged by
 * whether the host can read it: an unmapped range holds nothing (E015),
 * a mapped one may hold host memory (W016). 64 MiB: glibc maps it apart and
 * unmaps it on free. */
START_TEST(copy_into_freed_range_judged_by_host_mapping)
{
    zt_set_system_memory(1);
    zl_fixture_t f;
    zl_open(&f);
    size_t size = 64u << 20;
    char *gone = zt_usm_alloc(&f.env, ZT_USM_HOST, size, 0);
    ZT_OK(zeMemFree(f.env.context, gone));
    char source[16] = "abc";
    size_t mark = zl_log_mark();
    if (host_readable(gone + 4096)) {
        /* Mapped (a sanitizer keeps freed memory mapped): whatever lies there
         * may be host memory, so zeil lets the call through. Zero bytes ask
         * zeil the same question without writing into it. */
        ZT_OK(zeCommandListAppendMemoryCopy(f.list, gone + 4096, source, 0, f.event[0], 0, NULL));
        zl_assert_one_finding(mark, "ZEIL-W016", "zeCommandListAppendMemoryCopy", NULL);
    } else {
        ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  zeCommandListAppendMemoryCopy(f.list, gone + 4096, source, sizeof source,
                                                f.event[0], 0, NULL));
        zl_assert_one_finding(mark, "ZEIL-E015", "zeCommandListAppendMemoryCopy",
                              "is in freed allocation", NULL);
        ck_assert(!zl_signalled(f.event[0]));
    }
    zl_close(&f);
}
END_TEST

START_TEST(kernel_argument_at_reused_address_warns_where_it_lies)
{
    zt_set_system_memory(1);
    zl_fixture_t f;
    zl_open(&f);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_STAMP);
    void *freed;
    uint64_t *host = heap_where_usm_was(&f, 64, &freed);
    if (host) {
        *host = 0;
        uint64_t warned = zeil_rule_count("ZEIL-W040");
        size_t mark = zl_log_mark();
        ZT_ARG(k, 0, host);
        zl_assert_one_finding(mark, "ZEIL-W016", "zeKernelSetArgumentValue", "argument 0",
                              "lies where freed allocation", NULL);
        ck_assert_uint_eq(zeil_rule_count("ZEIL-W040"), warned);
        ze_group_count_t one = {1, 1, 1};
        ZT_OK(zeCommandListAppendLaunchKernel(f.list, k, &one, f.event[0], 0, NULL));
        ck_assert(zl_signalled(f.event[0]));
        ck_assert_uint_ne(*host, 0); /* the kernel wrote the heap memory */
        free(host);
    }
    ZT_OK(zeKernelDestroy(k));
    zl_close(&f);
}
END_TEST

START_TEST(kernel_argument_at_reused_address_without_system_memory_is_w040)
{
    zt_set_system_memory(0);
    zl_fixture_t f;
    zl_open(&f);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_STAMP);
    void *freed;
    uint64_t *host = heap_where_usm_was(&f, 64, &freed);
    uint64_t *target = host ? host : freed;
    uint64_t reused = zeil_rule_count("ZEIL-W016");
    size_t mark = zl_log_mark();
    ZT_ARG(k, 0, target);
    zl_assert_one_finding(mark, "ZEIL-W040", "zeKernelSetArgumentValue",
                          "points into freed allocation", NULL);
    ck_assert_uint_eq(zeil_rule_count("ZEIL-W016"), reused);
    free(host);
    ZT_OK(zeKernelDestroy(k));
    zl_close(&f);
}
END_TEST

/* zeMemFree accepts USM only: heap memory at a freed address is still a
 * double free, whatever the device accepts, and the heap memory is left
 * alone. */
START_TEST(free_of_heap_memory_at_freed_address_is_double_free)
{
    for (int system_memory = 1; system_memory >= 0; system_memory--) {
        zt_set_system_memory(system_memory);
        zl_fixture_t f;
        zl_open(&f);
        void *freed;
        char *host = heap_where_usm_was(&f, 128, &freed);
        char *target = host ? host : freed;
        if (host)
            strcpy(host, "still mine");
        size_t mark = zl_log_mark();
        ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(f.env.context, target));
        zl_assert_one_finding(mark, "ZEIL-E012", "zeMemFree", "was already freed", NULL);
        if (host) {
            ck_assert_str_eq(host, "still mine");
            free(host);
        }
        zl_close(&f);
    }
}
END_TEST

/* A new USM allocation at the freed address is live: nothing to say. */
START_TEST(usm_reallocated_at_freed_address_is_silent)
{
    zt_set_system_memory(0);
    zl_fixture_t f;
    zl_open(&f);
    void *first = zt_usm_alloc(&f.env, ZT_USM_HOST, 256, 0);
    ZT_OK(zeMemFree(f.env.context, first));
    void *second = zt_usm_alloc(&f.env, ZT_USM_HOST, 256, 0);
    char source[16] = "abc";
    size_t mark = zl_log_mark();
    ZT_OK(
        zeCommandListAppendMemoryCopy(f.list, second, source, sizeof source, f.event[0], 0, NULL));
    zl_assert_silent(mark);
    ZT_OK(zeMemFree(f.env.context, second));
    zl_close(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("layer_freed_ranges");
    TCase *tc = tcase_create("freed_ranges");
    tcase_add_test(tc, copy_into_heap_memory_at_freed_address_proceeds);
    tcase_add_test(tc, copy_where_host_usm_was_proceeds_without_system_memory);
    tcase_add_test(tc, fill_where_host_usm_was_proceeds_without_system_memory);
    tcase_add_test(tc, copy_into_freed_range_judged_by_host_mapping);
    tcase_add_test(tc, kernel_argument_at_reused_address_warns_where_it_lies);
    tcase_add_test(tc, kernel_argument_at_reused_address_without_system_memory_is_w040);
    tcase_add_test(tc, free_of_heap_memory_at_freed_address_is_double_free);
    tcase_add_test(tc, usm_reallocated_at_freed_address_is_silent);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
