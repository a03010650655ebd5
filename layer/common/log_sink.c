/* The log sink: the output side's log (zo_log_write), which writes to stderr
 * or ZEIL_LOG_FILE. */
#include "log_sink.h"

#include "env.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "zeil_output.h"

void log_sink_write(const char *line, size_t len)
{
    zo_log_write(line, len);
}

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
