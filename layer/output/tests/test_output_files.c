/* test_output_files.c: where output goes and what happens when it cannot:
 * unwritable paths warn once, symlinks are refused, modes are 0600, log
 * lines of many threads stay whole, the report goes where it is told. */
#include "zo_test_snapshot.h"
#include "zeil_output.h"
#include "zo_test_util.h"

#include <check.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Runs with stderr going to a file; returns what was written there. */
static int saved_stderr = -1;

static void capture_stderr(void)
{
    fflush(stderr);
    saved_stderr = dup(STDERR_FILENO);
    int fd = open(zo_test_path("stderr.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, STDERR_FILENO);
    close(fd);
}

static char *captured_stderr(void)
{
    fflush(stderr);
    dup2(saved_stderr, STDERR_FILENO);
    close(saved_stderr);
    return zo_test_read(zo_test_path("stderr.txt"));
}

static int count_lines(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

START_TEST(unwritable_paths_warn_once_and_carry_on)
{
    capture_stderr();
    zo_config_t config = {.snapshot = zo_test_snapshot,
                          .log_level = ZO_LOG_INFO,
                          .log_file = "/nonexistent-zeil-dir/zeil.log",
                          .trace_file = "/nonexistent-zeil-dir/trace.json",
                          .report = 1,
                          .report_file = "/nonexistent-zeil-dir/report.txt",
                          .summary_file = "/nonexistent-zeil-dir/summary.json"};
    zo_init(&config);
    ck_assert(!zo_trace_enabled());
    zeil_record_t r = zo_test_launch(1, 0x100, 0, "k", zo_now_ns());
    zo_trace_submission(&r);
    zo_trace_api_call(1, "zeInit", 0, 1, 2);
    const char line[] = "zeil: info: still logging";
    zo_log_write(line, sizeof line - 1);
    zo_flush();
    zo_finish();
    char *err = captured_stderr();
    ck_assert_str_eq(
        err,
        "zeil: warning: ZEIL_LOG_FILE file /nonexistent-zeil-dir/zeil.log: its directory does not "
        "exist; carrying on without it\n"
        "zeil: warning: ZEIL_REPORT file /nonexistent-zeil-dir/report.txt: its directory does not "
        "exist; carrying on without it\n"
        "zeil: warning: ZEIL_SUMMARY file /nonexistent-zeil-dir/summary.json: its directory does "
        "not exist; carrying on without it\n"
        "zeil: warning: ZEIL_TRACE file /nonexistent-zeil-dir/trace.json: its directory does not "
        "exist; carrying on without it\n"
        "zeil: info: still logging\n");
    free(err);
}
END_TEST

START_TEST(symlinked_output_is_refused)
{
    const char *victim = zo_test_path("victim.txt");
    FILE *f = fopen(victim, "w");
    fputs("precious\n", f);
    fclose(f);
    ck_assert_int_eq(symlink(victim, zo_test_path("trace.json")), 0);
    capture_stderr();
    zo_config_t config = {.trace_file = zo_test_path("trace.json"), .report = 0};
    zo_init(&config);
    ck_assert(!zo_trace_enabled());
    zo_finish();
    char *err = captured_stderr();
    ck_assert_ptr_nonnull(strstr(err, "trace.json: it is a symbolic link (refused)"));
    ck_assert_int_eq(count_lines(err), 1);
    free(err);
    char *kept = zo_test_read(victim);
    ck_assert_str_eq(kept, "precious\n");
    free(kept);
}
END_TEST

static unsigned file_mode(const char *path)
{
    struct stat st;
    ck_assert_int_eq(lstat(path, &st), 0);
    return st.st_mode & 07777;
}

static const zeil_kernel_stats_t one_kernel[] = {
    {.stream_id = 0,
     .list = (ze_command_list_handle_t)0x100,
     .kernel = "fill_kernel",
     .primitive = 0,
     .impl = 0,
     .launches = 7,
     .timed_launches = 7,
     .total_device_ns = 7000,
     .max_device_ns = 1500},
};

START_TEST(outputs_are_private_and_report_goes_to_its_file)
{
    umask(0);
    zo_test_set_counters(one_kernel, 1, 0, 0, 0, 0, 0);
    zo_config_t config = {.snapshot = zo_test_snapshot,
                          .log_file = zo_test_path("zeil.log"),
                          .trace_file = zo_test_path("trace.json"),
                          .report = 1,
                          .report_file = zo_test_path("report.txt"),
                          .summary_file = zo_test_path("summary.json")};
    zo_init(&config);
    zo_finish();
    ck_assert_uint_eq(file_mode(zo_test_path("zeil.log")), 0600);
    ck_assert_uint_eq(file_mode(zo_test_path("trace.json")), 0600);
    ck_assert_uint_eq(file_mode(zo_test_path("report.txt")), 0600);
    ck_assert_uint_eq(file_mode(zo_test_path("summary.json")), 0600);
    char *report = zo_test_read(zo_test_path("report.txt"));
    ck_assert_str_eq(report,
                     "zeil report\n"
                     "\n"
                     "list 0x100 (no stream)\n"
                     "  kernel       primitive  implementation  launches  total ms  mean us\n"
                     "  fill_kernel  -          -                      7     0.007      1.0\n"
                     "\n"
                     "errors and warnings: 0 errors, 0 warnings\n"
                     "\n"
                     "leaks: none\n");
    free(report);
    char *summary = zo_test_read(zo_test_path("summary.json"));
    ck_assert_ptr_nonnull(strstr(summary, "\"max_device_ns\": 1500"));
    ck_assert_ptr_nonnull(strstr(summary, "\"status\": \"exit\"\n}\n"));
    free(summary);
}
END_TEST

START_TEST(report_defaults_to_stderr)
{
    zo_test_set_counters(one_kernel, 1, 0, 0, 0, 0, 0);
    capture_stderr();
    zo_config_t on = {.report = 1, .snapshot = zo_test_snapshot};
    zo_init(&on);
    zo_finish();
    char *err = captured_stderr();
    ck_assert_ptr_nonnull(strstr(err, "zeil report\n\nlist 0x100 (no stream)\n"));
    free(err);
}
END_TEST

START_TEST(report_off_writes_nothing)
{
    zo_test_set_counters(one_kernel, 1, 0, 0, 0, 0, 0);
    capture_stderr();
    zo_config_t off = {.report = 0, .snapshot = zo_test_snapshot};
    zo_init(&off);
    zo_finish();
    char *err = captured_stderr();
    ck_assert_str_eq(err, "");
    free(err);
}
END_TEST

/* ---- log lines from several threads ---- */

#define LOG_THREADS 4
#define LOG_LINES 2000

static void *log_writer(void *arg)
{
    uint32_t thread = (uint32_t)(uintptr_t)arg;
    char args[700];
    for (int i = 0; i < LOG_LINES; i++) {
        size_t n = 10 + (size_t)(i * 37 % 600);
        memset(args, 'a' + (int)thread, n);
        args[n] = 0;
        uint64_t t = zo_now_ns();
        zo_log_call(thread, "zeTestCall", args, ZE_RESULT_SUCCESS, t, t + 1500);
    }
    return 0;
}

/* Every line: "zeil: S.US T<n> zeTestCall(<one letter, n's>) -> ZE_RESULT_SUCCESS (1.5 us)". */
static int whole_call_line(const char *line, size_t len)
{
    const char *open = memchr(line, '(', len);
    const char *t = strstr(line, " T");
    if (strncmp(line, "zeil: ", 6) != 0 || !open || !t || t > open)
        return 0;
    char letter = (char)('a' + atoi(t + 2));
    const char *p = open + 1;
    while (*p == letter)
        p++;
    return p - open - 1 >= 10 && strncmp(p, ") -> ZE_RESULT_SUCCESS (1.5 us)", 31) == 0 &&
           (size_t)(p + 31 - line) == len;
}

START_TEST(log_lines_of_four_threads_never_interleave)
{
    zo_config_t config = {.log_level = ZO_LOG_CALLS, .log_file = zo_test_path("calls.log")};
    zo_init(&config);
    ck_assert(zo_log_enabled(ZO_LOG_CALLS));
    pthread_t threads[LOG_THREADS];
    for (uintptr_t i = 0; i < LOG_THREADS; i++)
        pthread_create(&threads[i], 0, log_writer, (void *)(i + 1));
    for (int i = 0; i < LOG_THREADS; i++)
        pthread_join(threads[i], 0);
    zo_finish();
    char *log = zo_test_read(zo_test_path("calls.log"));
    int lines = 0;
    for (char *line = log, *nl; (nl = strchr(line, '\n')); line = nl + 1, lines++)
        ck_assert_msg(whole_call_line(line, (size_t)(nl - line)), "broken line %d: %.80s", lines,
                      line);
    ck_assert_int_eq(lines, LOG_THREADS * LOG_LINES);
    free(log);
}
END_TEST

START_TEST(log_levels_filter)
{
    zo_config_t config = {.log_level = ZO_LOG_ERROR};
    zo_init(&config);
    ck_assert(zo_log_enabled(ZO_LOG_ERROR));
    ck_assert(!zo_log_enabled(ZO_LOG_WARNING));
    ck_assert(!zo_log_enabled(ZO_LOG_CALLS));
}
END_TEST

static Suite *files_suite(void)
{
    Suite *s = suite_create("output_files");
    TCase *t = tcase_create("paths");
    tcase_add_test(t, unwritable_paths_warn_once_and_carry_on);
    tcase_add_test(t, symlinked_output_is_refused);
    tcase_add_test(t, outputs_are_private_and_report_goes_to_its_file);
    tcase_add_test(t, report_defaults_to_stderr);
    tcase_add_test(t, report_off_writes_nothing);
    suite_add_tcase(s, t);
    t = tcase_create("log");
    tcase_add_test(t, log_lines_of_four_threads_never_interleave);
    tcase_add_test(t, log_levels_filter);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return zo_test_run_suite(files_suite());
}
