/* The log sink: the output side's log (zo_log_write) when it is built in,
 * else stderr or ZEIL_LOG_FILE opened once for appending. */
#include "log_sink.h"

#include "env.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#ifdef ZEIL_HAVE_OUTPUT
#include "zeil_output.h"

void log_sink_write(const char *line, size_t len)
{
    zo_log_write(line, len);
}
#else
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

static int sink_fd = STDERR_FILENO;
static pthread_once_t sink_once = PTHREAD_ONCE_INIT;

static void open_sink(void)
{
    const char *file = zeil_settings()->log_file;
    if (!file)
        return;
    int fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd >= 0)
        sink_fd = fd;
}

void log_sink_write(const char *line, size_t len)
{
    pthread_once(&sink_once, open_sink);
    char buf[LOG_LINE_MAX + 1];
    if (len > LOG_LINE_MAX)
        len = LOG_LINE_MAX;
    memcpy(buf, line, len);
    if (len == 0 || buf[len - 1] != '\n')
        buf[len++] = '\n';
    ssize_t written = write(sink_fd, buf, len);
    (void)written; /* nowhere better to report a failing log */
}
#endif

void log_sink_printf(const char *fmt, ...)
{
    char line[LOG_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    log_sink_write(line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}
