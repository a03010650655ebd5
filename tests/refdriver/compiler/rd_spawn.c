/* Running a compiler tool as a process with a timeout (rd_spawn.h). */
#include "rd_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int rd_spawn_which(const char *program, char *path, size_t size)
{
    if (strchr(program, '/')) {
        snprintf(path, size, "%s", program);
        return access(path, X_OK) == 0;
    }
    const char *dirs = getenv("PATH");
    if (!dirs)
        dirs = "/usr/local/bin:/usr/bin:/bin";
    while (*dirs) {
        size_t n = strcspn(dirs, ":");
        int w = snprintf(path, size, "%.*s/%s", (int)n, n ? dirs : ".", program);
        struct stat st;
        if (w > 0 && (size_t)w < size && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
            access(path, X_OK) == 0)
            return 1;
        dirs += n;
        if (*dirs == ':')
            dirs++;
    }
    return 0;
}

/* The environment without LD_PRELOAD. */
static char **child_environment(void)
{
    size_t n = 0;
    while (environ && environ[n])
        n++;
    char **env = calloc(n + 1, sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0)
            env[k++] = environ[i];
    return env;
}

static void slurp(const char *file, rd_strbuf_t *into)
{
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    char buf[4096];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        rd_strbuf_add_bytes(into, buf, (size_t)n);
    close(fd);
}

/* Waits for pid up to timeout_s; kills it past that. Returns the wait
 * status, or -1 on timeout. */
static int wait_child(pid_t pid, unsigned timeout_s)
{
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    long sleep_us = 200;
    for (;;) {
        int status;
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            return status;
        if (r < 0 && errno != EINTR)
            return 0x7f00; /* not our child any more: report a failure */
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec >= (time_t)timeout_s) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
            return -1;
        }
        struct timespec d = {0, sleep_us * 1000};
        nanosleep(&d, NULL);
        if (sleep_us < 20000)
            sleep_us *= 2;
    }
}

rd_spawn_result_t rd_spawn(char *const argv[], const char *tmpdir, unsigned timeout_s,
                           rd_strbuf_t *out, rd_strbuf_t *log)
{
    char exe[4096], out_file[4096], err_file[4096];
    if (!rd_spawn_which(argv[0], exe, sizeof exe))
        return RD_SPAWN_NOT_FOUND;
    snprintf(out_file, sizeof out_file, "%s/stdout.txt", tmpdir);
    snprintf(err_file, sizeof err_file, "%s/stderr.txt", tmpdir);
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0)
        return RD_SPAWN_ERROR;
    /* The tools run in tmpdir, so that their diagnostics name the files by
     * their short names (program.cl:3:5: error: ...). */
    posix_spawn_file_actions_addchdir_np(&fa, tmpdir);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out ? out_file : "/dev/null",
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 2, err_file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    char **env = child_environment();
    pid_t pid;
    int rc = env ? posix_spawn(&pid, exe, &fa, NULL, argv, env) : ENOMEM;
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    if (rc != 0) {
        rd_strbuf_add(log, "cannot start %s: %s\n", exe, strerror(rc));
        return rc == ENOENT ? RD_SPAWN_NOT_FOUND : RD_SPAWN_ERROR;
    }
    int status = wait_child(pid, timeout_s);
    slurp(err_file, log);
    if (out)
        slurp(out_file, out);
    if (status == -1) {
        rd_strbuf_add(log, "%s did not finish within %u s and was killed\n", argv[0], timeout_s);
        return RD_SPAWN_TIMEOUT;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return RD_SPAWN_OK;
    if (WIFSIGNALED(status))
        rd_strbuf_add(log, "%s was killed by signal %d (%s)\n", argv[0], WTERMSIG(status),
                      strsignal(WTERMSIG(status)));
    else
        rd_strbuf_add(log, "%s failed (exit code %d)\n", argv[0], WEXITSTATUS(status));
    return RD_SPAWN_FAILED;
}
