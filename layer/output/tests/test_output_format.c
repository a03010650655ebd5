/* test_output_format.c: text building, JSON escaping, the exit report and
 * the summary, from known counters (no trace, no layer). */
#include "zo_test_snapshot.h"
#include "zo_buf.h"
#include "zo_report_format.h"
#include "zo_result_name.h"
#include "zo_test_util.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *buf_json(char *out, size_t cap, const char *s)
{
    zo_buf_t b;
    zo_buf_init(&b, out, cap - 1);
    zo_buf_json_str(&b, s);
    out[b.len] = 0;
    return out;
}

START_TEST(json_strings_are_escaped)
{
    char out[2048];
    ck_assert_str_eq(buf_json(out, sizeof out, "conv \"fwd\"\\x"), "\"conv \\\"fwd\\\"\\\\x\"");
    ck_assert_str_eq(buf_json(out, sizeof out, "a\nb\tc\x01"), "\"a\\u000ab\\u0009c\\u0001\"");
    ck_assert_str_eq(buf_json(out, sizeof out, "gemm \xc3\xa9t\xc3\xa9"),
                     "\"gemm \xc3\xa9t\xc3\xa9\"");
    /* invalid UTF-8: stray continuation, overlong, truncated sequence */
    ck_assert_str_eq(buf_json(out, sizeof out, "x\x80y\xc0\xafz\xe2\x82"),
                     "\"x\\ufffdy\\ufffd\\ufffdz\\ufffd\\ufffd\"");
    ck_assert_str_eq(buf_json(out, sizeof out, 0), "null");
}
END_TEST

START_TEST(long_foreign_strings_are_cut)
{
    char name[1000], out[2048];
    memset(name, 'k', sizeof name - 1);
    name[sizeof name - 1] = 0;
    buf_json(out, sizeof out, name);
    ck_assert_uint_eq(strlen(out), ZO_MAX_FOREIGN_STRING + 2 + 3);
    ck_assert_str_eq(out + strlen(out) - 4, "...\"");
}
END_TEST

START_TEST(numbers_format_exactly)
{
    char out[64];
    zo_buf_t b;
    zo_buf_init(&b, out, sizeof out - 1);
    zo_buf_fixed(&b, 1234567, 1000, 3);
    zo_buf_char(&b, ' ');
    zo_buf_fixed(&b, 1999999, 1000000, 3); /* rounds up into the next unit */
    zo_buf_char(&b, ' ');
    zo_buf_fixed(&b, 5, 1000, 3);
    zo_buf_char(&b, ' ');
    zo_buf_fixed(&b, UINT64_MAX, 1000, 1);
    zo_buf_char(&b, ' ');
    zo_buf_hex(&b, 0xdeadbeef);
    zo_buf_char(&b, ' ');
    zo_buf_u64(&b, 0);
    out[b.len] = 0;
    ck_assert_str_eq(out, "1234.567 2.000 0.005 18446744073709551.6 0xdeadbeef 0");
}
END_TEST

/* zo_result_name.c is generated from ze_api.h: the names of the first, a
 * middle and the experimental block, and nothing for a value no header names
 * (nor for the enumeration's width marker). */
START_TEST(result_names_come_from_the_headers)
{
    ck_assert_str_eq(zo_result_name(ZE_RESULT_SUCCESS), "ZE_RESULT_SUCCESS");
    ck_assert_str_eq(zo_result_name(ZE_RESULT_ERROR_INVALID_NULL_HANDLE),
                     "ZE_RESULT_ERROR_INVALID_NULL_HANDLE");
    ck_assert_str_eq(zo_result_name(ZE_RESULT_ERROR_UNKNOWN), "ZE_RESULT_ERROR_UNKNOWN");
    ck_assert_str_eq(zo_result_name(ZE_RESULT_EXP_ERROR_REMOTE_DEVICE),
                     "ZE_RESULT_EXP_ERROR_REMOTE_DEVICE");
    ck_assert_ptr_null(zo_result_name((ze_result_t)0x7123abcd));
    ck_assert_ptr_null(zo_result_name(ZE_RESULT_FORCE_UINT32));
}
END_TEST

START_TEST(full_buffer_overflows_without_writing_past_it)
{
    char out[8] = "-------";
    zo_buf_t b;
    zo_buf_init(&b, out, 4);
    zo_buf_str(&b, "abcdef");
    ck_assert(!zo_buf_ok(&b));
    ck_assert_uint_eq(b.len, 4);
    ck_assert_int_eq(memcmp(out, "abcd---", 8), 0);
}
END_TEST

/* A number that finds less room than its widest text is cut where the
 * buffer ends, as any text: its first digits, nothing past the end. */
START_TEST(numbers_without_room_are_cut_at_the_end)
{
    char out[12] = "-----------";
    zo_buf_t b;
    zo_buf_init(&b, out, 6);
    zo_buf_u64(&b, 12345678901234ull);
    ck_assert(!zo_buf_ok(&b));
    ck_assert_uint_eq(b.len, 6);
    ck_assert_int_eq(memcmp(out, "123456-----", 12), 0);
    memcpy(out, "-----------", sizeof out);
    zo_buf_init(&b, out, 5);
    zo_buf_us(&b, 987654321ull); /* 987654.321 */
    ck_assert(!zo_buf_ok(&b));
    ck_assert_uint_eq(b.len, 5);
    ck_assert_int_eq(memcmp(out, "98765------", 12), 0);
    memcpy(out, "-----------", sizeof out);
    zo_buf_init(&b, out, 11);
    zo_buf_us(&b, 987654321ull);
    ck_assert(zo_buf_ok(&b));
    ck_assert_int_eq(memcmp(out, "987654.321-", 12), 0);
}
END_TEST

/* ---- report and summary ---- */

static const zeil_kernel_stats_t known_kernels[] = {
    {.stream_id = 0x10,
     .list = (ze_command_list_handle_t)0x1000,
     .kernel = "relu_fwd",
     .primitive = "eltwise",
     .impl = "ref:any",
     .launches = 10,
     .timed_launches = 10,
     .total_device_ns = 500000,
     .max_device_ns = 90000},
    {.stream_id = 0x10,
     .list = (ze_command_list_handle_t)0x1000,
     .kernel = "conv_fwd",
     .primitive = "convolution",
     .impl = "jit:gemm",
     .launches = 10,
     .timed_launches = 10,
     .total_device_ns = 12345678,
     .max_device_ns = 2000000},
    {.stream_id = 0,
     .list = (ze_command_list_handle_t)0x2000,
     .kernel = "copy_kernel",
     .primitive = 0,
     .impl = 0,
     .launches = 3,
     .timed_launches = 0},
    {.stream_id = 0x20,
     .list = (ze_command_list_handle_t)0x3000,
     .kernel = "matmul \"big\"\n",
     .primitive = "matmul",
     .impl = "ref",
     .launches = 2,
     .timed_launches = 1,
     .total_device_ns = 3000,
     .max_device_ns = 3000},
};

static const zeil_rule_stats_t known_rules[] = {
    {.rule = "ZEIL-E001", .severity = ZEIL_SEVERITY_ERROR, .summary = "unknown handle", .count = 0},
    {.rule = "ZEIL-E012",
     .severity = ZEIL_SEVERITY_ERROR,
     .summary = "USM double free",
     .count = 2},
    {.rule = "ZEIL-W040",
     .severity = ZEIL_SEVERITY_WARNING,
     .summary = "kernel argument points into freed USM",
     .count = 1},
};

/* Track labels as the layer makes them; the third track has none. */
static const char *const known_labels[] = {
    "\"encoder\": stream 1 on \"zeil CPU 0\", list #1",
    "\"encoder\": stream 1 on \"zeil CPU 0\", list #1",
    "list #2 on \"zeil CPU 0\", ordinal 0 index 0",
    NULL,
};

static zo_report_data_t known_data(void)
{
    zo_report_data_t d = {.pid = 4242,
                          .rank = 3,
                          .kernels = known_kernels,
                          .num_kernels = 4,
                          .labels = known_labels,
                          .rules = known_rules,
                          .num_rules = 3,
                          .errors = 2,
                          .warnings = 1};
    d.live.handles[ZEIL_KIND_DRIVER] = 1;
    d.live.handles[ZEIL_KIND_DEVICE] = 1;
    d.live.handles[ZEIL_KIND_COMMAND_LIST] = 1;
    d.live.handles[ZEIL_KIND_EVENT] = 2;
    d.live.allocations = 3;
    d.live.allocation_bytes = 12288;
    return d;
}

static char *render_report(const zo_report_data_t *d)
{
    char *text = 0;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    zo_format_report_body(f, d);
    fclose(f);
    return text;
}

static char *render_summary(const zo_report_data_t *d, int signo)
{
    char *text = 0;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    zo_format_summary_body(f, d);
    char status[64];
    fwrite(status, 1, zo_format_summary_status(status, sizeof status, signo), f);
    fclose(f);
    return text;
}

static const char expected_report[] =
    "\n"
    "\"encoder\": stream 1 on \"zeil CPU 0\", list #1 (stream 0x10, list 0x1000)\n"
    "  kernel    primitive    implementation  launches  total ms  mean us\n"
    "  conv_fwd  convolution  jit:gemm              10    12.346   1234.6\n"
    "  relu_fwd  eltwise      ref:any               10     0.500     50.0\n"
    "\n"
    "list #2 on \"zeil CPU 0\", ordinal 0 index 0 (list 0x2000)\n"
    "  kernel       primitive  implementation  launches  total ms  mean us\n"
    "  copy_kernel  -          -                      3         -        -\n"
    "\n"
    "stream 0x20 (list 0x3000)\n"
    "  kernel         primitive  implementation  launches  total ms  mean us\n"
    "  matmul \"big\"?  matmul     ref                    2     0.003      3.0\n"
    "\n"
    "errors and warnings: 2 errors, 1 warning\n"
    "  rule       severity  count  summary\n"
    "  ZEIL-E012  error         2  USM double free\n"
    "  ZEIL-W040  warning       1  kernel argument points into freed USM\n"
    "\n"
    "leaks: 1 command list, 2 events; 3 USM allocations (12288 bytes)\n";

START_TEST(report_text_is_exact)
{
    zo_report_data_t d = known_data();
    char *text = render_report(&d);
    ck_assert_str_eq(text, expected_report);
    free(text);
}
END_TEST

START_TEST(report_of_a_clean_run)
{
    zo_report_data_t d = {0};
    d.live.handles[ZEIL_KIND_DRIVER] = 1;
    char *text = render_report(&d);
    ck_assert_str_eq(text, "\nno kernels were launched\n"
                           "\nerrors and warnings: 0 errors, 0 warnings\n"
                           "\nleaks: none\n");
    free(text);
}
END_TEST

static const char expected_summary[] =
    "{\n"
    "  \"zeil_version\": \"0.1.0\",\n"
    "  \"pid\": 4242,\n"
    "  \"rank\": 3,\n"
    "  \"streams\": [\n"
    "    {\"name\": \"\\\"encoder\\\": stream 1 on \\\"zeil CPU 0\\\", list #1\", "
    "\"stream\": \"0x10\", \"list\": \"0x1000\", \"kernels\": [\n"
    "        {\"kernel\": \"conv_fwd\", \"primitive\": \"convolution\", \"impl\": \"jit:gemm\", "
    "\"launches\": 10, \"total_device_ns\": 12345678, \"max_device_ns\": 2000000, "
    "\"timed_launches\": 10},\n"
    "        {\"kernel\": \"relu_fwd\", \"primitive\": \"eltwise\", \"impl\": \"ref:any\", "
    "\"launches\": 10, \"total_device_ns\": 500000, \"max_device_ns\": 90000, \"timed_launches\": "
    "10}\n"
    "    ]},\n"
    "    {\"name\": \"list #2 on \\\"zeil CPU 0\\\", ordinal 0 index 0\", "
    "\"stream\": null, \"list\": \"0x2000\", \"kernels\": [\n"
    "        {\"kernel\": \"copy_kernel\", \"primitive\": null, \"impl\": null, "
    "\"launches\": 3, \"total_device_ns\": 0, \"max_device_ns\": 0, \"timed_launches\": 0}\n"
    "    ]},\n"
    "    {\"name\": null, \"stream\": \"0x20\", \"list\": \"0x3000\", \"kernels\": [\n"
    "        {\"kernel\": \"matmul \\\"big\\\"\\u000a\", \"primitive\": \"matmul\", \"impl\": "
    "\"ref\", "
    "\"launches\": 2, \"total_device_ns\": 3000, \"max_device_ns\": 3000, \"timed_launches\": 1}\n"
    "    ]}\n"
    "  ],\n"
    "  \"rules\": [\n"
    "    {\"rule\": \"ZEIL-E012\", \"severity\": \"error\", \"count\": 2, \"summary\": \"USM "
    "double free\"},\n"
    "    {\"rule\": \"ZEIL-W040\", \"severity\": \"warning\", \"count\": 1, "
    "\"summary\": \"kernel argument points into freed USM\"}\n"
    "  ],\n"
    "  \"leaks\": {\"handles\": {\"command_list\": 1, \"event\": 2}, \"allocations\": 3, "
    "\"allocation_bytes\": 12288},\n"
    "  \"errors\": 2,\n"
    "  \"warnings\": 1,\n"
    "  \"dropped_records\": 0,\n"
    "  \"out_of_memory\": {\"objects\": 0, \"allocations\": 0, \"records\": 0, "
    "\"other\": 0, \"unchecked\": 0},\n"
    "  \"coverage\": {\"requested_version\": \"0.0\", \"driver_version\": \"0.0\", "
    "\"headers_version\": \"0.0\", \"known_version\": \"0.0\", \"intercepted\": 0, "
    "\"unchecked\": 0},\n"
    "  \"status\": \"exit\"\n"
    "}\n";

START_TEST(summary_json_is_exact)
{
    zo_report_data_t d = known_data();
    char *text = render_summary(&d, 0);
    ck_assert_str_eq(text, expected_summary);
    free(text);
}
END_TEST

static int python_loads_json(const char *text, const char *name);

/* What zeil covers of the loader's API version: one line in the report, one
 * member in the summary; no line when no loader asked for tables. */
START_TEST(coverage_is_reported)
{
    zo_report_data_t d = known_data();
    char *text = render_report(&d);
    ck_assert_msg(!strstr(text, "coverage:"), "a coverage line without a loader:\n%s", text);
    free(text);
    d.coverage = (zeil_coverage_t){ZE_MAKE_VERSION(1, 19),
                                   ZE_MAKE_VERSION(1, 17),
                                   ZE_MAKE_VERSION(1, 4),
                                   ZE_MAKE_VERSION(1, 18),
                                   96,
                                   143};
    text = render_report(&d);
    const char *line =
        "\ncoverage: the loader asked for API 1.19, the driver reports 1.17; "
        "zeil intercepts 96 of that version's entries and passes 143 entries newer than "
        "API 1.4 through unchecked (ZEIL_LOG=info lists them); entries after "
        "API 1.18 are unknown to zeil and pass through unchecked\n";
    ck_assert_msg(strstr(text, line), "no coverage line in:\n%s", text);
    free(text);
    d.coverage.unchecked = 0;
    d.coverage.requested_version = ZE_MAKE_VERSION(1, 4);
    text = render_report(&d);
    ck_assert_msg(strstr(text,
                         "of that version's entries and checks everything it intercepts of that "
                         "version\n"),
                  "%s", text);
    free(text);
    text = render_summary(&d, 0);
    ck_assert_msg(strstr(text, "\"coverage\": {\"requested_version\": \"1.4\", "
                               "\"driver_version\": \"1.17\", \"headers_version\": \"1.4\", "
                               "\"known_version\": \"1.18\", \"intercepted\": 96, "
                               "\"unchecked\": 0},"),
                  "%s", text);
    free(text);
}
END_TEST

static const zeil_dropped_counts_t some_dropped = {
    .objects = 3, .allocations = 1, .records = 40, .other = 0, .unchecked = 1};

START_TEST(out_of_memory_counts_are_reported)
{
    zo_report_data_t d = known_data();
    d.out_of_memory = some_dropped;
    char *text = render_report(&d);
    const char *line = "\nout of memory: zeil dropped 3 objects, 1 USM allocation, "
                       "40 submission records, 0 other items; 1 call passed unchecked\n";
    ck_assert_msg(strstr(text, line), "no out-of-memory line in:\n%s", text);
    free(text);
    text = render_summary(&d, 0);
    ck_assert(strstr(text, "  \"out_of_memory\": {\"objects\": 3, \"allocations\": 1, "
                           "\"records\": 40, \"other\": 0, \"unchecked\": 1},\n"));
    free(text);
}
END_TEST

/* What a process too starved for stdio still writes: counts from the stack. */
START_TEST(minimal_report_and_summary_need_no_memory)
{
    zo_report_data_t d = known_data();
    d.out_of_memory = some_dropped;
    char report[512];
    report[zo_format_report_minimal(report, sizeof report - 1, &d)] = 0;
    ck_assert_str_eq(report, "\nerrors and warnings: 2 errors, 1 warning\n"
                             "\nout of memory: zeil dropped 3 objects, 1 USM allocation, "
                             "40 submission records, 0 other items; 1 call passed unchecked\n");
    char summary[1024];
    size_t len = zo_format_summary_minimal(summary, 900, &d);
    len += zo_format_summary_status(summary + len, sizeof summary - 1 - len, 0);
    summary[len] = 0;
    ck_assert(strstr(summary, "\"incomplete\": \"out of memory\""));
    ck_assert(strstr(summary, "\"out_of_memory\": {\"objects\": 3,"));
    ck_assert(strstr(summary, "\"leaks\": {\"handles\": {\"command_list\": 1, \"event\": 2}, "
                              "\"allocations\": 3, \"allocation_bytes\": 12288},\n"));
    ck_assert(python_loads_json(summary, "minimal.json"));
}
END_TEST

static int python_loads_json(const char *text, const char *name)
{
    const char *path = zo_test_path(name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    char command[1024];
    snprintf(command, sizeof command, "%s -c 'import json,sys; json.load(open(sys.argv[1]))' '%s'",
             ZO_TEST_PYTHON, path);
    int status;
    free(zo_test_run(command, &status));
    return status == 0;
}

START_TEST(summaries_are_valid_json)
{
    zo_report_data_t d = known_data();
    char *text = render_summary(&d, 0);
    ck_assert(python_loads_json(text, "full.json"));
    free(text);
    zo_report_data_t empty = {0};
    text = render_summary(&empty, 11);
    ck_assert(strstr(text, "\"streams\": [],\n  \"rules\": [],\n") != 0);
    ck_assert(strstr(text, "\"status\": \"signal 11\"\n}\n") != 0);
    ck_assert(python_loads_json(text, "empty.json"));
    free(text);
}
END_TEST

static Suite *format_suite(void)
{
    Suite *s = suite_create("output_format");
    TCase *t = tcase_create("text");
    tcase_add_test(t, json_strings_are_escaped);
    tcase_add_test(t, long_foreign_strings_are_cut);
    tcase_add_test(t, numbers_format_exactly);
    tcase_add_test(t, result_names_come_from_the_headers);
    tcase_add_test(t, full_buffer_overflows_without_writing_past_it);
    tcase_add_test(t, numbers_without_room_are_cut_at_the_end);
    suite_add_tcase(s, t);
    t = tcase_create("report");
    tcase_add_test(t, report_text_is_exact);
    tcase_add_test(t, report_of_a_clean_run);
    tcase_add_test(t, summary_json_is_exact);
    tcase_add_test(t, coverage_is_reported);
    tcase_add_test(t, summaries_are_valid_json);
    tcase_add_test(t, out_of_memory_counts_are_reported);
    tcase_add_test(t, minimal_report_and_summary_need_no_memory);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return zo_test_run_suite(format_suite());
}
