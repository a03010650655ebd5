/* The configurations and their environments. */
#include "bench_configs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

static const char *const validation_env[] = {"ZE_ENABLE_VALIDATION_LAYER=1",
                                             "ZE_ENABLE_PARAMETER_VALIDATION=1",
                                             "ZE_ENABLE_HANDLE_LIFETIME=1", NULL};
static const char *const tracing_env[] = {"ZE_ENABLE_TRACING_LAYER=1", NULL};

const bench_config_t bench_call_configs[BENCH_CALL_CONFIGS] = {
    {"driver", 0, 0, NULL},
    {"zeil", 1, 0, NULL},
    {"zeil_trace", 1, 1, NULL},
    {"stock_validation", 0, 0, validation_env},
    {"stock_tracing", 0, 0, tracing_env},
};
const bench_config_t bench_config_driver = {"driver", 0, 0, NULL};
const bench_config_t bench_config_zeil = {"zeil", 1, 0, NULL};
static const char *const hazards_env[] = {"ZEIL_CHECKS=hazards", NULL};
const bench_config_t bench_config_zeil_hazards = {"zeil_hazards", 1, 0, hazards_env};

/* Settings of the caller's shell that would change what a child measures. */
static int inherited_setting(const char *entry)
{
    static const char *const prefixes[] = {"ZE_", "ZEL_", "ZES_", "ZET_", "ZEIL_", "LD_PRELOAD="};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (strncmp(entry, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    return 0;
}

static char *joined(const char *name, const char *a, const char *b)
{
    size_t n = strlen(name) + strlen(a) + strlen(b) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s=%s%s", name, a, b);
    return s;
}

char **bench_env_new(const bench_paths_t *paths, const bench_config_t *config, const char *tag)
{
    size_t inherited = 0;
    while (environ[inherited])
        inherited++;
    char **env = calloc(inherited + 16, sizeof *env);
    if (!env)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < inherited; i++)
        if (!inherited_setting(environ[i]))
            env[n++] = strdup(environ[i]);
    env[n++] = joined("ZE_ENABLE_ALT_DRIVERS", paths->driver, "");
    env[n++] = joined("ZEIL_TEST_KERNELS", paths->kernels, "");
    if (config->zeil) {
        env[n++] = strdup("ZE_ENABLE_LAYERS=zeil");
        env[n++] = joined("LD_PRELOAD", paths->zeil, "");
    }
    if (config->trace) {
        char file[4200];
        bench_trace_path(paths, tag, file, sizeof file);
        env[n++] = joined("ZEIL_TRACE", file, "");
        env[n++] = strdup("ZEIL_TIMING=0");
    }
    for (const char *const *e = config->extra; e && *e; e++)
        env[n++] = strdup(*e);
    for (size_t i = 0; i < n; i++)
        if (!env[i]) {
            for (size_t k = 0; k < n; k++)
                free(env[k]);
            free(env);
            return NULL;
        }
    return env;
}

void bench_trace_path(const bench_paths_t *paths, const char *tag, char *out, size_t cap)
{
    snprintf(out, cap, "%s/trace-%s.json", paths->tmpdir, tag);
}

void bench_env_free(char **env)
{
    if (!env)
        return;
    for (char **e = env; *e; e++)
        free(*e);
    free(env);
}
