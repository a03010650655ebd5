/*
 * Memory copy and fill: 64 MiB copies between every pair of memory kinds
 * (host, device and shared USM, and plain malloc memory), unaligned copies,
 * fills with every pattern size from 1 to 128 bytes checked byte by byte, and
 * the spec's error codes.
 */
#include "zt.h"

#include <stdlib.h>
#include <string.h>

#define BIG (64u << 20)
#define KINDS (ZT_USM_KINDS + 1) /* the USM kinds and malloc */
#define KIND_MALLOC ZT_USM_KINDS

static const char *kind_name(int kind)
{
    return kind == KIND_MALLOC ? "malloc" : zt_usm_kind_names[kind];
}

static void *alloc_kind(const zt_env_t *env, int kind, size_t size)
{
    if (kind == KIND_MALLOC) {
        void *p = malloc(size);
        ck_assert_ptr_nonnull(p);
        return p;
    }
    return zt_usm_alloc(env, (zt_usm_kind_t)kind, size, 0);
}

static void free_kind(const zt_env_t *env, int kind, void *p)
{
    if (kind == KIND_MALLOC)
        free(p);
    else
        ZT_OK(zeMemFree(env->context, p));
}

static uint64_t word_at(size_t i, uint64_t seed)
{
    return (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
}

/* Copies on an asynchronous immediate list and waits for the signal. */
static void copy_and_wait(ze_command_list_handle_t list, ze_event_handle_t done, void *dst,
                          const void *src, size_t size)
{
    ZT_OK(zeEventHostReset(done));
    ZT_OK(zeCommandListAppendMemoryCopy(list, dst, src, size, done, 0, NULL));
    ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
}

START_TEST(test_big_copy_between_kinds)
{
    int src_kind = _i / KINDS, dst_kind = _i % KINDS;
    zt_env_t env;
    zt_open(&env);
    ze_command_list_handle_t list = zt_immediate_list(&env, 0);
    ze_event_pool_handle_t pool = zt_event_pool(&env, 1, 0);
    ze_event_handle_t done = zt_event(pool, 0);

    uint64_t *staging = malloc(BIG);
    ck_assert_ptr_nonnull(staging);
    const uint64_t seed = (uint64_t)_i << 56;
    for (size_t i = 0; i < BIG / 8; i++)
        staging[i] = word_at(i, seed);
    void *src = alloc_kind(&env, src_kind, BIG);
    void *dst = alloc_kind(&env, dst_kind, BIG);
    copy_and_wait(list, done, src, staging, BIG);
    copy_and_wait(list, done, dst, src, BIG);
    memset(staging, 0, BIG);
    copy_and_wait(list, done, staging, dst, BIG);
    for (size_t i = 0; i < BIG / 8; i++)
        if (staging[i] != word_at(i, seed))
            ck_abort_msg("%s -> %s: word %zu is %llx, expected %llx", kind_name(src_kind),
                         kind_name(dst_kind), i, (unsigned long long)staging[i],
                         (unsigned long long)word_at(i, seed));
    free_kind(&env, src_kind, src);
    free_kind(&env, dst_kind, dst);
    free(staging);
    ZT_OK(zeEventDestroy(done));
    ZT_OK(zeEventPoolDestroy(pool));
    ZT_OK(zeCommandListDestroy(list));
    zt_close(&env);
}
END_TEST

START_TEST(test_unaligned_copy_leaves_neighbours)
{
    enum {
        SIZE = (1 << 20) + 77
    };
    zt_env_t env;
    zt_open(&env);
    ze_command_list_handle_t list = zt_immediate_list(&env, 1);
    uint8_t *src = zt_usm_alloc(&env, ZT_USM_SHARED, SIZE, 0);
    uint8_t *dst = zt_usm_alloc(&env, ZT_USM_HOST, SIZE, 0);
    for (size_t i = 0; i < SIZE; i++)
        src[i] = (uint8_t)(i * 7 + 3);
    memset(dst, 0xEE, SIZE);
    const size_t src_off = 3, dst_off = 5, len = SIZE - 17;
    ZT_OK(zeCommandListAppendMemoryCopy(list, dst + dst_off, src + src_off, len, NULL, 0, NULL));
    for (size_t i = 0; i < SIZE; i++) {
        uint8_t expected =
            (i >= dst_off && i < dst_off + len) ? (uint8_t)((i - dst_off + src_off) * 7 + 3) : 0xEE;
        if (dst[i] != expected)
            ck_abort_msg("byte %zu is %02x, expected %02x", i, dst[i], expected);
    }
    ZT_OK(zeMemFree(env.context, src));
    ZT_OK(zeMemFree(env.context, dst));
    ZT_OK(zeCommandListDestroy(list));
    zt_close(&env);
}
END_TEST

START_TEST(test_zero_size_copy_signals)
{
    zt_env_t env;
    zt_open(&env);
    ze_command_list_handle_t list = zt_immediate_list(&env, 0);
    ze_event_pool_handle_t pool = zt_event_pool(&env, 1, 0);
    ze_event_handle_t done = zt_event(pool, 0);
    uint8_t a = 1, b = 2;
    ZT_OK(zeCommandListAppendMemoryCopy(list, &a, &b, 0, done, 0, NULL));
    ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    ck_assert_uint_eq(a, 1);
    ZT_OK(zeEventDestroy(done));
    ZT_OK(zeEventPoolDestroy(pool));
    ZT_OK(zeCommandListDestroy(list));
    zt_close(&env);
}
END_TEST

/* Fill patterns of 1, 2, 4, ... 128 bytes, into each USM kind. The region
 * starts at an offset that is a multiple of the pattern size and has guard
 * bytes on both sides; the whole buffer is read back with a copy so device
 * memory is checked the same way. */
START_TEST(test_fill_pattern_sizes)
{
    zt_usm_kind_t kind = (zt_usm_kind_t)(_i / 8);
    size_t psize = (size_t)1 << (_i % 8);
    zt_env_t env;
    zt_open(&env);
    ze_command_list_handle_t list = zt_immediate_list(&env, 1);
    const size_t offset = 3 * psize, size = psize * 4099, total = offset + size + 256;
    uint8_t *buf = zt_usm_alloc(&env, kind, total, 0);
    uint8_t *check = malloc(total);
    uint8_t guard = 0xA5;
    ZT_OK(zeCommandListAppendMemoryFill(list, buf, &guard, 1, total, NULL, 0, NULL));
    uint8_t pattern[128];
    for (size_t i = 0; i < psize; i++)
        pattern[i] = (uint8_t)(0x10 + i * 3); /* never 0xA5 */
    ZT_OK(zeCommandListAppendMemoryFill(list, buf + offset, pattern, psize, size, NULL, 0, NULL));
    ZT_OK(zeCommandListAppendMemoryCopy(list, check, buf, total, NULL, 0, NULL));
    for (size_t i = 0; i < total; i++) {
        uint8_t expected =
            (i >= offset && i < offset + size) ? pattern[(i - offset) % psize] : guard;
        if (check[i] != expected)
            ck_abort_msg("%s, pattern %zu: byte %zu is %02x, expected %02x",
                         zt_usm_kind_names[kind], psize, i, check[i], expected);
    }
    free(check);
    ZT_OK(zeMemFree(env.context, buf));
    ZT_OK(zeCommandListDestroy(list));
    zt_close(&env);
}
END_TEST

START_TEST(test_big_fill)
{
    zt_env_t env;
    zt_open(&env);
    ze_command_list_handle_t list = zt_immediate_list(&env, 0);
    ze_event_pool_handle_t pool = zt_event_pool(&env, 1, 0);
    ze_event_handle_t done = zt_event(pool, 0);
    uint8_t *buf = zt_usm_alloc(&env, ZT_USM_SHARED, BIG, 0);
    uint8_t pattern[16];
    for (int i = 0; i < 16; i++)
        pattern[i] = (uint8_t)(0xF0 - i);
    ZT_OK(zeCommandListAppendMemoryFill(list, buf, pattern, sizeof pattern, BIG, done, 0, NULL));
    ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    for (size_t i = 0; i < BIG; i++)
        if (buf[i] != pattern[i % 16])
            ck_abort_msg("byte %zu is %02x, expected %02x", i, buf[i], pattern[i % 16]);
    ZT_OK(zeMemFree(env.context, buf));
    ZT_OK(zeEventDestroy(done));
    ZT_OK(zeEventPoolDestroy(pool));
    ZT_OK(zeCommandListDestroy(list));
    zt_close(&env);
}
END_TEST

START_TEST(test_bad_arguments_refused)
{
    zt_env_t env;
    zt_open(&env);
    ze_command_list_handle_t list = zt_immediate_list(&env, 1);
    uint8_t a[8] = {0}, b[8] = {0};
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeCommandListAppendMemoryCopy(list, NULL, b, 8, NULL, 0, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeCommandListAppendMemoryCopy(list, a, NULL, 8, NULL, 0, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_SIZE,
              zeCommandListAppendMemoryCopy(list, a, b, 8, NULL, 1, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeCommandListAppendMemoryFill(list, NULL, b, 1, 8, NULL, 0, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeCommandListAppendMemoryFill(list, a, NULL, 1, 8, NULL, 0, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_SIZE,
              zeCommandListAppendMemoryFill(list, a, b, 1, 8, NULL, 2, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
              zeCommandListAppendMemoryCopy(NULL, a, b, 8, NULL, 0, NULL));
    /* Nothing of the refused commands ran. */
    for (int i = 0; i < 8; i++)
        ck_assert_uint_eq(a[i], 0);
    ZT_OK(zeCommandListDestroy(list));
    zt_close(&env);
}
END_TEST

static Suite *copy_fill_suite(void)
{
    Suite *s = suite_create("driver_copy_fill");
    TCase *tc = tcase_create("copy_fill");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_big_copy_between_kinds, 0, KINDS * KINDS);
    tcase_add_test(tc, test_unaligned_copy_leaves_neighbours);
    tcase_add_test(tc, test_zero_size_copy_signals);
    tcase_add_loop_test(tc, test_fill_pattern_sizes, 0, ZT_USM_KINDS * 8);
    tcase_add_test(tc, test_big_fill);
    tcase_add_test(tc, test_bad_arguments_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return zt_run_suite(copy_fill_suite());
}
