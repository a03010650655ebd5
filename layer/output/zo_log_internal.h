/* zo_log_internal.h: configuring the log sink (zo_main.c). */
#ifndef ZO_LOG_INTERNAL_H
#define ZO_LOG_INTERNAL_H

#include "zeil_output.h"

/* Sets the level and opens path (null or "": stderr; unopenable: one
 * warning, stderr). base_ns is time 0 of the "calls" lines. */
void zo_log_configure(zo_log_level_t level, const char *path, uint64_t base_ns);
/* Where log lines go now (async-signal-safe). */
int zo_log_fd(void);

#endif
