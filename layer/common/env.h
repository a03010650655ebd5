/*
 * env.h: everything zeil reads from the environment, in one place.
 */
#ifndef ZEIL_ENV_H
#define ZEIL_ENV_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

enum {
    ZEIL_LOG_ERROR = 0,
    ZEIL_LOG_WARNING = 1,
    ZEIL_LOG_INFO = 2,
    ZEIL_LOG_CALLS = 3
};

typedef struct zeil_settings {
    int enabled;              /* ZE_ENABLE_LAYERS names zeil */
    int log_level;            /* ZEIL_LOG: error|warning|info|calls */
    const char *log_file;     /* ZEIL_LOG_FILE, null: stderr */
    int abort_on_error;       /* ZEIL_ON_ERROR=abort */
    const char *checks;       /* ZEIL_CHECKS, raw (rule groups parse it) */
    uint32_t records;         /* ZEIL_RECORDS: retained records per list */
    int timing;               /* ZEIL_TIMING=1 */
    const char *trace_file;   /* ZEIL_TRACE */
    int report;               /* ZEIL_REPORT: 0 off, else on (default) */
    const char *report_file;  /* ZEIL_REPORT=path */
    const char *summary_file; /* ZEIL_SUMMARY */
    int rank;                 /* PMI_RANK, OMPI_COMM_WORLD_RANK or SLURM_PROCID;
                                -1 when none is set (%r in paths is then 0) */
    int hazards;              /* the exact hazard checks: on unless ZEIL_CHECKS says -hazards */
    int hazard_guesses;       /* and kernels' pointer arguments (W091): when ZEIL_CHECKS names
                                 hazards, +hazard-guesses or all */
    uint64_t hang_warn_ms;    /* ZEIL_HANG_WARN_MS: a host wait blocked this long on a
                                wait nothing pending signals is W097; 0: never */
} zeil_settings_t;

#define ZEIL_DEFAULT_HANG_WARN_MS 1000u

#define ZEIL_DEFAULT_RECORDS 4096u

/* Read once, at the runtime's construction. Inline: every intercepted call
 * asks, and after the first read it is one acquire load. */
extern zeil_settings_t zeil_settings_data __attribute__((visibility("hidden")));
extern _Atomic int zeil_settings_ready __attribute__((visibility("hidden")));
const zeil_settings_t *zeil_settings_read(void) __attribute__((visibility("hidden")));
static inline const zeil_settings_t *zeil_settings(void)
{
    if (atomic_load_explicit(&zeil_settings_ready, memory_order_acquire))
        return &zeil_settings_data;
    return zeil_settings_read();
}

/* 1 when a setting could not be copied (out of memory) and zeil uses the
 * environment's own string instead. */
int env_settings_copy_failed(void);

/* 1 when a ZE_ENABLE_LAYERS value names zeil: the name "zeil" or a path whose
 * file is libzeil_layer*.so or libzeil.so. */
int env_layers_name_zeil(const char *value);

/* The comma list of next drivers to wrap (bootstrap.c): ZEIL_DRIVERS if set;
 * else ZE_ENABLE_ALT_DRIVERS, unless that still is the shim list a parent
 * process set (ZEIL_BOOTSTRAP_SHIMS), when the parent's choice
 * (ZEIL_BOOTSTRAP_NEXT) is taken instead. Null when none is set. The string
 * is the environment's: copy it before the environment changes. */
const char *env_next_drivers(void);

/* 1 when the user set ZE_ENABLE_LOADER_DRIVER_DDI_PATH (to anything): the
 * bootstrap then leaves it alone. */
int env_loader_ddi_path_chosen(void);

/* Calls fn for each non-empty, blank-trimmed item of a comma list. */
void env_foreach_item(const char *list, void (*fn)(const char *item, size_t len, void *user),
                      void *user);

#endif
