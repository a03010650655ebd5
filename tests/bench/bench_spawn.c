/* fork, exec in a clean environment, collect the result lines. */
#include "bench_spawn.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define OUTPUT_MAX 8192
#define LOG_TAIL_BYTES 3000

static void print_log_tail(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, size > LOG_TAIL_BYTES ? size - LOG_TAIL_BYTES : 0, SEEK_SET);
    fprintf(stderr, "---- end of %s ----\n", path);
    char buf[512];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, n, stderr);
    fprintf(stderr, "----\n");
    fclose(f);
}

static pid_t start(char *const argv[], char **env, int out_fd, const char *log, unsigned timeout_s)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    int log_fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (log_fd < 0 || dup2(out_fd, STDOUT_FILENO) < 0 || dup2(log_fd, STDERR_FILENO) < 0)
        _exit(126);
    /* An alarm survives execve: a hung child is killed, not waited for. */
    alarm(timeout_s);
    execve(argv[0], argv, env);
    dprintf(STDERR_FILENO, "zeil_bench: cannot run %s\n", argv[0]);
    _exit(127);
}

/* Reads everything the child prints; returns the byte count or -1 when it
 * prints more than a result block can be. */
static long read_all(int fd, char *buf, size_t cap)
{
    size_t used = 0;
    for (;;) {
        ssize_t n = read(fd, buf + used, cap - 1 - used);
        if (n <= 0)
            break;
        used += (size_t)n;
        if (used == cap - 1)
            return -1;
    }
    buf[used] = '\0';
    return (long)used;
}

static int parse_lines(char *text, bench_results_t *into)
{
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save))
        if (bench_results_parse_line(into, line) != 0)
            return -1;
    return 0;
}

static int merge(bench_results_t *results, const bench_results_t *from)
{
    for (size_t i = 0; i < from->count; i++)
        for (size_t k = 0; k < from->series[i].n; k++)
            if (bench_results_add(results, from->series[i].figure, from->series[i].column,
                                  from->series[i].samples[k]) != 0)
                return -1;
    return 0;
}

/* A tracing configuration really traced; the file (megabytes, and only its
 * writing was the point) is removed. */
static int trace_written(const bench_paths_t *paths, const bench_config_t *config, const char *tag)
{
    if (!config->trace)
        return 1;
    char trace[4200];
    bench_trace_path(paths, tag, trace, sizeof trace);
    struct stat st;
    int written = stat(trace, &st) == 0 && st.st_size > 0;
    unlink(trace);
    return written;
}

int bench_run_child(const bench_paths_t *paths, const bench_config_t *config, const char *tag,
                    char *const argv[], unsigned timeout_s, bench_results_t *results)
{
    char log[4096];
    snprintf(log, sizeof log, "%s/%s.log", paths->tmpdir, tag);
    char **env = bench_env_new(paths, config, tag);
    int fds[2];
    if (!env || pipe(fds) != 0) {
        bench_env_free(env);
        fprintf(stderr, "zeil_bench: %s: out of resources\n", tag);
        return -1;
    }
    fflush(NULL);
    pid_t pid = start(argv, env, fds[1], log, timeout_s);
    close(fds[1]);
    bench_env_free(env);
    static char output[OUTPUT_MAX];
    long got = pid > 0 ? read_all(fds[0], output, sizeof output) : -1;
    close(fds[0]);
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    static bench_results_t parsed;
    memset(&parsed, 0, sizeof parsed);
    const char *why = NULL;
    if (pid <= 0)
        why = "cannot fork";
    else if (WIFSIGNALED(status))
        why = WTERMSIG(status) == SIGALRM ? "timed out" : strsignal(WTERMSIG(status));
    else if (WEXITSTATUS(status) != 0)
        why = "exited with an error";
    else if (got < 0 || parse_lines(output, &parsed) != 0 || parsed.count == 0)
        why = "printed no well-formed results";
    else if (!trace_written(paths, config, tag))
        why = "wrote no trace although ZEIL_TRACE was set";
    else if (merge(results, &parsed) != 0)
        why = "printed more results than the benchmark keeps";
    if (why) {
        fprintf(stderr, "zeil_bench: %s (configuration %s): %s\n", tag, config->name, why);
        print_log_tail(log);
        return -1;
    }
    unlink(log);
    return 0;
}
