/* zo_test_util.h: helpers for the output suites (files, child commands,
 * synthetic records). */
#ifndef ZO_TEST_UTIL_H
#define ZO_TEST_UTIL_H

#include <check.h>
#include <stddef.h>
#include <zeil/zeil.h>

/* Runs the suite (its runner freed after) and returns main's exit status:
 * 0 when every test passed. */
int zo_test_run_suite(Suite *suite);

/* A fresh directory for this test's files (removed by nobody: /tmp). */
const char *zo_test_dir(void);
/* dir + "/" + name in a static rotating buffer. */
const char *zo_test_path(const char *name);
/* The whole file, NUL-terminated (malloc'd), or null. */
char *zo_test_read(const char *path);
/* Runs a shell command, returns its stdout (malloc'd) and exit status. */
char *zo_test_run(const char *command, int *status);
/* check_trace.py's description of a trace (recover: tolerate a cut end). */
char *zo_test_describe_trace(const char *path, int recover, int *status);

/* A launch record on list/stream; strings must outlive the call. */
zeil_record_t zo_test_launch(uint64_t seq, uintptr_t list, uint64_t stream_id, const char *kernel,
                             uint64_t host_ns);

#endif
