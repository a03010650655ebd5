/*
 * Environment handling: zeil's settings and the list syntax of
 * ZE_ENABLE_LAYERS / ZEIL_DRIVERS. Every read of the environment in the layer
 * is here; bootstrap.c only writes the variables that put zeil in the call
 * path (and asks here what the user had set).
 */
#include "env.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

void env_foreach_item(const char *list, void (*fn)(const char *item, size_t len, void *user),
                      void *user)
{
    if (!list)
        return;
    const char *p = list;
    while (*p) {
        const char *end = strchr(p, ',');
        if (!end)
            end = p + strlen(p);
        const char *a = p, *b = end;
        while (a < b && (*a == ' ' || *a == '\t'))
            a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        if (b > a)
            fn(a, (size_t)(b - a), user);
        p = *end ? end + 1 : end;
    }
}

static int item_names_zeil(const char *item, size_t len)
{
    if (len == 4 && memcmp(item, "zeil", 4) == 0)
        return 1;
    if (item[0] != '/')
        return 0;
    const char *base = item;
    for (size_t i = 0; i < len; i++)
        if (item[i] == '/')
            base = item + i + 1;
    size_t base_len = len - (size_t)(base - item);
    static const char shim[] = "libzeil_layer", runtime[] = "libzeil.so";
    if (base_len >= sizeof shim - 1 && memcmp(base, shim, sizeof shim - 1) == 0)
        return 1;
    return base_len >= sizeof runtime - 1 && memcmp(base, runtime, sizeof runtime - 1) == 0;
}

static void note_zeil(const char *item, size_t len, void *user)
{
    if (item_names_zeil(item, len))
        *(int *)user = 1;
}

int env_layers_name_zeil(const char *value)
{
    int named = 0;
    env_foreach_item(value, note_zeil, &named);
    return named;
}

static int parse_log_level(const char *value)
{
    if (!value || !*value)
        return ZEIL_LOG_WARNING;
    static const char *const names[] = {"error", "warning", "info", "calls"};
    for (int i = 0; i < 4; i++)
        if (strcasecmp(value, names[i]) == 0)
            return i;
    return ZEIL_LOG_WARNING;
}

static uint32_t parse_records(const char *value)
{
    if (!value || !*value)
        return ZEIL_DEFAULT_RECORDS;
    char *end = NULL;
    unsigned long n = strtoul(value, &end, 10);
    if (*end || n == 0 || n > (1u << 24))
        return ZEIL_DEFAULT_RECORDS;
    return (uint32_t)n;
}

/* The exact hazard checks are on unless ZEIL_CHECKS switches them off
 * ("-hazards" or "none"); the guesses (kernels' pointer arguments, W091)
 * only when it names them: "hazard-guesses" (with the exact checks), or
 * "hazards"/"all", which have always meant every hazard check. Applied left
 * to right, read here once, so the hooks cost one branch on a plain flag.
 * diag.c takes the two groups' state from here. */
typedef struct hazard_items {
    int exact, guesses;
} hazard_items_t;

static int item_is(const char *item, size_t len, const char *name)
{
    return strlen(name) == len && memcmp(item, name, len) == 0;
}

static void note_hazards_item(const char *item, size_t len, void *user)
{
    hazard_items_t *h = user;
    if (item_is(item, len, "all") || item_is(item, len, "hazards") ||
        item_is(item, len, "+hazards") || item_is(item, len, "hazard-guesses") ||
        item_is(item, len, "+hazard-guesses"))
        h->exact = h->guesses = 1;
    else if (item_is(item, len, "none") || item_is(item, len, "-hazards"))
        h->exact = h->guesses = 0;
    else if (item_is(item, len, "-hazard-guesses"))
        h->guesses = 0;
}

static int settings_copy_failed;

/* A copy of a setting; out of memory the environment's own string, which
 * stays valid unless the program changes that variable (zeil reads them as
 * it starts): better than losing the setting. */
static const char *copy_setting(const char *value)
{
    if (!value)
        return NULL;
    char *copy = strdup(value);
    if (copy)
        return copy;
    settings_copy_failed = 1;
    return value;
}

/* The process's rank in a parallel job, from the first of the launchers'
 * variables that is set to a number; null when none is. */
static const char *job_rank(void)
{
    static const char *const names[] = {"PMI_RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        if (v && *v && v[strspn(v, "0123456789")] == 0 && strlen(v) < 10)
            return v;
    }
    return NULL;
}

/* An output path with %p (the process id), %r (the rank: job_rank) and %%
 * expanded, so that every process of a job writes its own files. Other %
 * sequences stay as they are. */
static const char *output_path(const char *value)
{
    if (!value || !*value)
        return NULL;
    if (!strchr(value, '%'))
        return copy_setting(value);
    char pid[24];
    snprintf(pid, sizeof pid, "%ld", (long)getpid());
    const char *rank = job_rank() ? job_rank() : "0";
    size_t len = 1;
    for (const char *p = value; *p; p++)
        len += p[0] != '%' ? 1 : p[1] == 'p' ? strlen(pid) : p[1] == 'r' ? strlen(rank) : 1;
    char *out = malloc(len);
    if (!out) {
        settings_copy_failed = 1;
        return value;
    }
    char *o = out;
    for (const char *p = value; *p; p++) {
        const char *insert = NULL;
        if (p[0] == '%' && (p[1] == 'p' || p[1] == 'r' || p[1] == '%'))
            insert = p[1] == 'p' ? pid : p[1] == 'r' ? rank : "%";
        if (insert) {
            size_t n = strlen(insert);
            memcpy(o, insert, n);
            o += n;
            p++;
        } else {
            *o++ = *p;
        }
    }
    *o = 0;
    return out;
}

int env_settings_copy_failed(void)
{
    return settings_copy_failed;
}

zeil_settings_t zeil_settings_data;
_Atomic int zeil_settings_ready; /* set (release) once the settings are complete */
static pthread_once_t settings_once = PTHREAD_ONCE_INIT;

/* Paths (files zeil writes, libraries it opens) are read with secure_getenv:
 * a setuid or setgid process ignores them, so an unprivileged caller cannot
 * make it write or load files of the caller's choosing. */
static void read_settings(void)
{
    zeil_settings_data.enabled = env_layers_name_zeil(getenv("ZE_ENABLE_LAYERS"));
    zeil_settings_data.log_level = parse_log_level(getenv("ZEIL_LOG"));
    zeil_settings_data.rank = job_rank() ? atoi(job_rank()) : -1;
    const char *file = secure_getenv("ZEIL_LOG_FILE");
    zeil_settings_data.log_file = output_path(file);
    const char *on_error = getenv("ZEIL_ON_ERROR");
    zeil_settings_data.abort_on_error = on_error && strcmp(on_error, "abort") == 0;
    const char *checks = getenv("ZEIL_CHECKS");
    zeil_settings_data.checks = copy_setting(checks);
    hazard_items_t hazards = {1, 0};
    env_foreach_item(checks, note_hazards_item, &hazards);
    zeil_settings_data.hazards = hazards.exact;
    zeil_settings_data.hazard_guesses = hazards.guesses;
    const char *hang = getenv("ZEIL_HANG_WARN_MS");
    char *end = NULL;
    unsigned long long ms = hang && *hang ? strtoull(hang, &end, 10) : ZEIL_DEFAULT_HANG_WARN_MS;
    zeil_settings_data.hang_warn_ms = end && *end ? ZEIL_DEFAULT_HANG_WARN_MS : ms;
    zeil_settings_data.records = parse_records(getenv("ZEIL_RECORDS"));
    const char *timing = getenv("ZEIL_TIMING");
    zeil_settings_data.timing = timing && strcmp(timing, "1") == 0;
    zeil_settings_data.trace_file = output_path(secure_getenv("ZEIL_TRACE"));
    const char *report = getenv("ZEIL_REPORT");
    zeil_settings_data.report = !report || strcmp(report, "0") != 0;
    if (report && strcmp(report, "0") != 0 && strcmp(report, "1") != 0)
        zeil_settings_data.report_file = output_path(secure_getenv("ZEIL_REPORT"));
    zeil_settings_data.summary_file = output_path(secure_getenv("ZEIL_SUMMARY"));
    atomic_store_explicit(&zeil_settings_ready, 1, memory_order_release);
}

const zeil_settings_t *zeil_settings_read(void)
{
    pthread_once(&settings_once, read_settings);
    return &zeil_settings_data;
}

/* Read when asked, not with the settings: a shim may ask for its next driver
 * (zeil_shim_next_driver) in a process where zeil is off and the constructor
 * read nothing, and the bootstrap asks before it changes these variables. */
const char *env_next_drivers(void)
{
    const char *chosen = secure_getenv("ZEIL_DRIVERS");
    if (chosen && *chosen)
        return chosen;
    const char *alt = secure_getenv("ZE_ENABLE_ALT_DRIVERS");
    const char *shims = secure_getenv("ZEIL_BOOTSTRAP_SHIMS");
    const char *saved = secure_getenv("ZEIL_BOOTSTRAP_NEXT");
    return alt && shims && saved && strcmp(alt, shims) == 0 ? saved : alt;
}

int env_loader_ddi_path_chosen(void)
{
    return getenv("ZE_ENABLE_LOADER_DRIVER_DDI_PATH") != NULL;
}
