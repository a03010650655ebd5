/* test_output_crash.c: what a dying process leaves behind: a fatal signal
 * completes the trace, summary and report from the handler; SIGKILL leaves
 * a trace prefix that zeil-report still reads. */
#include "zo_test_snapshot.h"
#include "zeil_output.h"
#include "zo_test_util.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILD_LAUNCHES 300
#define CHILD_CALLS 50

static const zeil_kernel_stats_t child_kernels[] = {
    {.stream_id = 0x10,
     .list = (ze_command_list_handle_t)0x100,
     .kernel = "conv_fwd",
     .primitive = "convolution",
     .impl = "jit",
     .launches = CHILD_LAUNCHES},
};

/* In the child: trace, summary and report on, records made, then `die`. */
static void child_records_then(void (*die)(void), int wait_for_snapshot, int ready_fd)
{
    zo_test_set_counters(child_kernels, 1, 0, 0, 0, 0, 0);
    zo_config_t config = {.snapshot = zo_test_snapshot,
                          .log_level = ZO_LOG_WARNING,
                          .trace_file = zo_test_path("trace.json"),
                          .report = 1,
                          .report_file = zo_test_path("report.txt"),
                          .summary_file = zo_test_path("summary.json")};
    zo_init(&config);
    uint64_t t = zo_now_ns();
    for (uint64_t i = 1; i <= CHILD_LAUNCHES; i++) {
        zeil_record_t r = zo_test_launch(i, 0x100, 0x10, "conv_fwd", t + i * 1000);
        zo_trace_submission(&r);
        if (i <= CHILD_CALLS)
            zo_trace_api_call(1, "zeCommandListAppendLaunchKernel", 0, t + i * 1000,
                              t + i * 1000 + 500);
    }
    if (wait_for_snapshot)
        usleep(1300 * 1000); /* one report snapshot (every second) */
    if (ready_fd >= 0) {
        usleep(300 * 1000); /* three flush intervals */
        (void)!write(ready_fd, "r", 1);
    }
    die();
    _exit(0);
}

/* A real fault (not raise): a write to a page that allows no access. */
static void write_to_protected_page(void)
{
    volatile int *page = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    *page = 1;
}

static void call_abort(void)
{
    abort();
}

static void wait_forever(void)
{
    for (;;)
        pause();
}

static int run_child(void (*die)(void), int wait_for_snapshot)
{
    zo_test_dir(); /* before fork: parent and child share it */
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        child_records_then(die, wait_for_snapshot, -1);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFSIGNALED(status));
    return WTERMSIG(status);
}

static char *describe(int recover)
{
    int status;
    char *out = zo_test_describe_trace(zo_test_path("trace.json"), recover, &status);
    ck_assert_msg(status == 0, "the trace does not load%s", recover ? " even recovered" : "");
    return out;
}

START_TEST(segfault_leaves_complete_trace_summary_and_report)
{
    ck_assert_int_eq(run_child(write_to_protected_page, 1), SIGSEGV);
    char *out = describe(0);
    ck_assert_ptr_nonnull(strstr(out, "X api 1 1 50\nX submission 2 1 300\nend signal 11 0\n"));
    free(out);
    char *summary = zo_test_read(zo_test_path("summary.json"));
    ck_assert_ptr_nonnull(summary);
    ck_assert_ptr_nonnull(strstr(summary, "\"launches\": 300"));
    ck_assert_ptr_nonnull(strstr(summary, "\"status\": \"signal 11\"\n}\n"));
    char command[1024];
    snprintf(command, sizeof command, "%s -c 'import json,sys; json.load(open(sys.argv[1]))' '%s'",
             ZO_TEST_PYTHON, zo_test_path("summary.json"));
    int status;
    free(zo_test_run(command, &status));
    ck_assert_int_eq(status, 0);
    free(summary);
    char *report = zo_test_read(zo_test_path("report.txt"));
    ck_assert_ptr_nonnull(report);
    ck_assert_ptr_nonnull(strstr(report, "zeil report (incomplete: the process got signal 11;"));
    ck_assert_ptr_nonnull(strstr(report, "  conv_fwd  convolution  jit                  300"));
    free(report);
}
END_TEST

START_TEST(abort_leaves_complete_trace)
{
    ck_assert_int_eq(run_child(call_abort, 0), SIGABRT);
    char *out = describe(0);
    ck_assert_ptr_nonnull(strstr(out, "X submission 2 1 300\nend signal 6 0\n"));
    free(out);
}
END_TEST

START_TEST(sigkill_after_a_flush_interval_leaves_a_readable_prefix)
{
    int ready[2];
    ck_assert_int_eq(pipe(ready), 0);
    zo_test_dir();
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(ready[0]);
        child_records_then(wait_forever, 1, ready[1]);
    }
    close(ready[1]);
    char c;
    ck_assert_int_eq(read(ready[0], &c, 1), 1);
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

    int strict;
    free(zo_test_describe_trace(zo_test_path("trace.json"), 0, &strict));
    ck_assert_int_ne(strict, 0); /* no closing bracket: not strict JSON */
    char *out = describe(1);
    ck_assert_ptr_nonnull(strstr(out, "X api 1 1 50\nX submission 2 1 300\nend missing\n"));
    free(out);

    char command[1024];
    snprintf(command, sizeof command, "%s '%s' 2>&1", ZO_TEST_ZEIL_REPORT,
             zo_test_path("trace.json"));
    char *report = zo_test_run(command, &status);
    ck_assert_msg(status == 0, "zeil-report: %s", report);
    ck_assert_ptr_nonnull(strstr(report, "conv_fwd"));
    ck_assert_ptr_nonnull(strstr(report, "300"));
    free(report);

    /* The summary as of the last second, marked as such. */
    char *summary = zo_test_read(zo_test_path("summary.json"));
    ck_assert_ptr_nonnull(strstr(summary, "\"launches\": 300"));
    ck_assert_ptr_nonnull(strstr(summary, "\"status\": \"running\"\n}\n"));
    free(summary);
    snprintf(command, sizeof command, "%s '%s' 2>&1", ZO_TEST_ZEIL_REPORT,
             zo_test_path("summary.json"));
    report = zo_test_run(command, &status);
    ck_assert_msg(status == 0, "zeil-report: %s", report);
    ck_assert_ptr_nonnull(strstr(report, "status: running"));
    free(report);
}
END_TEST

/* ---- kill -9 in the middle of writing: the loss bound ---- */

typedef struct progress {
    uint64_t made;  /* records made so far */
    uint64_t at_ns; /* when (CLOCK_MONOTONIC) */
} progress_t;

static void child_writes_until_killed(int progress_fd)
{
    zo_config_t config = {.trace_file = zo_test_path("busy.json"), .report = 0};
    zo_init(&config);
    uint64_t seq = 0;
    for (;;) {
        uint64_t t = zo_now_ns();
        for (int i = 0; i < 20; i++) {
            zeil_record_t r = zo_test_launch(++seq, 0x100, 0, "busy", t);
            zo_trace_submission(&r);
        }
        progress_t p = {seq, zo_now_ns()};
        (void)!write(progress_fd, &p, sizeof p);
        usleep(1000);
    }
}

START_TEST(sigkill_while_writing_loses_only_the_last_flush_interval)
{
    int pipe_fds[2];
    ck_assert_int_eq(pipe(pipe_fds), 0);
    zo_test_dir();
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(pipe_fds[0]);
        child_writes_until_killed(pipe_fds[1]);
    }
    close(pipe_fds[1]);
    /* Keep the child's progress reports; kill it after ~0.5 s of writing,
     * counted from its first report (a loaded machine may be slow to start it). */
    static progress_t reports[4096];
    size_t n = 0;
    while (n < 4096 && read(pipe_fds[0], &reports[n], sizeof reports[n]) == sizeof reports[n]) {
        if (reports[n++].at_ns - reports[0].at_ns > 500000000ull)
            break;
    }
    uint64_t killed_at = zo_now_ns();
    kill(pid, SIGKILL);
    waitpid(pid, 0, 0);
    close(pipe_fds[0]);
    ck_assert_uint_gt(n, 10);

    int status;
    char *out = zo_test_describe_trace(zo_test_path("busy.json"), 1, &status);
    ck_assert_int_eq(status, 0);
    const char *x = strstr(out, "X submission 2 1 ");
    uint64_t recovered = x ? strtoull(x + 17, 0, 10) : 0;
    free(out);
    /* Everything made more than two flush intervals (and some scheduling
     * slack on a loaded machine) before the kill is in the file. */
    uint64_t made_before_bound = 0;
    for (size_t i = 0; i < n; i++)
        if (killed_at - reports[i].at_ns > 300000000ull)
            made_before_bound = reports[i].made;
    uint64_t made = reports[n - 1].made;
    printf("kill -9 after %llu records: %llu in the trace, %llu lost\n", (unsigned long long)made,
           (unsigned long long)recovered, (unsigned long long)(made - recovered));
    ck_assert_uint_ge(recovered, made_before_bound);
    ck_assert_uint_le(recovered, made + 20);
}
END_TEST

static Suite *crash_suite(void)
{
    Suite *s = suite_create("output_crash");
    TCase *t = tcase_create("signals");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, segfault_leaves_complete_trace_summary_and_report);
    tcase_add_test(t, abort_leaves_complete_trace);
    tcase_add_test(t, sigkill_after_a_flush_interval_leaves_a_readable_prefix);
    tcase_add_test(t, sigkill_while_writing_loses_only_the_last_flush_interval);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return zo_test_run_suite(crash_suite());
}
