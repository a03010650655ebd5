/* zo_log.c: the log sink (zeil_output.h "log"). Lines go to stderr or
 * ZEIL_LOG_FILE, each with one write(2), so lines of several threads (and of
 * several processes appending to one file) never interleave. */
#include "zeil_output.h"
#include "zo_buf.h"
#include "zo_file.h"
#include "zo_log_internal.h"
#include "zo_result_name.h"

#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

/* Longer lines are cut: a pipe only keeps writes up to PIPE_BUF whole. */
#define LOG_LINE_MAX 4096

static _Atomic int log_level = ZO_LOG_WARNING;
static _Atomic int log_fd = STDERR_FILENO;
static uint64_t log_base_ns;

void zo_log_configure(zo_log_level_t level, const char *path, uint64_t base_ns)
{
    atomic_store(&log_level, (int)level);
    log_base_ns = base_ns;
    if (path && path[0]) {
        int fd = zo_open_output(path, ZO_OPEN_APPEND, "ZEIL_LOG_FILE");
        if (fd >= 0)
            atomic_store(&log_fd, fd);
    }
}

int zo_log_fd(void)
{
    return atomic_load_explicit(&log_fd, memory_order_relaxed);
}

int zo_log_enabled(zo_log_level_t level)
{
    return (int)level <= atomic_load_explicit(&log_level, memory_order_relaxed);
}

void zo_log_write(const char *line, size_t len)
{
    char out[LOG_LINE_MAX];
    if (len && line[len - 1] == '\n')
        len--;
    if (len > sizeof out - 1)
        len = sizeof out - 1;
    zo_buf_t b;
    zo_buf_init(&b, out, sizeof out);
    zo_buf_mem(&b, line, len);
    zo_buf_char(&b, '\n');
    (void)zo_write_all(zo_log_fd(), out, b.len);
}

void zo_log_call(uint32_t thread, const char *call, const char *args, ze_result_t result,
                 uint64_t start_ns, uint64_t end_ns)
{
    char out[LOG_LINE_MAX];
    zo_buf_t b;
    zo_buf_init(&b, out, sizeof out - 1);
    zo_buf_str(&b, "zeil: ");
    zo_buf_fixed(&b, start_ns > log_base_ns ? start_ns - log_base_ns : 0, 1000000000u, 6);
    zo_buf_str_u64(&b, " T", thread);
    zo_buf_char(&b, ' ');
    zo_buf_safe_text(&b, call);
    zo_buf_char(&b, '(');
    if (args)
        zo_buf_mem(&b, args, strnlen(args, LOG_LINE_MAX));
    zo_buf_str(&b, ") -> ");
    const char *name = zo_result_name(result);
    if (name)
        zo_buf_str(&b, name);
    else
        zo_buf_hex(&b, (uint32_t)result);
    zo_buf_str(&b, " (");
    zo_buf_fixed(&b, end_ns > start_ns ? end_ns - start_ns : 0, 1000, 1);
    zo_buf_str(&b, " us)");
    if (!zo_buf_ok(&b)) {
        b.len -= 3;
        zo_buf_str(&b, "...");
    }
    out[b.len++] = '\n';
    (void)zo_write_all(zo_log_fd(), out, b.len);
}
