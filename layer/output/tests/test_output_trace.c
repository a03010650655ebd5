/* test_output_trace.c: the Chrome trace from scripted synthetic records:
 * exact tracks, events and counts; concurrent writers; device times; drops. */
#include "zo_test_snapshot.h"
#include "zeil_output.h"
#include "zo_trace_launch.h"
#include "zo_test_util.h"

#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void start_trace(const char *name, int timing)
{
    zo_config_t config = {.snapshot = zo_test_snapshot,
                          .log_level = ZO_LOG_WARNING,
                          .trace_file = zo_test_path(name),
                          .report = 0,
                          .timing = timing};
    zo_init(&config);
    ck_assert(zo_trace_enabled());
}

static char *describe(const char *name, const char *options)
{
    char command[1024];
    snprintf(command, sizeof command, "%s %s '%s' %s", ZO_TEST_PYTHON, ZO_TEST_CHECK_TRACE,
             zo_test_path(name), options);
    int status;
    char *out = zo_test_run(command, &status);
    ck_assert_msg(status == 0, "check_trace failed on %s", name);
    return out;
}

/* The "ts" text of the first event after `marker` in raw. */
static void ts_after(const char *raw, const char *marker, char *ts, size_t size)
{
    const char *p = strstr(raw, marker);
    ck_assert_msg(p, "no %s", marker);
    p = strstr(p, "\"ts\":");
    ck_assert_ptr_nonnull(p);
    size_t n = strcspn(p + 5, ",}");
    ck_assert_uint_lt(n, size);
    memcpy(ts, p + 5, n);
    ts[n] = 0;
}

START_TEST(scripted_sequence_has_exact_tracks_and_events)
{
    start_trace("scripted.json", 0);
    uint64_t t = zo_now_ns();
    ze_event_handle_t e1 = (ze_event_handle_t)0xe1, e2 = (ze_event_handle_t)0xe2;
    zo_trace_api_call(1, "zeInit", 0, t, t + 5000);
    zo_trace_api_call(1, "zeContextCreate", 0, t + 6000, t + 7000);
    zo_trace_api_call(2, "zeCommandListCreateImmediate", 0, t + 8000, t + 9000);
    zo_trace_track_name((ze_command_list_handle_t)0x100, 0x10, "net stream 0", 1);

    zeil_record_t r = zo_test_launch(1, 0x100, 0x10, "conv_fwd", t + 10000);
    r.primitive = "convolution";
    r.impl = "jit:gemm";
    r.memory_args = "src f32 4x3x8x8, dst f32 4x8x8x8";
    r.signal_event = e1;
    zo_trace_submission(&r);
    /* The append's own API span follows its record on the same thread. */
    zo_trace_api_call(1, "zeCommandListAppendLaunchKernel", 1, t + 10000, t + 10500);
    r = zo_test_launch(2, 0x100, 0x10, "relu_fwd", t + 11000);
    zo_trace_submission(&r);

    ze_event_handle_t waits[] = {e1, e2};
    r = zo_test_launch(3, 0x200, 0, 0, t + 12000);
    r.kind = ZEIL_RECORD_COPY;
    r.call = "zeCommandListAppendMemoryCopy";
    r.bytes = 4096;
    r.num_wait_events = 1;
    r.wait_events = waits;
    zo_trace_submission(&r);
    r = zo_test_launch(4, 0x200, 0, "gemm", t + 13000);
    r.num_wait_events = 2; /* e2 was never signalled: no arrow for it */
    r.wait_events = waits;
    r.thread = 2;
    zo_trace_submission(&r);
    r = zo_test_launch(5, 0x200, 0, 0, t + 14000);
    r.kind = ZEIL_RECORD_BARRIER;
    zo_trace_submission(&r);
    zo_trace_api_call(2, "zeCommandListHostSynchronize", 0, t + 15000, t + 90000);
    zo_finish();

    char *out = describe("scripted.json", "--spans");
    ck_assert_str_eq(out,
                     /* an arrow from conv_fwd to each of its two waiters, and
                      * one from each host append to its device span */
                     /* the stream's track, labelled before its first span,
                      * takes its number from its sort key (1000 + 1); the
                      * unlabelled list the next small one */
                     "FLOW f event 2 1 2\n"
                     "FLOW f submit 2 1 3\n"
                     "FLOW f submit 2 1001 2\n"
                     "FLOW s event 2 1001 2\n"
                     "FLOW s submit 1 1 4\n"
                     "FLOW s submit 1 2 1\n"
                     "X api 1 1 2\n"
                     "X api 1 2 2\n"
                     "X submission 1 1 1\n"
                     "X submission 2 1 3\n"
                     "X submission 2 1001 2\n"
                     "end exit 0 0\n"
                     "name 1 - host\n"
                     "name 1 1 thread 1\n"
                     "name 1 2 thread 2\n"
                     "name 2 - device\n"
                     "name 2 1 list 0x200\n"
                     "name 2 1001 net stream 0 (stream 0x10, list 0x100)\n"
                     "timing nominal 5\n"
                     /* nominal layout: back to back on a track, from the host time,
                      * waiters after their signaller (copy after conv_fwd) */
                     "span 1001 convolution (jit:gemm) [nominal] 1 +0.000 10.000 nominal\n"
                     "span 1001 relu_fwd [nominal] 2 +10.000 10.000 nominal\n"
                     "span 1 copy [nominal] 3 +10.000 10.000 nominal\n"
                     "span 1 gemm [nominal] 4 +20.000 10.000 nominal\n"
                     "span 1 barrier [nominal] 5 +30.000 10.000 nominal\n");
    free(out);
    char *raw = zo_test_read(zo_test_path("scripted.json"));
    ck_assert_ptr_nonnull(strstr(raw, "\"args\":{\"seq\":1,\"kind\":\"launch\","
                                      "\"call\":\"zeCommandListAppendLaunchKernel\","
                                      "\"kernel\":\"conv_fwd\","
                                      "\"primitive\":\"convolution\",\"impl\":\"jit:gemm\","
                                      "\"memory\":\"src f32 4x3x8x8, dst f32 4x8x8x8\","
                                      "\"group_count\":[4,2,1],\"group_size\":[64,1,1]"));
    ck_assert_ptr_nonnull(strstr(raw,
                                 "\"kind\":\"copy\",\"call\":\"zeCommandListAppendMemoryCopy\","
                                 "\"bytes\":4096"));
    /* waiters name the call numbers they wait on */
    ck_assert_ptr_nonnull(strstr(raw, "\"seq\":4,"));
    ck_assert_ptr_nonnull(strstr(strstr(raw, "\"seq\":4,"), "\"wait_events\":2,\"waits_on\":[1],"));
    /* the host append carries its call number and the span's category */
    ck_assert_ptr_nonnull(strstr(raw, "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"cat\":\"submission\","
                                      "\"name\":\"zeCommandListAppendLaunchKernel\""));
    ck_assert_ptr_nonnull(strstr(raw, "\"args\":{\"seq\":1}}"));
    /* both ends of an arrow at the start of their spans, with their category */
    char conv_ts[32], copy_ts[32], host_ts[32], flow[256];
    ts_after(raw, "\"name\":\"convolution (jit:gemm) [nominal]\"", conv_ts, sizeof conv_ts);
    ts_after(raw, "\"name\":\"copy [nominal]\"", copy_ts, sizeof copy_ts);
    ts_after(raw, "\"cat\":\"submission\",\"name\":\"zeCommandListAppendLaunchKernel\"", host_ts,
             sizeof host_ts);
    snprintf(flow, sizeof flow,
             "{\"ph\":\"s\",\"pid\":2,\"tid\":1001,\"cat\":\"submission\","
             "\"name\":\"event\",\"id\":49,\"ts\":%s}",
             conv_ts);
    ck_assert_msg(strstr(raw, flow), "missing %s", flow);
    snprintf(flow, sizeof flow,
             "{\"ph\":\"f\",\"pid\":2,\"tid\":1,\"cat\":\"submission\","
             "\"name\":\"event\",\"id\":49,\"ts\":%s,\"bp\":\"e\"}",
             copy_ts);
    ck_assert_msg(strstr(raw, flow), "missing %s", flow);
    snprintf(flow, sizeof flow,
             "{\"ph\":\"s\",\"pid\":1,\"tid\":1,\"cat\":\"submission\","
             "\"name\":\"submit\",\"id\":16,\"ts\":%s}",
             host_ts);
    ck_assert_msg(strstr(raw, flow), "missing %s", flow);
    snprintf(flow, sizeof flow,
             "{\"ph\":\"f\",\"pid\":2,\"tid\":1001,\"cat\":\"submission\","
             "\"name\":\"submit\",\"id\":16,\"ts\":%s,\"bp\":\"e\"}",
             conv_ts);
    ck_assert_msg(strstr(raw, flow), "missing %s", flow);
    ck_assert_ptr_nonnull(
        strstr(raw, "{\"ph\":\"M\",\"pid\":2,\"tid\":1001,\"name\":\"thread_sort_index\","
                    "\"args\":{\"sort_index\":1}}"));
    free(raw);
}
END_TEST

START_TEST(waiter_appended_before_its_signaller_is_laid_out_after_it)
{
    start_trace("early_waiter.json", 0);
    uint64_t t = zo_now_ns();
    ze_event_handle_t produced = (ze_event_handle_t)0xe1;
    /* As the reference sample does: the consumer's copy is appended first,
     * waiting for a kernel the producer list gets afterwards. */
    zeil_record_t r = zo_test_launch(1, 0x200, 0, 0, t);
    r.kind = ZEIL_RECORD_COPY;
    r.num_wait_events = 1;
    r.wait_events = &produced;
    zo_trace_submission(&r);
    r = zo_test_launch(2, 0x200, 0, "after_copy", t + 1000);
    zo_trace_submission(&r);
    usleep(150 * 1000); /* the flusher drains once before the signaller comes */
    r = zo_test_launch(3, 0x100, 0, "spin", t + 50000);
    r.signal_event = produced;
    zo_trace_submission(&r);
    zo_finish();
    char *out = describe("early_waiter.json", "--spans");
    ck_assert_str_eq(out, "FLOW f event 2 1 1\n"
                          "FLOW f submit 2 1 2\n"
                          "FLOW f submit 2 2 1\n"
                          "FLOW s event 2 2 1\n"
                          "FLOW s submit 1 1 3\n"
                          "X submission 2 1 2\n"
                          "X submission 2 2 1\n"
                          "end exit 0 0\n"
                          "name 1 - host\n"
                          "name 2 - device\n"
                          "name 2 1 list 0x200\n"
                          "name 2 2 list 0x100\n"
                          "timing nominal 3\n"
                          "span 2 spin [nominal] 3 +0.000 10.000 nominal\n"
                          "span 1 copy [nominal] 1 +10.000 10.000 nominal\n"
                          "span 1 after_copy [nominal] 2 +20.000 10.000 nominal\n");
    free(out);
}
END_TEST

START_TEST(waiter_whose_signaller_never_comes_is_written_anyway)
{
    start_trace("late_signal.json", 0);
    uint64_t t = zo_now_ns();
    ze_event_handle_t produced = (ze_event_handle_t)0xe1;
    zeil_record_t r = zo_test_launch(1, 0x200, 0, "waiter", t);
    r.num_wait_events = 1;
    r.wait_events = &produced;
    zo_trace_submission(&r);
    zo_flush(); /* writes what waits for a signaller, as it is */
    r = zo_test_launch(2, 0x100, 0, "late_signal", t + 50000);
    r.signal_event = produced;
    zo_trace_submission(&r);
    zo_finish();
    char *out = describe("late_signal.json", "--spans");
    /* written before its signaller came: no event arrow, only the host ones */
    ck_assert_ptr_null(strstr(out, "FLOW s event"));
    ck_assert_ptr_null(strstr(out, "FLOW f event"));
    ck_assert_ptr_nonnull(strstr(out, "X submission 2 1 1\nX submission 2 2 1\n"));
    ck_assert_ptr_nonnull(strstr(out, "span 1 waiter [nominal] 1 +0.000 10.000 nominal\n"
                                      "span 2 late_signal [nominal] 2 +50.000 10.000 nominal\n"));
    free(out);
}
END_TEST

START_TEST(hostile_kernel_names_stay_valid_json)
{
    start_trace("hostile.json", 0);
    char name[600];
    memset(name, 'x', sizeof name - 1);
    name[sizeof name - 1] = 0;
    memcpy(name, "\"},{\n\\\x01\xff", 9);
    zeil_record_t r = zo_test_launch(1, 0x100, 0, name, zo_now_ns());
    r.primitive = "\"]";
    r.impl = "\xc3";
    zo_trace_submission(&r);
    zo_trace_track_name((ze_command_list_handle_t)0x100, 0, "\"name\"\n", 1u << 20);
    zo_finish();
    char *out = describe("hostile.json", "");
    ck_assert_ptr_nonnull(strstr(out, "X submission 2 1 1\n"));
    ck_assert_ptr_nonnull(strstr(out, "name 2 1 \"name\"\n (list 0x100)\n"));
    free(out);
}
END_TEST

/* The lines of raw holding marker, with every digit blanked (times, track
 * numbers and keys differ between the two launches compared below). */
static int lines_with(const char *raw, const char *marker, char lines[][1024], int max)
{
    int n = 0;
    for (const char *p = strstr(raw, marker); p && n < max; p = strstr(p + 1, marker)) {
        const char *start = p, *end = strchr(p, '\n');
        while (start > raw && start[-1] != '\n')
            start--;
        size_t len = end ? (size_t)(end - start) : strlen(start);
        ck_assert_uint_lt(len, 1024);
        for (size_t i = 0; i < len; i++)
            lines[n][i] = start[i] >= '0' && start[i] <= '9' ? '#' : start[i];
        lines[n][len] = 0;
        n++;
        p = end ? end : p;
    }
    return n;
}

/* A launch handed over in one entry (zo_trace_launch) writes what its record
 * and its API span write when handed over one by one. */
START_TEST(launch_entry_writes_what_its_record_and_span_write)
{
    start_trace("launch_entry.json", 0);
    uint64_t t = zo_now_ns();
    zeil_record_t r = zo_test_launch(1, 0x100, 0x10, "conv_fwd", t + 1000);
    r.primitive = "convolution";
    r.impl = "jit:gemm";
    r.memory_args = "src f32 4x3x8x8";
    r.group_count[2] = 3;
    r.group_size[1] = 5;
    zo_trace_submission(&r);
    zo_trace_api_call(1, "zeCommandListAppendLaunchKernel", 0, t + 1000, t + 1500);
    static const zo_launch_shared_t shared = {
        "conv_fwd", "libdnnl", 0x10, "convolution", "jit:gemm", "src f32 4x3x8x8", {64, 5, 1}, 0};
    const uint32_t groups[3] = {4, 2, 3};
    zo_ring_t *ring = NULL; /* the launch path keeps it in calls_thread_t */
    zo_trace_launch(&ring, 1, "zeCommandListAppendLaunchKernel", 0, 2, t + 2000, t + 2500,
                    (ze_command_list_handle_t)0x100, groups, &shared);
    zo_finish();
    char *raw = zo_test_read(zo_test_path("launch_entry.json"));
    ck_assert_ptr_nonnull(raw);
    char spans[3][1024], apis[3][1024];
    ck_assert_int_eq(lines_with(raw, "\"cat\":\"submission\",\"name\":\"convolution", spans, 3), 2);
    ck_assert_str_eq(spans[0], spans[1]);
    ck_assert_ptr_nonnull(strstr(spans[1], "\"memory\":\"src f## #x#x#x#\""));
    ck_assert_int_eq(lines_with(raw, "\"name\":\"zeCommandListAppendLaunchKernel\"", apis, 3), 2);
    ck_assert_str_eq(apis[0], apis[1]);
    /* The numbers blanked above, the launch entry's own. */
    ck_assert_ptr_nonnull(strstr(raw, "\"seq\":2,"));
    ck_assert_ptr_nonnull(strstr(raw, "\"group_count\":[4,2,3],\"group_size\":[64,5,1]"));
    free(raw);
}
END_TEST

/* ---- concurrency ---- */

#define WRITER_THREADS 4
#define WRITER_LAUNCHES 2500

static void *writer(void *arg)
{
    uint32_t thread = (uint32_t)(uintptr_t)arg;
    for (uint64_t i = 0; i < WRITER_LAUNCHES; i++) {
        uint64_t t = zo_now_ns();
        zeil_record_t r = zo_test_launch(thread * 1000000 + i + 1, 0x1000 * thread, 0, "k", t);
        r.thread = thread;
        zo_trace_submission(&r);
        zo_trace_api_call(thread, "zeCommandListAppendLaunchKernel", r.seq, t, t + 100);
        /* Writers drain too now and then, all competing for the drain lock
         * with the flusher; a ring never holds more than 400 entries, so
         * nothing may be dropped (drop accounting has its own test). */
        if (i % 200 == 199)
            zo_flush();
    }
    return 0;
}

START_TEST(four_writer_threads_produce_every_event)
{
    start_trace("threads.json", 0);
    pthread_t threads[WRITER_THREADS];
    for (uintptr_t i = 0; i < WRITER_THREADS; i++)
        pthread_create(&threads[i], 0, writer, (void *)(i + 1));
    for (int i = 0; i < WRITER_THREADS; i++)
        pthread_join(threads[i], 0);
    zo_finish();
    char *out = describe("threads.json", "");
    char expected[256];
    for (int i = 1; i <= WRITER_THREADS; i++) {
        snprintf(expected, sizeof expected, "X submission 1 %d %d\n", i, WRITER_LAUNCHES);
        ck_assert_msg(strstr(out, expected), "missing '%s' in\n%s", expected, out);
        /* device tracks are numbered in order of first appearance */
        snprintf(expected, sizeof expected, " list 0x%x\n", 0x1000 * i);
        ck_assert_msg(strstr(out, expected), "missing '%s' in\n%s", expected, out);
    }
    int tracks = 0;
    for (const char *p = out; (p = strstr(p, "X submission 2 ")); p++) {
        ck_assert_int_eq(atoi(strchr(p + 15, ' ') + 1), WRITER_LAUNCHES);
        tracks++;
    }
    ck_assert_int_eq(tracks, WRITER_THREADS);
    ck_assert_ptr_nonnull(strstr(out, "end exit 0 0\n"));
    free(out);
}
END_TEST

START_TEST(full_rings_drop_and_count_instead_of_blocking)
{
    start_trace("drops.json", 0);
    const uint64_t n = 50000;
    uint64_t t = zo_now_ns();
    for (uint64_t i = 1; i <= n; i++) {
        zeil_record_t r = zo_test_launch(i, 0x100, 0, "k", t + i);
        zo_trace_submission(&r);
    }
    zo_finish();
    char *out = describe("drops.json", "");
    unsigned long long written = 0, dropped = 0;
    const char *x = strstr(out, "X submission 2 1 ");
    const char *end = strstr(out, "end exit 0 ");
    ck_assert(x && end);
    written = strtoull(x + 17, 0, 10);
    dropped = strtoull(end + 11, 0, 10);
    ck_assert_uint_eq(written + dropped, n);
    free(out);
}
END_TEST

/* ---- device times ---- */

START_TEST(device_times_place_spans_and_missing_ones_fall_back)
{
    start_trace("timing.json", 1);
    uint64_t t = zo_now_ns();
    for (uint64_t seq = 1; seq <= 3; seq++) {
        zeil_record_t r = zo_test_launch(seq, 0x100, 0x10, seq == 2 ? "untimed" : "timed", t + seq);
        zo_trace_submission(&r);
    }
    zo_trace_device_times(3, t + 500000, t + 800000);
    zo_trace_device_times(1, t + 100000, t + 300000);
    zeil_record_t r = zo_test_launch(4, 0x100, 0x10, "timed_at_once", t + 4);
    r.device_start_ns = t + 900000;
    r.device_end_ns = t + 950000;
    zo_trace_submission(&r);
    zo_trace_device_times(77, t, t + 1); /* unknown seq: ignored */
    zo_finish();
    char *out = describe("timing.json", "--spans");
    ck_assert_ptr_nonnull(strstr(out, "timing device 3\ntiming nominal 1\n"));
    /* timed spans in order of arrival; the untimed one is laid out at exit
     * after the last span of its track */
    ck_assert_ptr_nonnull(strstr(out, "span 1 timed 3 +400.000 300.000 device\n"
                                      "span 1 timed 1 +0.000 200.000 device\n"
                                      "span 1 timed_at_once 4 +800.000 50.000 device\n"
                                      "span 1 untimed [nominal] 2 +850.000 10.000 nominal\n"));
    free(out);
}
END_TEST

/* With timing on, a copy waits only for the launches before it, never for
 * device times of its own (only launches get them). */
START_TEST(timed_trace_writes_copies_in_order_without_waiting_for_the_end)
{
    start_trace("timed_copy.json", 1);
    uint64_t t = zo_now_ns();
    zeil_record_t launch = zo_test_launch(1, 0x100, 0x10, "timed", t);
    zo_trace_submission(&launch);
    zeil_record_t copy = zo_test_launch(2, 0x100, 0x10, NULL, t + 1);
    copy.kind = ZEIL_RECORD_COPY;
    copy.call = "zeCommandListAppendMemoryCopy";
    copy.bytes = 4096;
    zo_trace_submission(&copy);
    zo_flush();
    char *text = zo_test_read(zo_test_path("timed_copy.json"));
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strstr(text, "\"copy\"") == NULL,
                  "the copy was written before the launch before it");
    free(text);
    zo_trace_device_times(1, t + 100000, t + 300000);
    zo_flush();
    text = zo_test_read(zo_test_path("timed_copy.json"));
    ck_assert_ptr_nonnull(text);
    const char *span = strstr(text, "\"timed\"");
    ck_assert_ptr_nonnull(span);
    ck_assert_msg(strstr(span, "\"copy\"") != NULL, "the copy was not written after its launch");
    free(text);
    zo_finish();
}
END_TEST

START_TEST(device_times_of_another_clock_are_aligned_to_the_submission)
{
    start_trace("device_clock.json", 1);
    uint64_t t = zo_now_ns();
    const uint64_t device_clock = 5000000000000ull; /* a device counter, far from host time */
    for (uint64_t seq = 1; seq <= 2; seq++) {
        zeil_record_t r = zo_test_launch(seq, 0x100, 0, "k", t + seq * 1000);
        zo_trace_submission(&r);
    }
    zo_trace_device_times(1, device_clock, device_clock + 20000);
    zo_trace_device_times(2, device_clock + 30000, device_clock + 35000);
    zeil_record_t r = zo_test_launch(3, 0x200, 0, "host_clock", t + 1000);
    zo_trace_submission(&r);
    zo_trace_device_times(3, t + 1000, t + 2000); /* host clock: kept as it is */
    zo_finish();
    char *out = describe("device_clock.json", "--spans");
    ck_assert_ptr_nonnull(strstr(out, "span 1 k 1 +0.000 20.000 device\n"
                                      "span 1 k 2 +30.000 5.000 device\n"
                                      "span 2 host_clock 3 +0.000 1.000 device\n"));
    free(out);
}
END_TEST

START_TEST(nothing_is_written_after_finish)
{
    start_trace("late.json", 0);
    zo_finish();
    ck_assert(!zo_trace_enabled());
    zeil_record_t r = zo_test_launch(1, 0x100, 0, "late", zo_now_ns());
    zo_trace_submission(&r);
    zo_trace_api_call(1, "zeLate", 0, 1, 2);
    zo_finish();
    char *out = describe("late.json", "");
    ck_assert_ptr_null(strstr(out, "X "));
    ck_assert_ptr_nonnull(strstr(out, "end exit 0 0\n"));
    free(out);
}
END_TEST

START_TEST(forked_child_leaves_the_parents_trace_alone)
{
    start_trace("fork.json", 0);
    zeil_record_t r = zo_test_launch(1, 0x100, 0, "before_fork", zo_now_ns());
    zo_trace_submission(&r);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        r = zo_test_launch(2, 0x100, 0, "in_child", zo_now_ns());
        zo_trace_submission(&r);
        zo_finish();
        _exit(zo_trace_enabled() ? 3 : 0);
    }
    int status;
    waitpid(pid, &status, 0);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    r = zo_test_launch(3, 0x100, 0, "after_fork", zo_now_ns());
    zo_trace_submission(&r);
    zo_finish();
    char *out = describe("fork.json", "--spans");
    ck_assert_ptr_nonnull(strstr(out, "X submission 2 1 2\nend exit 0 0\n"));
    ck_assert_ptr_null(strstr(out, "in_child"));
    free(out);
}
END_TEST

static Suite *trace_suite(void)
{
    Suite *s = suite_create("output_trace");
    TCase *t = tcase_create("events");
    tcase_add_test(t, scripted_sequence_has_exact_tracks_and_events);
    tcase_add_test(t, waiter_appended_before_its_signaller_is_laid_out_after_it);
    tcase_add_test(t, waiter_whose_signaller_never_comes_is_written_anyway);
    tcase_add_test(t, hostile_kernel_names_stay_valid_json);
    tcase_add_test(t, launch_entry_writes_what_its_record_and_span_write);
    tcase_add_test(t, device_times_place_spans_and_missing_ones_fall_back);
    tcase_add_test(t, timed_trace_writes_copies_in_order_without_waiting_for_the_end);
    tcase_add_test(t, device_times_of_another_clock_are_aligned_to_the_submission);
    tcase_add_test(t, nothing_is_written_after_finish);
    tcase_add_test(t, forked_child_leaves_the_parents_trace_alone);
    suite_add_tcase(s, t);
    t = tcase_create("threads");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, four_writer_threads_produce_every_event);
    tcase_add_test(t, full_rings_drop_and_count_instead_of_blocking);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    zo_test_set_counters(0, 0, 0, 0, 0, 0, 0);
    return zo_test_run_suite(trace_suite());
}
