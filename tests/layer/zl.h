/* zl.h: helpers of the layer's check suites (on top of tests/common/zt.h). */
#ifndef ZEIL_TESTS_ZL_H
#define ZEIL_TESTS_ZL_H

#include "zt.h"

#include <stddef.h>

/* ---- zeil's log (ZEIL_LOG_FILE, set by CMake for every layer suite) ---- */
/* Where the log ends now. */
size_t zl_log_mark(void);
/* What zeil wrote since mark (malloc'd, never null). */
char *zl_log_since(size_t mark);
/* Asserts zeil wrote, since mark, exactly one line with "[rule] call:" that
 * contains every fragment given (a null-terminated list). */
void zl_assert_one_finding(size_t mark, const char *rule, const char *call, ...);
/* Asserts zeil wrote nothing since mark. */
void zl_assert_silent(size_t mark);
/* Asserts zeil reported no error since mark (warnings may be there). */
void zl_assert_no_error(size_t mark);

/* ---- child processes ---- */
/* Runs this test binary again as `binary mode` with the environment changed
 * by "VAR=value" (or "VAR=" to unset) overrides, captures its stdout into out
 * and returns its wait status. The suite's main calls zl_child_main first. */
int zl_run_child(const char *mode, const char *const *overrides, char *out, size_t out_size);
typedef int (*zl_child_fn)(void);
typedef struct zl_child_mode {
    const char *name;
    zl_child_fn run;
} zl_child_mode_t;
/* When argv[1] names one of modes, runs it and exits with its result. */
void zl_child_main(int argc, char **argv, const zl_child_mode_t *modes);

/* ---- a fixture most rule tests share ---- */
typedef struct zl_fixture {
    zt_env_t env;
    ze_command_list_handle_t list; /* synchronous immediate */
    ze_event_pool_handle_t pool;   /* 8 host-visible events */
    ze_event_handle_t event[8];
    ze_module_handle_t module; /* the test kernels */
} zl_fixture_t;

void zl_open(zl_fixture_t *f);
void zl_close(zl_fixture_t *f);
/* 1 when the driver signalled the event. */
int zl_signalled(ze_event_handle_t event);

/* ---- a host wait zeil warns about ---- */
/* A thread's work (pthread_create(..., zl_signal_when_reported, &late)):
 * signals event once zeil has counted rule (or after 6 s), letting go of
 * the host thread blocked in the wait zeil reported. */
typedef struct zl_late_signal {
    ze_event_handle_t event;
    const char *rule;
} zl_late_signal_t;
void *zl_signal_when_reported(void *late_signal);

#endif
