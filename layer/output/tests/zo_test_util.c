/* zo_test_util.c: helpers for the output suites (see zo_test_util.h). */
#include "zo_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

const char *zo_test_dir(void)
{
    static char dir[256];
    if (!dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/zeil-output-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            abort();
        }
    }
    return dir;
}

const char *zo_test_path(const char *name)
{
    static char paths[8][512];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, sizeof paths[0], "%s/%s", zo_test_dir(), name);
    return p;
}

static char *read_stream(FILE *f)
{
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    size_t n;
    while (text && (n = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len < 2) {
            cap *= 2;
            text = realloc(text, cap);
        }
    }
    if (text)
        text[len] = 0;
    return text;
}

char *zo_test_read(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char *text = read_stream(f);
    fclose(f);
    return text;
}

char *zo_test_run(const char *command, int *status)
{
    FILE *p = popen(command, "r");
    if (!p) {
        *status = -1;
        return 0;
    }
    char *out = read_stream(p);
    int rc = pclose(p);
    *status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    return out;
}

char *zo_test_describe_trace(const char *path, int recover, int *status)
{
    char command[1024];
    snprintf(command, sizeof command, "%s %s '%s'%s 2>&1", ZO_TEST_PYTHON, ZO_TEST_CHECK_TRACE,
             path, recover ? " --recover" : "");
    return zo_test_run(command, status);
}

zeil_record_t zo_test_launch(uint64_t seq, uintptr_t list, uint64_t stream_id, const char *kernel,
                             uint64_t host_ns)
{
    zeil_record_t r;
    memset(&r, 0, sizeof r);
    r.seq = seq;
    r.kind = ZEIL_RECORD_LAUNCH;
    r.call = "zeCommandListAppendLaunchKernel";
    r.list = (ze_command_list_handle_t)list;
    r.stream_id = stream_id;
    r.kernel = kernel;
    r.group_count[0] = 4;
    r.group_count[1] = 2;
    r.group_count[2] = 1;
    r.group_size[0] = 64;
    r.group_size[1] = 1;
    r.group_size[2] = 1;
    r.thread = 1;
    r.host_ns = host_ns;
    return r;
}

int zo_test_run_suite(Suite *suite)
{
    SRunner *r = srunner_create(suite);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
