/* Helpers of the layer's check suites. */
#include "zl.h"

#include <zeil/zeil.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *log_path(void)
{
    const char *path = getenv("ZEIL_LOG_FILE");
    ck_assert_msg(path && *path, "ZEIL_LOG_FILE is not set for this suite");
    return path;
}

size_t zl_log_mark(void)
{
    struct stat st;
    return stat(log_path(), &st) == 0 ? (size_t)st.st_size : 0;
}

char *zl_log_since(size_t mark)
{
    FILE *f = fopen(log_path(), "rb");
    if (!f)
        return strdup("");
    fseek(f, 0, SEEK_END);
    long end = ftell(f);
    size_t len = end > (long)mark ? (size_t)end - mark : 0;
    char *text = malloc(len + 1);
    ck_assert_ptr_nonnull(text);
    fseek(f, (long)mark, SEEK_SET);
    len = fread(text, 1, len, f);
    text[len] = 0;
    fclose(f);
    return text;
}

void zl_assert_one_finding(size_t mark, const char *rule, const char *call, ...)
{
    char *text = zl_log_since(mark);
    char head[128];
    snprintf(head, sizeof head, "[%s] %s: ", rule, call);
    int lines = 0;
    char *line = NULL;
    for (char *p = text; *p;) {
        char *eol = strchr(p, '\n');
        if (eol)
            *eol = 0;
        if (strstr(p, head)) {
            lines++;
            line = p;
        }
        p = eol ? eol + 1 : p + strlen(p);
    }
    ck_assert_msg(lines == 1, "expected one %s line, found %d in:\n%s", head, lines, text);
    ck_assert_msg(strncmp(line, "zeil: ", 6) == 0, "malformed line: %s", line);
    va_list ap;
    va_start(ap, call);
    for (const char *frag = va_arg(ap, const char *); frag; frag = va_arg(ap, const char *))
        ck_assert_msg(strstr(line, frag), "'%s' not in: %s", frag, line);
    va_end(ap);
    free(text);
}

void zl_assert_silent(size_t mark)
{
    char *text = zl_log_since(mark);
    ck_assert_msg(text[0] == 0, "zeil wrote:\n%s", text);
    free(text);
}

void zl_assert_no_error(size_t mark)
{
    char *text = zl_log_since(mark);
    ck_assert_msg(!strstr(text, "ZEIL-E"), "zeil refused a valid call: %s", text);
    free(text);
}

int zl_run_child(const char *mode, const char *const *overrides, char *out, size_t out_size)
{
    int pipe_fds[2];
    ck_assert_int_eq(pipe(pipe_fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(pipe_fds[1], STDOUT_FILENO);
        close(pipe_fds[0]);
        for (const char *const *o = overrides; o && *o; o++) {
            const char *eq = strchr(*o, '=');
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(eq - *o), *o);
            if (eq[1])
                setenv(name, eq + 1, 1);
            else
                unsetenv(name);
        }
        execl("/proc/self/exe", "child", mode, (char *)NULL);
        _exit(127);
    }
    close(pipe_fds[1]);
    size_t used = 0;
    ssize_t n;
    while (used + 1 < out_size && (n = read(pipe_fds[0], out + used, out_size - 1 - used)) > 0)
        used += (size_t)n;
    out[used] = 0;
    close(pipe_fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

void zl_child_main(int argc, char **argv, const zl_child_mode_t *modes)
{
    if (argc < 2)
        return;
    for (const zl_child_mode_t *m = modes; m && m->name; m++)
        if (strcmp(argv[1], m->name) == 0) {
            int rc = m->run();
            fflush(stdout);
            exit(rc);
        }
}

void zl_open(zl_fixture_t *f)
{
    memset(f, 0, sizeof *f);
    zt_open(&f->env);
    f->list = zt_immediate_list(&f->env, 1);
    f->pool = zt_event_pool(&f->env, 8, 0);
    for (uint32_t i = 0; i < 8; i++)
        f->event[i] = zt_event(f->pool, i);
    f->module = zt_load_test_module(&f->env);
}

void zl_close(zl_fixture_t *f)
{
    ZT_OK(zeModuleDestroy(f->module));
    for (uint32_t i = 0; i < 8; i++)
        ZT_OK(zeEventDestroy(f->event[i]));
    ZT_OK(zeEventPoolDestroy(f->pool));
    ZT_OK(zeCommandListDestroy(f->list));
    zt_close(&f->env);
}

int zl_signalled(ze_event_handle_t event)
{
    ze_result_t r = zeEventQueryStatus(event);
    ck_assert_msg(r == ZE_RESULT_SUCCESS || r == ZE_RESULT_NOT_READY,
                  "zeEventQueryStatus returned 0x%x", (unsigned)r);
    return r == ZE_RESULT_SUCCESS;
}

void *zl_signal_when_reported(void *late_signal)
{
    zl_late_signal_t *s = late_signal;
    for (int i = 0; i < 6000 && zeil_rule_count(s->rule) == 0; i++) {
        struct timespec tick = {0, 1000 * 1000};
        nanosleep(&tick, NULL);
    }
    zeEventHostSignal(s->event);
    return NULL;
}
