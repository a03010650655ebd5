/*
 * Out of memory inside zeil degrades, never crashes and never changes a
 * result. The fault-injecting allocator (fault_alloc.c) fails allocations
 * whose caller is inside libzeil.so, by the policy each scenario gives it in
 * ZEIL_TEST_FAULT_ALLOC, while the application's, the loader's and the
 * driver's succeed. Each scenario runs the workload (oom_workload.c) in a
 * process of its own, through the real loader, zeil and the reference
 * driver, and must:
 * - exit normally, with every call's result what it was in the control run
 *   of the same workload (libzeil.so's allocations counted, none failed),
 *   and what a valid call returns (nothing refused);
 * - compute the same checksum;
 * - make zeil say ZEIL-W070 exactly once and no error, but the one misuse
 *   the midway workload commits on purpose (ZEIL-E002, also in its control);
 * - show what zeil dropped in the summary and the report.
 */
#include "oom_workload.h"
#include "zl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define OUTPUT_MAX (256 * 1024)

typedef struct run {
    char name[64];
    char *out; /* the workload's stdout */
    char *log, *report, *summary;
    uint64_t dropped[5]; /* objects, allocations, records, other, unchecked */
    uint64_t faults_seen, faults_failed;
    int reused_list, reused_kernel;
} run_t;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return strdup("");
    char *text = calloc(1, OUTPUT_MAX + 1);
    ck_assert_ptr_nonnull(text);
    size_t n = fread(text, 1, OUTPUT_MAX, f);
    text[n] = 0;
    fclose(f);
    return text;
}

static void path_of(char *out, size_t size, const char *name, const char *suffix)
{
    const char *dir = getenv("ZEIL_OOM_TEST_DIR");
    ck_assert_msg(dir && *dir, "ZEIL_OOM_TEST_DIR is not set");
    mkdir(dir, 0700);
    snprintf(out, size, "%s/%s.%s", dir, name, suffix);
}

/* Runs the workload (mode "workload" or "midway") under policy. */
static run_t run_workload(const char *name, const char *mode, const char *policy)
{
    run_t r;
    memset(&r, 0, sizeof r);
    snprintf(r.name, sizeof r.name, "%s", name);
    char log[512], report[512], summary[512];
    path_of(log, sizeof log, name, "log");
    path_of(report, sizeof report, name, "report");
    path_of(summary, sizeof summary, name, "json");
    unlink(log), unlink(report), unlink(summary);
    char fault[128], log_env[600], report_env[600], summary_env[600];
    snprintf(fault, sizeof fault, "ZEIL_TEST_FAULT_ALLOC=%s", policy);
    snprintf(log_env, sizeof log_env, "ZEIL_LOG_FILE=%s", log);
    snprintf(report_env, sizeof report_env, "ZEIL_REPORT=%s", report);
    snprintf(summary_env, sizeof summary_env, "ZEIL_SUMMARY=%s", summary);
    /* Without glibc's per-thread cache a freed chunk is what the next calloc
     * of its size gets, so the driver reuses handle values at once, as
     * drivers with object pools do (the case a starved registry must not
     * confuse with the destroyed object). */
    const char *overrides[] = {
        fault, log_env, report_env, summary_env, "GLIBC_TUNABLES=glibc.malloc.tcache_count=0",
        NULL};
    r.out = malloc(OUTPUT_MAX);
    ck_assert_ptr_nonnull(r.out);
    int status = zl_run_child(mode, overrides, r.out, OUTPUT_MAX);
    r.log = slurp(log);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "%s: the workload did not exit normally (status 0x%x); zeil's log:\n%s", name,
                  (unsigned)status, r.log);
    r.report = slurp(report);
    r.summary = slurp(summary);
    const char *dropped = strstr(r.out, "\ndropped ");
    const char *faults = strstr(r.out, "\nfaults ");
    ck_assert_msg(dropped && faults, "%s: the workload's output is cut:\n%s", name, r.out);
    sscanf(dropped, "\ndropped %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
           &r.dropped[0], &r.dropped[1], &r.dropped[2], &r.dropped[3], &r.dropped[4]);
    sscanf(faults, "\nfaults %" SCNu64 " %" SCNu64, &r.faults_seen, &r.faults_failed);
    const char *reused = strstr(r.out, "\nreused ");
    ck_assert_ptr_nonnull(reused);
    sscanf(reused, "\nreused %d %d", &r.reused_list, &r.reused_kernel);
    return r;
}

static void run_free(run_t *r)
{
    free(r->out), free(r->log), free(r->report), free(r->summary);
}

/* Lines of text containing fragment. */
static int count_lines(const char *text, const char *fragment)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, fragment)); p += strlen(fragment))
        n++;
    return n;
}

/* Every call returned what the workload expected, and the output up to the
 * counts (the calls and the checksum) is the control's, line for line. */
static void assert_same_results(const run_t *run, const run_t *control)
{
    size_t len = (size_t)(strstr(run->out, "\ndropped ") - run->out);
    size_t control_len = (size_t)(strstr(control->out, "\ndropped ") - control->out);
    const char *a = run->out, *b = control->out;
    for (;;) {
        const char *a_end = strchr(a, '\n'), *b_end = strchr(b, '\n');
        ck_assert_msg(a_end && b_end, "%s: output ends early", run->name);
        ck_assert_msg(a_end - a == b_end - b && memcmp(a, b, (size_t)(a_end - a)) == 0,
                      "%s differs from its control run:\n  %.*s\n  %.*s", run->name,
                      (int)(a_end - a), a, (int)(b_end - b), b);
        unsigned step, result, expected;
        char call[128];
        if (sscanf(a, "%u %127s 0x%x 0x%x", &step, call, &result, &expected) == 4)
            ck_assert_msg(result == expected, "%s: step %u %s returned 0x%x, expected 0x%x",
                          run->name, step, call, result, expected);
        if ((size_t)(a_end - run->out) >= len || (size_t)(b_end - control->out) >= control_len)
            break;
        a = a_end + 1, b = b_end + 1;
    }
    ck_assert_uint_eq(len, control_len);
    ck_assert_msg(strstr(run->out, "checksum "), "%s: no checksum", run->name);
}

static uint64_t summary_count(const run_t *r, const char *key)
{
    const char *oom = strstr(r->summary, "\"out_of_memory\": {");
    ck_assert_msg(oom, "%s: no out_of_memory in the summary:\n%s", r->name, r->summary);
    char needle[64];
    snprintf(needle, sizeof needle, "\"%s\": ", key);
    const char *at = strstr(oom, needle);
    ck_assert_msg(at, "%s: no %s in the summary's out_of_memory", r->name, key);
    return strtoull(at + strlen(needle), NULL, 10);
}

/* What a starved run must show beside its results. errors: the error-rule
 * lines the workload causes on purpose (the midway misuse). */
static void assert_degraded(const run_t *r, const run_t *control, int errors)
{
    assert_same_results(r, control);
    ck_assert_msg(r->faults_failed > 0, "%s: the allocator failed nothing (%" PRIu64 " seen)",
                  r->name, r->faults_seen);
    ck_assert_msg(count_lines(r->log, "[ZEIL-W070]") == 1,
                  "%s: ZEIL-W070 not said exactly once:\n%s", r->name, r->log);
    ck_assert_msg(strstr(r->log, "ran out of memory"), "%s:\n%s", r->name, r->log);
    ck_assert_msg(count_lines(r->log, "zeil: error") == errors,
                  "%s: zeil refused calls a starved zeil must let through:\n%s", r->name, r->log);
    uint64_t total = 0;
    for (int i = 0; i < 4; i++)
        total += r->dropped[i];
    ck_assert_msg(total > 0, "%s: zeil counted nothing dropped", r->name);
    /* The exit report and summary come later than the workload's own
     * counts, from a process still starved: at least as much. */
    ck_assert_uint_ge(summary_count(r, "objects"), r->dropped[0]);
    ck_assert_uint_ge(summary_count(r, "allocations"), r->dropped[1]);
    ck_assert_uint_ge(summary_count(r, "records"), r->dropped[2]);
    ck_assert_msg(strstr(r->report, "out of memory: zeil dropped "),
                  "%s: the report does not say what zeil dropped:\n%s", r->name, r->report);
}

static void assert_clean_control(const run_t *control, int errors)
{
    assert_same_results(control, control);
    ck_assert_msg(control->faults_seen > 0, "the allocator saw no allocation by libzeil.so");
    ck_assert_uint_eq(control->faults_failed, 0);
    ck_assert_int_eq(count_lines(control->log, "[ZEIL-W070]"), 0);
    ck_assert_msg(count_lines(control->log, "zeil: error") == errors, "%s", control->log);
    for (int i = 0; i < 5; i++)
        ck_assert_uint_eq(control->dropped[i], 0);
    ck_assert_uint_eq(summary_count(control, "objects"), 0);
    ck_assert(!strstr(control->report, "out of memory"));
}

START_TEST(every_allocation_fails_from_the_start)
{
    run_t control = run_workload("control", "workload", "libzeil.so:count");
    assert_clean_control(&control, 0);
    run_t starved = run_workload("from_start", "workload", "libzeil.so:after:0");
    assert_degraded(&starved, &control, 0);
    /* Nothing was registered, so every submission went unrecorded and the
     * unknown handles were let through unchecked. */
    ck_assert_uint_gt(starved.dropped[0], 0);
    ck_assert_uint_gt(starved.dropped[1], 0);
    ck_assert_uint_gt(starved.dropped[2], 0);
    ck_assert_uint_gt(starved.dropped[4], 0);
    run_free(&starved);
    run_free(&control);
}
END_TEST

/* Some objects and allocations registered, some not: handle values and
 * addresses the driver reuses meet tombstones of registered ones. */
START_TEST(every_kth_allocation_fails)
{
    run_t control = run_workload("control_k", "workload", "libzeil.so:count");
    static const char *const policies[] = {"libzeil.so:every:2", "libzeil.so:every:3",
                                           "libzeil.so:every:7", "libzeil.so:after:40"};
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "partial_%zu", i);
        run_t starved = run_workload(name, "workload", policies[i]);
        assert_degraded(&starved, &control, 0);
        run_free(&starved);
    }
    run_free(&control);
}
END_TEST

/* Failures start once the objects exist: the lists' record rings (made at
 * their first submission), the kernel counters and the USM registrations
 * fail, the misuse of a destroyed event zeil saw is still refused, and
 * objects whose handle values the driver reuses after zeil registered and
 * destroyed their predecessors work. */
START_TEST(failures_start_after_set_up)
{
    run_t control = run_workload("control_midway", "midway", "libzeil.so:count");
    assert_clean_control(&control, 1);
    ck_assert_int_eq(count_lines(control.log, "[ZEIL-E002]"), 1);
    run_t starved = run_workload("midway", "midway", "libzeil.so:later");
    assert_degraded(&starved, &control, 1);
    ck_assert_int_eq(count_lines(starved.log, "[ZEIL-E002]"), 1);
    ck_assert_uint_gt(starved.dropped[1], 0); /* the rounds' USM */
    ck_assert_uint_gt(starved.dropped[2], 0); /* the rounds' submissions */
#ifndef __SANITIZE_ADDRESS__                  /* ASan's quarantine delays the reuse of memory */
    ck_assert_msg(starved.reused_list && starved.reused_kernel,
                  "the driver reused no handle value: the case this test is for did not happen");
#endif
    run_free(&starved);
    run_free(&control);
}
END_TEST

static int workload_mode(void)
{
    return oom_workload_run(0);
}

static int midway_mode(void)
{
    return oom_workload_run(1);
}

int main(int argc, char **argv)
{
    static const zl_child_mode_t modes[] = {
        {"workload", workload_mode}, {"midway", midway_mode}, {NULL, NULL}};
    zl_child_main(argc, argv, modes);
    Suite *s = suite_create("layer_out_of_memory");
    TCase *tc = tcase_create("starved");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, every_allocation_fails_from_the_start);
    tcase_add_test(tc, every_kth_allocation_fails);
    tcase_add_test(tc, failures_start_after_set_up);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
