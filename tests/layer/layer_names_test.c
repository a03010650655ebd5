/*
 * How zeil names command lists and streams (zeil_set_name, zeil_track_label):
 * by the application's name, the device, the queue ordinal and index and the
 * order of creation, on the reference driver through the real loader.
 */
#include "zl.h"

#include <zeil/zeil.h>

#include <stdio.h>
#include <string.h>

#define STREAM_ID 0x5000u

static void device_name(const zl_fixture_t *f, char *name, size_t size)
{
    ze_device_properties_t props = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ck_assert_int_eq(zeDeviceGetProperties(f->env.device, &props), ZE_RESULT_SUCCESS);
    snprintf(name, size, "%s", props.name);
}

static void assert_label(uint64_t stream, ze_command_list_handle_t list, const char *expected)
{
    char label[512];
    size_t n = zeil_track_label(stream, list, label, sizeof label);
    ck_assert_str_eq(label, expected);
    ck_assert_uint_eq(n, strlen(expected));
}

START_TEST(lists_are_labelled_by_creation_order_device_and_queue)
{
    zl_fixture_t f;
    zl_open(&f); /* its list is the process's first */
    char dev[256], expected[512];
    device_name(&f, dev, sizeof dev);
    ze_command_list_handle_t immediate = zt_immediate_list(&f.env, 0);
    ze_command_list_handle_t regular = zt_regular_list(&f.env);
    snprintf(expected, sizeof expected, "list #1 on \"%s\", ordinal 0 index 0", dev);
    assert_label(0, f.list, expected);
    snprintf(expected, sizeof expected, "list #2 on \"%s\", ordinal 0 index 0", dev);
    assert_label(0, immediate, expected);
    snprintf(expected, sizeof expected, "list #3 on \"%s\", ordinal 0", dev);
    assert_label(0, regular, expected);
    zeCommandListDestroy(regular);
    zeCommandListDestroy(immediate);
    zl_close(&f);
}
END_TEST

START_TEST(streams_and_names_given_by_the_application)
{
    zl_fixture_t f;
    zl_open(&f);
    char dev[256], expected[512];
    device_name(&f, dev, sizeof dev);
    ze_command_list_handle_t list = zt_immediate_list(&f.env, 0);
    ck_assert_int_eq(zeil_bind_list_to_stream(list, STREAM_ID, NULL), 0);
    snprintf(expected, sizeof expected, "stream 1 on \"%s\", list #2", dev);
    assert_label(STREAM_ID, list, expected);
    assert_label(STREAM_ID, NULL, expected); /* the stream knows its list */

    /* A list's name shows on its stream too, until the stream has its own. */
    ck_assert_int_eq(zeil_set_name(list, "rank 0 compute"), 0);
    snprintf(expected, sizeof expected, "\"rank 0 compute\": list #2 on \"%s\", ordinal 0 index 0",
             dev);
    assert_label(0, list, expected);
    snprintf(expected, sizeof expected, "\"rank 0 compute\": stream 1 on \"%s\", list #2", dev);
    assert_label(STREAM_ID, list, expected);
    ck_assert_int_eq(zeil_set_name((const void *)(uintptr_t)STREAM_ID, "encoder"), 0);
    snprintf(expected, sizeof expected, "\"encoder\": stream 1 on \"%s\", list #2", dev);
    assert_label(STREAM_ID, list, expected);
    ck_assert_int_eq(zeil_set_name((const void *)(uintptr_t)STREAM_ID, NULL), 0);
    snprintf(expected, sizeof expected, "\"rank 0 compute\": stream 1 on \"%s\", list #2", dev);
    assert_label(STREAM_ID, list, expected);

    /* A second stream is stream 2. */
    ze_command_list_handle_t other = zt_immediate_list(&f.env, 0);
    ck_assert_int_eq(zeil_bind_list_to_stream(other, STREAM_ID + 1, "decoder"), 0);
    snprintf(expected, sizeof expected, "\"decoder\": stream 2 on \"%s\", list #3", dev);
    assert_label(STREAM_ID + 1, other, expected);

    zeCommandListDestroy(other);
    zeCommandListDestroy(list);
    zl_close(&f);
}
END_TEST

START_TEST(unknown_handles_and_small_buffers)
{
    zl_fixture_t f;
    zl_open(&f);
    char label[8] = "xxxxxxx";
    ck_assert_int_eq(zeil_set_name((const void *)0x1234, "nobody"), -1);
    ck_assert_int_eq(zeil_set_name(NULL, "nobody"), -1);
    ck_assert_uint_eq(zeil_track_label(0x77, (ze_command_list_handle_t)0x1234, label, sizeof label),
                      0);
    ck_assert_str_eq(label, "");
    /* Cut to the buffer, always terminated. */
    ck_assert_uint_eq(zeil_track_label(0, f.list, label, sizeof label), 7);
    ck_assert_str_eq(label, "list #1");
    ck_assert_uint_eq(zeil_track_label(0, f.list, NULL, 0), 0);
    zl_close(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("layer_names");
    TCase *t = tcase_create("names");
    tcase_add_test(t, lists_are_labelled_by_creation_order_device_and_queue);
    tcase_add_test(t, streams_and_names_given_by_the_application);
    tcase_add_test(t, unknown_handles_and_small_buffers);
    suite_add_tcase(s, t);
    return zt_run_suite(s);
}
