/*
 * The misuse matrix runner. Without arguments it runs every case as
 * `misuse_test --case NAME` (fork + exec of this binary, so every case starts
 * from a fresh process with its own ZEIL_LOG_FILE) and judges each:
 *   - the child exited normally with status 0 (its own assertions on the
 *     returned code and on the observable passed; no crash, no abort);
 *   - zeil's log names the case's rule, and no other error rule.
 * Cases in expected_failures are known bugs of the layer or the interop
 * library (see the reasons): they must still fail, so a fix shows up as an
 * unexpected pass and the list is kept honest.
 *   misuse_test                run all, print one line per case
 *   misuse_test --case NAME    run one case here (what the children do)
 *   misuse_test --list         print the case names and rules
 * ZEIL_MISUSE_SKIP (comma list of case names) leaves cases out of a run that
 * cannot hold them (the play loader of tests/newer wraps one driver and is
 * no real loader: the cases about two drivers or a bypassed loader).
 */
#include "misuse.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#define CASE_TIMEOUT_SECONDS 60

/* Known bugs: the case is right, the code under test is not. may_pass: the
 * bug shows only with some heap contents (an uninitialised read), so a pass
 * is reported but not counted as a failure. */
typedef struct expected_failure {
    const char *name;
    const char *reason;
    int may_pass;
} expected_failure_t;

static const expected_failure_t expected_failures[] = {
    {NULL, NULL, 0},
};

static misuse_case_list_t (*const case_groups[])(void) = {
    misuse_layer_handle_cases, misuse_layer_usm_cases,      misuse_layer_list_cases,
    misuse_thread_cases,       misuse_interop_cases,        misuse_interop_blob_cases,
    misuse_hazard_cases,       misuse_hazard_interop_cases,
};
#define GROUP_COUNT (sizeof case_groups / sizeof case_groups[0])

static const misuse_case_t *find_case(const char *name)
{
    for (size_t g = 0; g < GROUP_COUNT; g++) {
        misuse_case_list_t list = case_groups[g]();
        for (size_t i = 0; i < list.count; i++)
            if (strcmp(list.cases[i].name, name) == 0)
                return &list.cases[i];
    }
    return NULL;
}

static const expected_failure_t *expected_failure(const char *name)
{
    for (size_t i = 0; expected_failures[i].name; i++)
        if (strcmp(expected_failures[i].name, name) == 0)
            return &expected_failures[i];
    return NULL;
}

/* ---- in the child ---- */

static const misuse_case_t *selected;

START_TEST(run_selected_case)
{
    selected->run();
}
END_TEST

static int run_case_here(const char *name)
{
    selected = find_case(name);
    if (!selected) {
        fprintf(stderr, "misuse_test: no case '%s'\n", name);
        return 2;
    }
    Suite *suite = suite_create("misuse");
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, CASE_TIMEOUT_SECONDS);
    tcase_add_test(tc, run_selected_case);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    /* This process is already the case's own: no second fork. */
    srunner_set_fork_status(runner, CK_NOFORK);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? 1 : 0;
}

/* ---- in the parent ---- */

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return strdup("");
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    size_t n;
    while (text && (n = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap) {
            char *grown = realloc(text, cap *= 2);
            if (!grown) {
                free(text);
                text = NULL;
            }
            text = grown;
        }
    }
    fclose(f);
    if (!text)
        return strdup("");
    text[len] = 0;
    return text;
}

static void apply_env(const char *const *env)
{
    for (size_t i = 0; env && env[i]; i++) {
        const char *eq = strchr(env[i], '=');
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(eq - env[i]), env[i]);
        const char *value = eq + 1;
        if (value[0] == '$') /* "$VAR": the value of another variable */
            value = getenv(value + 1) ? getenv(value + 1) : "";
        if (value[0])
            setenv(name, value, 1);
        else
            unsetenv(name);
    }
}

/* Runs the case in a fresh process; returns its wait status (or -1 on a
 * timeout, after killing it). */
static int spawn_case(const misuse_case_t *c, const char *log_path, const char *out_path)
{
    unlink(log_path);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (out >= 0) {
            dup2(out, STDOUT_FILENO);
            dup2(out, STDERR_FILENO);
        }
        setenv("ZEIL_LOG_FILE", log_path, 1);
        apply_env(c->env);
        char *argv[] = {"misuse_test", "--case", (char *)c->name, NULL};
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    int status = 0;
    for (int waited_ms = 0; waited_ms < CASE_TIMEOUT_SECONDS * 1000; waited_ms += 10) {
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid)
            return status;
        if (done < 0 && errno != EINTR)
            return -1;
        struct timespec tick = {0, 10 * 1000 * 1000};
        nanosleep(&tick, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
}

/* Null when the log is right, else what is wrong (static text). */
static const char *judge_log(const misuse_case_t *c, const char *log, char *why, size_t size)
{
    char tag[40];
    snprintf(tag, sizeof tag, "[%s]", c->rule);
    if (!strstr(log, tag)) {
        snprintf(why, size, "the log does not name %s", c->rule);
        return why;
    }
    for (const char *p = log; (p = strstr(p, "error [ZEIL-")) != NULL; p++) {
        const char *id = p + strlen("error [");
        if (strncmp(id, c->rule, strlen(c->rule)) != 0 || id[strlen(c->rule)] != ']') {
            snprintf(why, size, "the log also names another error: %.12s", id);
            return why;
        }
    }
    return NULL;
}

static int judge_case(const misuse_case_t *c, const char *dir)
{
    char log_path[4096], out_path[4096], why[4400];
    snprintf(log_path, sizeof log_path, "%s/%s.log", dir, c->name);
    snprintf(out_path, sizeof out_path, "%s/%s.out", dir, c->name);
    int status = spawn_case(c, log_path, out_path);
    const char *problem = NULL;
    if (status == -1)
        problem = "timed out or could not start";
    else if (WIFSIGNALED(status))
        snprintf(why, sizeof why, "crashed with signal %d", WTERMSIG(status)), problem = why;
    else if (WEXITSTATUS(status) != 0)
        snprintf(why, sizeof why, "its assertions failed (exit %d, see %s)", WEXITSTATUS(status),
                 out_path),
            problem = why;
    if (!problem) {
        char *log = read_text(log_path), *out = read_text(out_path);
        size_t len = strlen(log) + strlen(out) + 2;
        char *both = malloc(len);
        snprintf(both, len, "%s\n%s", log, out); /* zeil inactive logs to stderr */
        problem = judge_log(c, both, why, sizeof why);
        free(both);
        free(log);
        free(out);
    }
    const expected_failure_t *known = expected_failure(c->name);
    if (known) {
        printf("%s %-40s %s%s%s (known bug: %s)\n", problem ? "XFAIL" : "XPASS", c->name, c->rule,
               problem ? ": " : "", problem ? problem : "", known->reason);
        return problem || known->may_pass ? 0 : 1;
    }
    printf("%s %-40s %s%s%s\n", problem ? "FAIL " : "ok   ", c->name, c->rule, problem ? ": " : "",
           problem ? problem : "");
    return problem ? 1 : 0;
}

static int skipped(const char *name)
{
    const char *skip = getenv("ZEIL_MISUSE_SKIP");
    size_t len = strlen(name);
    for (const char *p = skip; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] != 0))
        if (strncmp(p, name, len) == 0 && (p[len] == ',' || p[len] == 0))
            return 1;
    return 0;
}

static int run_all(void)
{
    const char *dir = getenv("ZEIL_MISUSE_DIR");
    if (!dir || !*dir)
        dir = "misuse_logs";
    mkdir(dir, 0700);
    size_t total = 0, failed = 0, known = 0;
    for (size_t g = 0; g < GROUP_COUNT; g++) {
        misuse_case_list_t list = case_groups[g]();
        for (size_t i = 0; i < list.count; i++) {
            if (skipped(list.cases[i].name)) {
                printf("skip  %-40s %s (ZEIL_MISUSE_SKIP)\n", list.cases[i].name,
                       list.cases[i].rule);
                continue;
            }
            total++;
            failed += (size_t)judge_case(&list.cases[i], dir);
            known += expected_failure(list.cases[i].name) != NULL;
        }
    }
    printf("misuse: %zu cases, %zu detected as specified, %zu known bugs (XFAIL), %zu failed\n",
           total, total - failed - known, known, failed);
    return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--case") == 0)
        return run_case_here(argv[2]);
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (size_t g = 0; g < GROUP_COUNT; g++) {
            misuse_case_list_t list = case_groups[g]();
            for (size_t i = 0; i < list.count; i++)
                printf("%s %s\n", list.cases[i].name, list.cases[i].rule);
        }
        return 0;
    }
    return run_all();
}
