/*
 * Hostile environment: zeil's output paths come from the environment and may
 * point into shared directories. Each test runs this binary again as a child
 * (zeil reads its settings once, at load) with the paths set, then checks:
 *   - a symlink planted where an output file goes is not followed (the
 *     target stays untouched) and gets one warning;
 *   - files zeil creates are mode 0600 whatever the umask;
 *   - output descriptors are close-on-exec (a program the application
 *     execs does not inherit them);
 *   - an unwritable path gets exactly one warning and the program carries
 *     on, its calls unaffected.
 * The secure_getenv check (setgid child) is its own ctest, see the end.
 */
#include "zt.h"

#include <zeil/zeil.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char work_dir[4096];

static void make_work_dir(const char *name)
{
    const char *base = getenv("ZEIL_HOSTILE_DIR");
    ck_assert_ptr_nonnull(base);
    mkdir(base, 0700);
    snprintf(work_dir, sizeof work_dir, "%s/%s.XXXXXX", base, name);
    ck_assert_ptr_nonnull(mkdtemp(work_dir));
}

static void path_in(char *out, size_t size, const char *file)
{
    snprintf(out, size, "%s/%s", work_dir, file);
}

/* Runs `this-binary MODE` with the "VAR=value" settings; its stdout and
 * stderr go to out_path. Returns the exit status (fails on a crash). */
static int run_child(const char *mode, const char *const *settings, const char *out_path)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(out, STDOUT_FILENO);
        dup2(out, STDERR_FILENO);
        for (size_t i = 0; settings && settings[i]; i++)
            putenv((char *)settings[i]);
        umask(0); /* so a mode of 0600 is zeil's choice, not the umask's */
        execl("/proc/self/exe", "hostile_env_test", mode, (char *)NULL);
        _exit(127);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status), "the child crashed (signal %d)", WTERMSIG(status));
    return WEXITSTATUS(status);
}

/* A file's text, zero-terminated (zt_read_file gives bytes). */
static char *read_text(const char *path)
{
    size_t size = 0;
    char *bytes = zt_read_file(path, &size);
    char *text = malloc(size + 1);
    ck_assert_ptr_nonnull(text);
    memcpy(text, bytes, size);
    text[size] = 0;
    free(bytes);
    return text;
}

static size_t count_lines_with(const char *path, const char *fragment)
{
    size_t count = 0;
    char *text = read_text(path);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
        count += strstr(line, fragment) != NULL;
    free(text);
    return count;
}

/* ---- what the children do ---- */

/* One error diagnostic (so the log has something to write), a working
 * Level Zero call, and exit 0 when the call still worked. */
static int child_diagnose_and_work(void)
{
    zeil_diagnostic(ZEIL_SEVERITY_ERROR, "ZEIL-E001", "hostile_env_test", "a planted finding");
    if (zeInit(0) != ZE_RESULT_SUCCESS)
        return 3;
    uint32_t n = 0;
    if (zeDriverGet(&n, NULL) != ZE_RESULT_SUCCESS || n == 0)
        return 4;
    zeil_flush();
    return 0;
}

/* Writes a diagnostic, then becomes a shell listing its open descriptors. */
static int child_exec_lists_fds(void)
{
    zeil_diagnostic(ZEIL_SEVERITY_ERROR, "ZEIL-E001", "hostile_env_test", "before exec");
    zeil_flush();
    execl("/bin/sh", "sh", "-c", "ls -l /proc/self/fd/", (char *)NULL);
    return 5;
}

/* ---- the tests ---- */

START_TEST(planted_symlinks_are_not_followed)
{
    make_work_dir("symlink");
    char target[4200], log[4200], trace[4200], summary[4200], out[4200];
    path_in(target, sizeof target, "victim");
    path_in(log, sizeof log, "log");
    path_in(trace, sizeof trace, "trace.json");
    path_in(summary, sizeof summary, "summary.json");
    path_in(out, sizeof out, "child.out");
    int fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "precious\n", 9), 9);
    close(fd);
    ck_assert_int_eq(symlink(target, log), 0);
    ck_assert_int_eq(symlink(target, trace), 0);
    ck_assert_int_eq(symlink(target, summary), 0);
    char log_var[4300], trace_var[4300], summary_var[4300];
    snprintf(log_var, sizeof log_var, "ZEIL_LOG_FILE=%s", log);
    snprintf(trace_var, sizeof trace_var, "ZEIL_TRACE=%s", trace);
    snprintf(summary_var, sizeof summary_var, "ZEIL_SUMMARY=%s", summary);
    const char *settings[] = {log_var, trace_var, summary_var, NULL};
    ck_assert_int_eq(run_child("diagnose", settings, out), 0);
    char *text = read_text(target);
    ck_assert_str_eq(text, "precious\n");
    free(text);
    struct stat st;
    ck_assert_int_eq(lstat(log, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    ck_assert_uint_eq(count_lines_with(out, "symbolic link"), 3);
}
END_TEST

START_TEST(created_files_are_private)
{
    make_work_dir("mode");
    char log[4200], trace[4200], summary[4200], out[4200];
    path_in(log, sizeof log, "log");
    path_in(trace, sizeof trace, "trace.json");
    path_in(summary, sizeof summary, "summary.json");
    path_in(out, sizeof out, "child.out");
    char log_var[4300], trace_var[4300], summary_var[4300];
    snprintf(log_var, sizeof log_var, "ZEIL_LOG_FILE=%s", log);
    snprintf(trace_var, sizeof trace_var, "ZEIL_TRACE=%s", trace);
    snprintf(summary_var, sizeof summary_var, "ZEIL_SUMMARY=%s", summary);
    const char *settings[] = {log_var, trace_var, summary_var, NULL};
    ck_assert_int_eq(run_child("diagnose", settings, out), 0);
    const char *files[] = {log, trace, summary};
    for (int i = 0; i < 3; i++) {
        struct stat st;
        ck_assert_msg(stat(files[i], &st) == 0, "%s was not written", files[i]);
        ck_assert_msg((st.st_mode & 07777) == 0600, "%s has mode %o", files[i],
                      (unsigned)(st.st_mode & 07777));
    }
    ck_assert_uint_eq(count_lines_with(log, "[ZEIL-E001]"), 1);
}
END_TEST

START_TEST(output_descriptors_are_not_inherited)
{
    make_work_dir("cloexec");
    char log[4200], trace[4200], out[4200];
    path_in(log, sizeof log, "log");
    path_in(trace, sizeof trace, "trace.json");
    path_in(out, sizeof out, "child.out");
    char log_var[4300], trace_var[4300];
    snprintf(log_var, sizeof log_var, "ZEIL_LOG_FILE=%s", log);
    snprintf(trace_var, sizeof trace_var, "ZEIL_TRACE=%s", trace);
    const char *settings[] = {log_var, trace_var, NULL};
    ck_assert_int_eq(run_child("exec", settings, out), 0);
    ck_assert_uint_eq(count_lines_with(log, "before exec"), 1);
    ck_assert_uint_gt(count_lines_with(out, "/proc/"), 0); /* the listing ran */
    ck_assert_uint_eq(count_lines_with(out, log), 0);
    ck_assert_uint_eq(count_lines_with(out, trace), 0);
}
END_TEST

START_TEST(unwritable_paths_warn_once_and_carry_on)
{
    make_work_dir("unwritable");
    char out[4200];
    path_in(out, sizeof out, "child.out");
    /* A directory where a file should be, and a missing directory: both fail
     * for root too (permissions would not). */
    char log_var[4300], trace_var[4300];
    snprintf(log_var, sizeof log_var, "ZEIL_LOG_FILE=%s", work_dir);
    snprintf(trace_var, sizeof trace_var, "ZEIL_TRACE=%s/missing/dir/trace.json", work_dir);
    const char *settings[] = {log_var, trace_var, NULL};
    ck_assert_int_eq(run_child("diagnose", settings, out), 0);
    ck_assert_uint_eq(count_lines_with(out, "it is a directory"), 1);
    ck_assert_uint_eq(count_lines_with(out, "missing/dir/trace.json"), 1);
}
END_TEST

/* secure_getenv: in a setgid process (AT_SECURE) zeil must ignore paths from
 * the environment. Needs root (to make a setgid copy of this binary). */
static int secure_getenv_check(void)
{
    if (geteuid() != 0) {
        printf("hostile_env_test: not root, cannot make a setgid binary: skipped\n");
        return 77;
    }
    const char *base = getenv("ZEIL_HOSTILE_DIR");
    if (!base)
        return 2;
    mkdir(base, 0700);
    char copy[4200], log[4200], out[4200], cmd[13000];
    snprintf(copy, sizeof copy, "%s/hostile_env_setgid", base);
    snprintf(log, sizeof log, "%s/setgid.log", base);
    snprintf(out, sizeof out, "%s/setgid.out", base);
    unlink(log);
    snprintf(cmd, sizeof cmd, "cp /proc/%d/exe '%s' && chgrp nogroup '%s' && chmod 2755 '%s'",
             (int)getpid(), copy, copy, copy);
    if (system(cmd) != 0)
        return 2;
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        setenv("ZEIL_LOG_FILE", log, 1);
        execl(copy, "hostile_env_setgid", "secure", (char *)NULL);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        printf("hostile_env_test: the setgid child failed (status %d)\n", status);
        return 1;
    }
    if (access(log, F_OK) == 0) {
        printf("hostile_env_test: a setgid process wrote ZEIL_LOG_FILE=%s: the path was read "
               "with getenv, not secure_getenv\n",
               log);
        return 1;
    }
    printf("hostile_env_test: the setgid process ignored ZEIL_LOG_FILE\n");
    return 0;
}

/* In the setgid copy: is this really a secure-execution process? */
static int child_secure(void)
{
    if (getegid() == getgid())
        return 6;
    zeil_diagnostic(ZEIL_SEVERITY_ERROR, "ZEIL-E001", "hostile_env_test", "in a setgid process");
    zeil_flush();
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "diagnose") == 0)
        return child_diagnose_and_work();
    if (argc == 2 && strcmp(argv[1], "exec") == 0)
        return child_exec_lists_fds();
    if (argc == 2 && strcmp(argv[1], "secure") == 0)
        return child_secure();
    if (argc == 2 && strcmp(argv[1], "--secure-getenv") == 0)
        return secure_getenv_check();
    Suite *suite = suite_create("hostile_env");
    TCase *tc = tcase_create("output files");
    tcase_add_test(tc, planted_symlinks_are_not_followed);
    tcase_add_test(tc, created_files_are_private);
    tcase_add_test(tc, output_descriptors_are_not_inherited);
    tcase_add_test(tc, unwritable_paths_warn_once_and_carry_on);
    suite_add_tcase(suite, tc);
    return zt_run_suite(suite);
}
