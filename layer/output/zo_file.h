/*
 * zo_file.h: opening and writing zeil's output files.
 *
 * Every output file is opened O_NOFOLLOW | O_CLOEXEC with mode 0600: a
 * symlink planted where a trace or report should go is refused, and the file
 * is not inherited by programs the application execs. A path that cannot be
 * opened gets one warning line on stderr; the caller carries on without it.
 */
#ifndef ZO_FILE_H
#define ZO_FILE_H

#include <stddef.h>

typedef enum zo_open_mode {
    ZO_OPEN_APPEND,  /* logs: lines from several processes may share a file */
    ZO_OPEN_TRUNCATE /* traces, reports, summaries: one run per file */
} zo_open_mode_t;

/* Returns the descriptor, or -1 after warning once on stderr naming what
 * (e.g. "ZEIL_TRACE") and why. */
int zo_open_output(const char *path, zo_open_mode_t mode, const char *what);

/* write(2) until everything is written or an error other than EINTR occurs.
 * Async-signal-safe. Returns 0, or -1. */
int zo_write_all(int fd, const char *data, size_t len);

/* One line on stderr, written with a single write(2) (async-signal-safe). */
void zo_warn(const char *a, const char *b, const char *c);

#endif
