/*
 * rd_spawn.h: running a compiler tool as a process (posix_spawn), with a
 * timeout, its output captured for the build log. The child gets the
 * caller's environment without LD_PRELOAD (a layer or sanitizer runtime
 * preloaded into the application has no business in the compiler).
 */
#ifndef ZEIL_RD_SPAWN_H
#define ZEIL_RD_SPAWN_H

#include "rd_strbuf.h"

typedef enum rd_spawn_result {
    RD_SPAWN_OK = 0,    /* ran and exited with 0 */
    RD_SPAWN_FAILED,    /* ran and failed (exit code, signal): the log says */
    RD_SPAWN_NOT_FOUND, /* the program is not installed */
    RD_SPAWN_TIMEOUT,   /* killed after the timeout */
    RD_SPAWN_ERROR,     /* could not start it (resources) */
} rd_spawn_result_t;

/* Runs argv (argv[0] looked up in PATH unless it holds a '/'). stdout goes to
 * out (may be null: discarded), stderr to log; a failure is described in log
 * too. The program runs in tmpdir, where
 * its captured output goes too. */
rd_spawn_result_t rd_spawn(char *const argv[], const char *tmpdir, unsigned timeout_s,
                           rd_strbuf_t *out, rd_strbuf_t *log);

/* The full path of a program as posix_spawnp finds it, into path; 0 when not
 * found. */
int rd_spawn_which(const char *program, char *path, size_t size);

#endif
