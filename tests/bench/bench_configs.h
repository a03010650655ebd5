/*
 * bench_configs.h: the configurations the benchmark compares and the
 * environment each child process starts with.
 */
#ifndef ZEIL_BENCH_CONFIGS_H
#define ZEIL_BENCH_CONFIGS_H

#include <stddef.h>

/* Files the children need (all absolute paths). */
typedef struct bench_paths {
    const char *self;        /* this program */
    const char *driver;      /* the reference driver, libze_zeil_cpu.so.1 */
    const char *zeil;        /* libzeil.so */
    const char *kernels;     /* the test kernel library */
    const char *interop_exe; /* zeil_bench_interop, or null when its file is missing */
    const char *tmpdir;      /* traces and child logs */
} bench_paths_t;

typedef struct bench_config {
    const char *name;
    int zeil;                 /* ZE_ENABLE_LAYERS=zeil, libzeil.so preloaded */
    int trace;                /* plus ZEIL_TRACE to a file, ZEIL_TIMING=0 */
    const char *const *extra; /* further NAME=value, null-terminated */
} bench_config_t;

/* The five configurations of the per-call figures, "driver" first. */
#define BENCH_CALL_CONFIGS 5
extern const bench_config_t bench_call_configs[BENCH_CALL_CONFIGS];
extern const bench_config_t bench_config_driver;
extern const bench_config_t bench_config_zeil;
extern const bench_config_t bench_config_zeil_hazards; /* ZEIL_CHECKS=hazards */

/* A fresh environment for a child: the caller's environment without any
 * Level Zero, zeil or preload setting, then the reference driver, the test
 * kernels, and the configuration's own variables. tag names the child's
 * trace file when the configuration writes one. The result and its strings
 * are malloc'd; bench_env_free releases them. */
char **bench_env_new(const bench_paths_t *paths, const bench_config_t *config, const char *tag);
void bench_env_free(char **env);
/* The trace file of the child tagged tag (configurations with trace set). */
void bench_trace_path(const bench_paths_t *paths, const char *tag, char *out, size_t cap);

#endif
