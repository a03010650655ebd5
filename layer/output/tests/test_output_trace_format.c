/* test_output_trace_format.c: the trace's events from fixed entries with
 * known times, against text built here with snprintf; a launch's span made
 * from its text made once (zo_launch_text) against one made from its
 * strings; numbers against printf's. */
#include "zo_test_snapshot.h"
#include "zo_buf.h"
#include "zo_trace_format.h"

#include "zo_test_util.h"

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <zeil/zeil.h>

#define BASE_NS UINT64_C(1000000000)

static const zo_trace_clock_t clock_base = {BASE_NS};

static zo_entry_t launch_entry(const zo_launch_shared_t *s)
{
    zo_entry_t e = {
        .kind = ZO_ENTRY_SUBMISSION,
        .record_kind = ZEIL_RECORD_LAUNCH,
        .thread = 3,
        .seq = 123456,
        .start_ns = BASE_NS + 7654321,
        .list = 0x100,
        .call = "zeCommandListAppendLaunchKernel",
        .shared = s,
        .name = s->kernel,
        .primitive = s->primitive,
        .impl = s->impl,
        .memory_args = s->memory_args,
        .group_count = {4, 4294967295u, 10},
    };
    memcpy(e.group_size, s->group_size, sizeof e.group_size);
    return e;
}

/* The span formatted from e's strings, then from its text made once: the
 * same bytes; returns them in out. */
static void device_span_both_ways(char *out, size_t cap, const zo_entry_t *e, uint64_t start,
                                  uint64_t end, zo_span_timing_t timing, const uint64_t *waits_on,
                                  uint32_t n)
{
    static char slow[16384], fast[16384], store_data[16384];
    zo_buf_t b, store;
    zo_buf_init(&b, slow, sizeof slow - 1);
    zo_format_device_span(&b, &clock_base, e, 1049577, start, end, timing, waits_on, n, 0);
    ck_assert(zo_buf_ok(&b));
    slow[b.len] = 0;
    zo_launch_text_t text;
    zo_buf_init(&store, store_data, sizeof store_data);
    ck_assert_int_eq(zo_format_launch_text(&store, e, &text), 0);
    zo_buf_init(&b, fast, sizeof fast - 1);
    zo_format_device_span(&b, &clock_base, e, 1049577, start, end, timing, waits_on, n, &text);
    fast[b.len] = 0;
    ck_assert_str_eq(fast, slow);
    snprintf(out, cap, "%s", fast);
}

START_TEST(launch_span_is_the_expected_text)
{
    static const zo_launch_shared_t s = {"conv_fwd", "libdnnl",         0x10,       "convolution",
                                         "jit:gemm", "src f32 4x3x8x8", {64, 5, 1}, 0};
    zo_entry_t e = launch_entry(&s);
    const uint64_t waits_on[2] = {17, UINT64_C(99999999999)};
    const uint64_t start = BASE_NS + 7654999, end = start + 1001;
    char got[4096], want[4096];
    device_span_both_ways(got, sizeof got, &e, start, end, ZO_TIMING_DEVICE, waits_on, 2);
    snprintf(want, sizeof want,
             ",\n{\"ph\":\"X\",\"pid\":2,\"tid\":1049577,\"cat\":\"submission\","
             "\"name\":\"convolution (jit:gemm)\",\"ts\":%" PRIu64 ".%03" PRIu64
             ",\"dur\":1.001,\"args\":{\"seq\":123456,\"kind\":\"launch\","
             "\"call\":\"zeCommandListAppendLaunchKernel\",\"kernel\":\"conv_fwd\","
             "\"primitive\":\"convolution\",\"impl\":\"jit:gemm\",\"memory\":\"src f32 4x3x8x8\","
             "\"group_count\":[4,4294967295,10],\"group_size\":[64,5,1],\"thread\":3,"
             "\"wait_events\":0,\"waits_on\":[17,99999999999],\"host_ts\":7654.321,"
             "\"timing\":\"device\"}}",
             (start - BASE_NS) / 1000, (start - BASE_NS) % 1000);
    ck_assert_str_eq(got, want);

    device_span_both_ways(got, sizeof got, &e, start, start + 10000, ZO_TIMING_NOMINAL, 0, 0);
    ck_assert_ptr_nonnull(strstr(got,
                                 "\"name\":\"convolution (jit:gemm) [nominal]\",\"ts\":7654.999,"
                                 "\"dur\":10.000,"));
    ck_assert_ptr_nonnull(strstr(got, "\"timing\":\"nominal: submission order, 10 us each\"}}"));
}
END_TEST

/* Names that need escaping, are cut, or are missing: the text made once
 * holds what escaping them in each span writes. */
START_TEST(launch_text_escapes_as_each_span_would)
{
    static char long_name[700];
    memset(long_name, 'k', sizeof long_name - 1);
    static const zo_launch_shared_t cases[] = {
        {"gemm \"q\"\\\n\x01\xc3\xa9\x80", 0, 0, 0, 0, 0, {1, 1, 1}, 0},
        {long_name, 0, 0, "", "impl", "", {4294967295u, 0, 7}, 0},
        {"", 0, 0, "matmul", 0, 0, {8, 8, 8}, 0},
        {0, 0, 0, 0, 0, "mem \x7f", {2, 3, 4}, 0},
        {"k", 0, 0, long_name, long_name, long_name, {1, 2, 3}, 0},
    };
    char got[16384];
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        zo_entry_t e = launch_entry(&cases[i]);
        e.num_waits = 6;
        e.waits_cut = 1;
        for (int timing = ZO_TIMING_DEVICE; timing <= ZO_TIMING_NOMINAL; timing++)
            device_span_both_ways(got, sizeof got, &e, BASE_NS + 5, BASE_NS + 4, timing, 0, 0);
    }
    zo_entry_t e = launch_entry(&cases[0]);
    device_span_both_ways(got, sizeof got, &e, BASE_NS, BASE_NS, ZO_TIMING_DEVICE, 0, 0);
    ck_assert_ptr_nonnull(
        strstr(got, "\"kernel\":\"gemm \\\"q\\\"\\\\\\u000a\\u0001\xc3\xa9\\ufffd\""));
}
END_TEST

START_TEST(api_span_and_arrows_are_the_expected_text)
{
    char out[1024], want[1024];
    zo_buf_t b;
    zo_entry_t e = {.thread = 12,
                    .start_ns = BASE_NS + 1,
                    .end_ns = BASE_NS + 123456789,
                    .call = "zeCommandListAppendLaunchKernel"};
    zo_text_piece_t call = {"\"zeCommandListAppendLaunchKernel\"", 33};
    for (int cached = 0; cached < 2; cached++) {
        zo_buf_init(&b, out, sizeof out - 1);
        zo_format_api_span(&b, &clock_base, &e, 77, 1, cached ? &call : 0);
        out[b.len] = 0;
        ck_assert_str_eq(out, ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":12,\"cat\":\"submission\","
                              "\"name\":\"zeCommandListAppendLaunchKernel\",\"ts\":0.001,"
                              "\"dur\":123456.788,\"args\":{\"seq\":77}}");
    }
    zo_buf_init(&b, out, sizeof out - 1);
    zo_format_flow(&b, &clock_base, 's', ZO_ARROW_SUBMIT, 1232, ZO_PID_HOST, 12, BASE_NS + 999);
    zo_format_flow(&b, &clock_base, 'f', ZO_ARROW_EVENT, UINT64_MAX, ZO_PID_DEVICE, 1049577,
                   UINT64_MAX);
    out[b.len] = 0;
    snprintf(want, sizeof want,
             ",\n{\"ph\":\"s\",\"pid\":1,\"tid\":12,\"cat\":\"submission\",\"name\":\"submit\","
             "\"id\":1232,\"ts\":0.999}"
             ",\n{\"ph\":\"f\",\"pid\":2,\"tid\":1049577,\"cat\":\"submission\",\"name\":\"event\","
             "\"id\":%" PRIu64 ",\"ts\":%" PRIu64 ".%03" PRIu64 ",\"bp\":\"e\"}",
             UINT64_MAX, (UINT64_MAX - BASE_NS) / 1000, (UINT64_MAX - BASE_NS) % 1000);
    ck_assert_str_eq(out, want);
    /* Without the room, an arrow is cut where the buffer ends, as any text. */
    zo_buf_init(&b, out, 20);
    zo_format_flow(&b, &clock_base, 's', ZO_ARROW_SUBMIT, 1, ZO_PID_HOST, 1, BASE_NS);
    ck_assert(!zo_buf_ok(&b));
    ck_assert_int_eq(memcmp(out, want, 20), 0);
}
END_TEST

/* Every length of number, both sides of 2^32 and the extremes. */
START_TEST(numbers_are_printf_s)
{
    uint64_t values[200];
    unsigned n = 0;
    for (uint64_t p = 1; n < 120; p *= 10) {
        values[n++] = p - 1;
        values[n++] = p;
        values[n++] = p + 1;
        values[n++] = p * 7 + 3;
        values[n++] = p * 9 + 9 * (p / 10);
        if (p > UINT64_MAX / 10)
            break;
    }
    values[n++] = UINT32_MAX;
    values[n++] = (uint64_t)UINT32_MAX + 1;
    values[n++] = UINT64_MAX;
    values[n++] = UINT64_MAX - 1;
    for (unsigned i = 0; i < n; i++) {
        char got[64], want[64];
        zo_buf_t b;
        zo_buf_init(&b, got, sizeof got - 1);
        zo_buf_u64(&b, values[i]);
        zo_buf_char(&b, ' ');
        zo_buf_us(&b, values[i]);
        zo_buf_char(&b, ' ');
        zo_buf_fixed(&b, values[i], 1000, 3);
        got[b.len] = 0;
        snprintf(want, sizeof want, "%" PRIu64 " %" PRIu64 ".%03" PRIu64 " %" PRIu64 ".%03" PRIu64,
                 values[i], values[i] / 1000, values[i] % 1000, values[i] / 1000, values[i] % 1000);
        ck_assert_str_eq(got, want);
        /* Cut where the buffer ends, as before. */
        zo_buf_init(&b, got, 3);
        zo_buf_u64(&b, values[i]);
        size_t digits = (size_t)(strchr(want, ' ') - want);
        ck_assert_uint_eq(b.len, digits < 3 ? digits : 3);
        ck_assert_int_eq(zo_buf_ok(&b), digits <= 3);
        ck_assert_int_eq(memcmp(got, want, b.len), 0);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("output_trace_format");
    TCase *t = tcase_create("events");
    tcase_add_test(t, launch_span_is_the_expected_text);
    tcase_add_test(t, launch_text_escapes_as_each_span_would);
    tcase_add_test(t, api_span_and_arrows_are_the_expected_text);
    tcase_add_test(t, numbers_are_printf_s);
    suite_add_tcase(s, t);
    return zo_test_run_suite(s);
}
