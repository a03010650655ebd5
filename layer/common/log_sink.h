/*
 * log_sink.h: where zeil's log lines go. One function, so the output side
 * (layer/output, zo_log_write) can take over without touching callers.
 */
#ifndef ZEIL_LOG_SINK_H
#define ZEIL_LOG_SINK_H

#include <stddef.h>

/* Writes one line (a newline is added when missing) with a single write(2) to
 * stderr or ZEIL_LOG_FILE, so lines of several threads never interleave. */
void log_sink_write(const char *line, size_t len);

/* printf-style convenience around log_sink_write; truncates long lines. */
void log_sink_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define LOG_LINE_MAX 1024

#endif
