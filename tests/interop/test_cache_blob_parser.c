/* The cache blob parser as a pure function: round trip, every truncation,
 * every single-byte corruption, and each kind of ID mismatch. */
#include <stdlib.h>
#include <string.h>

#include "cache_blob.h"
#include "zt.h"

static cache_blob_id_t sample_id(void)
{
    cache_blob_id_t id;
    memset(&id, 0, sizeof id);
    id.format_version = CACHE_BLOB_FORMAT_VERSION;
    for (int i = 0; i < CACHE_BLOB_UUID_SIZE; i++)
        id.device_uuid[i] = (uint8_t)(0xa0 + i);
    id.driver_version = 0x10002;
    id.dnnl_major = 2, id.dnnl_minor = 6, id.dnnl_patch = 3;
    strcpy(id.dnnl_hash, "N/A");
    strcpy(id.device_name, "zeil test device");
    return id;
}

static uint8_t *sample_blob(const uint8_t *binary, size_t binary_size, size_t *size)
{
    cache_blob_id_t id = sample_id();
    *size = cache_blob_size(binary_size);
    uint8_t *blob = malloc(*size);
    ck_assert_ptr_nonnull(blob);
    cache_blob_encode(&id, binary, binary_size, blob);
    return blob;
}

START_TEST(round_trip_returns_the_binary_and_id)
{
    const uint8_t binary[] = {0x7f, 'E', 'L', 'F', 1, 2, 3, 4, 5};
    size_t size = 0;
    uint8_t *blob = sample_blob(binary, sizeof binary, &size);
    cache_blob_view_t view;
    ck_assert_int_eq(cache_blob_parse(blob, size, &view, NULL, 0), CACHE_BLOB_OK);
    ck_assert_uint_eq(view.binary_size, sizeof binary);
    ck_assert_mem_eq(view.binary, binary, sizeof binary);
    cache_blob_id_t here = sample_id();
    ck_assert_int_eq(cache_blob_id_compare(&view.id, &here, NULL, 0), CACHE_BLOB_MATCH);
    ck_assert_str_eq(view.id.device_name, "zeil test device");
    free(blob);
}
END_TEST

START_TEST(id_round_trip)
{
    cache_blob_id_t id = sample_id(), back;
    uint8_t bytes[CACHE_BLOB_ID_SIZE];
    cache_blob_id_encode(&id, bytes);
    ck_assert_int_eq(cache_blob_id_decode(bytes, sizeof bytes, &back), 0);
    ck_assert_int_eq(cache_blob_id_compare(&back, &id, NULL, 0), CACHE_BLOB_MATCH);
    ck_assert_int_eq(cache_blob_id_decode(bytes, sizeof bytes - 1, &back), -1);
}
END_TEST

START_TEST(every_truncation_is_refused)
{
    const uint8_t binary[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
    size_t size = 0;
    uint8_t *blob = sample_blob(binary, sizeof binary, &size);
    for (size_t len = 0; len < size; len++) {
        /* A copy of exactly len bytes, so ASan sees any read past it. */
        uint8_t *cut = malloc(len ? len : 1);
        memcpy(cut, blob, len);
        cache_blob_view_t view;
        char why[256] = "";
        cache_blob_status_t status = cache_blob_parse(cut, len, &view, why, sizeof why);
        ck_assert_msg(status != CACHE_BLOB_OK, "truncated at %zu accepted", len);
        ck_assert_msg(why[0] != 0, "no reason given at %zu", len);
        free(cut);
    }
    free(blob);
}
END_TEST

START_TEST(every_flipped_byte_is_refused)
{
    const uint8_t binary[] = {9, 8, 7, 6, 5};
    size_t size = 0;
    uint8_t *blob = sample_blob(binary, sizeof binary, &size);
    for (size_t at = 0; at < size; at++) {
        for (int bit = 0; bit < 8; bit += 3) {
            blob[at] ^= (uint8_t)(1u << bit);
            cache_blob_view_t view;
            cache_blob_status_t status = cache_blob_parse(blob, size, &view, NULL, 0);
            ck_assert_msg(status != CACHE_BLOB_OK, "flip of bit %d at %zu accepted", bit, at);
            blob[at] ^= (uint8_t)(1u << bit);
        }
    }
    free(blob);
}
END_TEST

START_TEST(extra_bytes_and_bad_sizes_are_refused)
{
    size_t size = 0;
    uint8_t *blob = sample_blob((const uint8_t *)"abc", 3, &size);
    uint8_t *longer = calloc(1, size + 4);
    memcpy(longer, blob, size);
    cache_blob_view_t view;
    ck_assert_int_eq(cache_blob_parse(longer, size + 4, &view, NULL, 0), CACHE_BLOB_BAD_LAYOUT);
    /* A binary size near SIZE_MAX must not wrap around. */
    memset(blob + 16, 0xff, 8);
    ck_assert_int_eq(cache_blob_parse(blob, size, &view, NULL, 0), CACHE_BLOB_TRUNCATED);
    ck_assert_int_eq(cache_blob_parse(NULL, 0, &view, NULL, 0), CACHE_BLOB_TRUNCATED);
    free(longer);
    free(blob);
}
END_TEST

START_TEST(other_format_version_is_named)
{
    size_t size = 0;
    uint8_t *blob = sample_blob((const uint8_t *)"x", 1, &size);
    blob[8] = (uint8_t)(CACHE_BLOB_FORMAT_VERSION + 1);
    cache_blob_view_t view;
    char why[256];
    ck_assert_int_eq(cache_blob_parse(blob, size, &view, why, sizeof why), CACHE_BLOB_OTHER_FORMAT);
    ck_assert_ptr_nonnull(strstr(why, "format version"));
    memcpy(blob, "ZEILBLOX", 8);
    ck_assert_int_eq(cache_blob_parse(blob, size, &view, NULL, 0), CACHE_BLOB_BAD_MAGIC);
    free(blob);
}
END_TEST

START_TEST(id_mismatches_are_classified)
{
    cache_blob_id_t here = sample_id(), other;
    char why[512];
    other = here, other.device_uuid[3] ^= 1;
    ck_assert_int_eq(cache_blob_id_compare(&other, &here, why, sizeof why),
                     CACHE_BLOB_OTHER_DEVICE);
    ck_assert_ptr_nonnull(strstr(why, "zeil test device"));
    other = here, strcpy(other.device_name, "another");
    ck_assert_int_eq(cache_blob_id_compare(&other, &here, NULL, 0), CACHE_BLOB_OTHER_DEVICE);
    other = here, other.driver_version++;
    ck_assert_int_eq(cache_blob_id_compare(&other, &here, NULL, 0), CACHE_BLOB_OTHER_DRIVER);
    other = here, other.dnnl_patch = 2;
    ck_assert_int_eq(cache_blob_id_compare(&other, &here, why, sizeof why), CACHE_BLOB_OTHER_DNNL);
    ck_assert_ptr_nonnull(strstr(why, "2.6.2"));
    other = here, strcpy(other.dnnl_hash, "abc");
    ck_assert_int_eq(cache_blob_id_compare(&other, &here, NULL, 0), CACHE_BLOB_OTHER_DNNL);
    other = here, other.format_version = 7;
    ck_assert_int_eq(cache_blob_id_compare(&other, &here, NULL, 0), CACHE_BLOB_OTHER_ZEIL);
}
END_TEST

START_TEST(unterminated_id_strings_are_refused)
{
    size_t size = 0;
    uint8_t *blob = sample_blob((const uint8_t *)"x", 1, &size);
    cache_blob_id_t id;
    uint8_t bytes[CACHE_BLOB_ID_SIZE];
    memcpy(bytes, blob + CACHE_BLOB_HEADER_SIZE, sizeof bytes);
    memset(bytes + CACHE_BLOB_ID_SIZE - CACHE_BLOB_NAME_SIZE, 'a', CACHE_BLOB_NAME_SIZE);
    ck_assert_int_eq(cache_blob_id_decode(bytes, sizeof bytes, &id), -1);
    free(blob);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interop_cache_blob_parser");
    TCase *tc = tcase_create("parser");
    tcase_add_test(tc, round_trip_returns_the_binary_and_id);
    tcase_add_test(tc, id_round_trip);
    tcase_add_test(tc, every_truncation_is_refused);
    tcase_add_test(tc, every_flipped_byte_is_refused);
    tcase_add_test(tc, extra_bytes_and_bad_sizes_are_refused);
    tcase_add_test(tc, other_format_version_is_named);
    tcase_add_test(tc, id_mismatches_are_classified);
    tcase_add_test(tc, unterminated_id_strings_are_refused);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
