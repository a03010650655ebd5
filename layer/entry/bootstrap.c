/*
 * Bootstrap: how zeil gets between the loader and the drivers.
 *
 * The constructor runs before the application's first zeInit (libzeil.so is
 * preloaded or linked). When ZE_ENABLE_LAYERS names zeil it remembers the
 * next drivers and points ZE_ENABLE_ALT_DRIVERS at one shim copy per next
 * driver, all beside libzeil.so. Child processes inherit the changed
 * environment, so the chosen drivers and the shim list are also kept in
 * ZEIL_BOOTSTRAP_NEXT / ZEIL_BOOTSTRAP_SHIMS: a child that finds
 * ZE_ENABLE_ALT_DRIVERS still equal to the shim list derives the same next
 * drivers instead of wrapping the shims themselves.
 */
#include "env.h"
#include "checks.h"
#include "intercepted_kinds.h"
#include "log_sink.h"
#include "diag.h"
#include "intercepts.h"
#include "out_of_memory.h"
#include "wrapped.h"
#include "report_snapshot.h"

#include <zeil/zeil.h>

#include "zeil_output.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char next_drivers[ZEIL_MAX_NEXT_DRIVERS][PATH_MAX];
static unsigned next_driver_count;
static pthread_once_t next_drivers_once = PTHREAD_ONCE_INIT;

static const char *const standard_drivers[] = {"libze_intel_gpu.so.1", "libze_intel_vpu.so.1",
                                               "libze_intel_npu.so.1"};

static int is_shim(const char *item, size_t len)
{
    const char *base = item;
    for (size_t i = 0; i < len; i++)
        if (item[i] == '/')
            base = item + i + 1;
    static const char shim[] = "libzeil_layer";
    return (size_t)(item + len - base) >= sizeof shim - 1 &&
           memcmp(base, shim, sizeof shim - 1) == 0;
}

static void add_next_driver(const char *item, size_t len, void *user)
{
    (void)user;
    if (is_shim(item, len) || len >= PATH_MAX)
        return;
    if (next_driver_count == ZEIL_MAX_NEXT_DRIVERS) {
        log_sink_printf("zeil: warning zeil wraps at most %d drivers; %.*s stays unwrapped",
                        ZEIL_MAX_NEXT_DRIVERS, (int)len, item);
        return;
    }
    memcpy(next_drivers[next_driver_count], item, len);
    next_drivers[next_driver_count][len] = 0;
    next_driver_count++;
}

static void derive_next_drivers(void)
{
    env_foreach_item(env_next_drivers(), add_next_driver, NULL);
    if (next_driver_count)
        return;
    for (size_t i = 0; i < sizeof standard_drivers / sizeof standard_drivers[0]; i++) {
        void *probe = dlopen(standard_drivers[i], RTLD_LAZY | RTLD_LOCAL);
        if (!probe)
            continue;
        dlclose(probe);
        add_next_driver(standard_drivers[i], strlen(standard_drivers[i]), NULL);
    }
}

const char *zeil_shim_next_driver(unsigned index)
{
    pthread_once(&next_drivers_once, derive_next_drivers);
    return index < next_driver_count ? next_drivers[index] : NULL;
}

static const zeil_intercepts_t no_intercepts;

zeil_next_t *zeil_shim_attach(unsigned index, const char *path, void *library,
                              const zeil_intercepts_t **intercepts, const zeil_directs_t **directs)
{
    /* Each trampoline passes its next driver on every call; the runtime owns
     * the record so that it outlives the shim. A shim loaded again after
     * the loader unloaded it gets the same record back. */
    static const zeil_directs_t no_directs;
    *intercepts = &no_intercepts;
    *directs = &no_directs;
    if (index >= ZEIL_MAX_NEXT_DRIVERS)
        return NULL;
    zeil_next_t *next = &zeil_attached_next[index];
    next->index = index;
    next->path = path;
    next->library = library;
    if (!zeil_settings()->enabled)
        return next;
    intercepted_kinds_note_next(next, &zeil_runtime_intercepts, &zeil_hooked_intercepts);
    wrapped_driver_added();
    zo_start_background();
    *intercepts = &zeil_runtime_intercepts;
    *directs = &zeil_runtime_directs[index];
    return next;
}

const zeil_intercepts_t *zeil_shim_intercepts(void)
{
    return zeil_settings()->enabled ? &zeil_runtime_intercepts : &no_intercepts;
}

/* The shim copy for next driver i, beside libzeil.so. */
static int shim_path(unsigned index, char *out, size_t size)
{
    Dl_info info;
    if (!dladdr((void *)zeil_shim_next_driver, &info) || !info.dli_fname)
        return -1;
    const char *slash = strrchr(info.dli_fname, '/');
    int dir_len = slash ? (int)(slash - info.dli_fname) : 1;
    const char *dir = slash ? info.dli_fname : ".";
    int n = index == 0 ? snprintf(out, size, "%.*s/libzeil_layer.so", dir_len, dir)
                       : snprintf(out, size, "%.*s/libzeil_layer.%u.so", dir_len, dir, index);
    return n > 0 && (size_t)n < size && access(out, R_OK) == 0 ? 0 : -1;
}

static void join_next_drivers(char *out, size_t size)
{
    size_t used = 0;
    out[0] = 0;
    for (unsigned i = 0; i < next_driver_count && used < size; i++) {
        int n = snprintf(out + used, size - used, "%s%s", i ? "," : "", next_drivers[i]);
        used += n > 0 ? (size_t)n : 0;
    }
}

static void at_exit(void)
{
    if (!zeil_settings()->enabled)
        return;
    if (wrapped_driver_count() == 0) {
        /* A next driver in the process that zeil did not wrap: the loader
         * reached it directly. (A process that never initialised Level Zero
         * has nothing to wrap and hears nothing.) */
        unsigned unwrapped = 0;
        for (unsigned i = 0; i < next_driver_count; i++) {
            void *driver = dlopen(next_drivers[i], RTLD_LAZY | RTLD_NOLOAD);
            if (driver) {
                dlclose(driver);
                unwrapped++;
            }
        }
        if (unwrapped)
            diag_report(ZEIL_RULE_W060, "exit",
                        "zeil was enabled but wrapped no driver (%u of %u next drivers were "
                        "loaded without zeil: ZE_ENABLE_ALT_DRIVERS was overwritten, the loader "
                        "ignored it, or Level Zero was initialised before zeil was loaded)",
                        unwrapped, next_driver_count);
    } else {
        check_leaks_at_exit();
        intercepted_kinds_list_unchecked();
    }
    zo_finish(); /* reads zeil's counters only: no driver is called */
}

static void start_output(void)
{
    const zeil_settings_t *s = zeil_settings();
    /* The flusher waits for the first wrapped driver (zeil_shim_attach). */
    zo_config_t config = {
        .log_level = (zo_log_level_t)s->log_level,
        .log_file = s->log_file,
        .trace_file = s->trace_file,
        .report = s->report,
        .report_file = s->report_file,
        .summary_file = s->summary_file,
        .timing = s->timing,
        .defer_background = 1,
        .rank = s->rank,
        .snapshot = report_snapshot_source,
    };
    zo_init(&config);
    calls_settle(); /* the trace is on now if it ever will be */
}

__attribute__((constructor)) static void zeil_bootstrap(void)
{
    if (!zeil_settings()->enabled)
        return;
    start_output();
    diag_set_flush_before_abort(zeil_flush);
    if (env_settings_copy_failed()) /* said now that the log is open */
        oom_dropped(OOM_OTHER, 1, NULL, "copying its settings (it reads the environment's own)");
    atexit(at_exit);
    pthread_once(&next_drivers_once, derive_next_drivers);
    if (next_driver_count == 0)
        return;
    char shims[ZEIL_MAX_NEXT_DRIVERS * (PATH_MAX + 1)];
    size_t used = 0;
    for (unsigned i = 0; i < next_driver_count; i++) {
        char path[PATH_MAX];
        if (shim_path(i, path, sizeof path) != 0) {
            log_sink_printf("zeil: warning cannot find the shim for driver %u (%s) beside "
                            "libzeil.so; that driver stays unwrapped",
                            i, next_drivers[i]);
            return;
        }
        int n = snprintf(shims + used, sizeof shims - used, "%s%s", i ? "," : "", path);
        used += n > 0 ? (size_t)n : 0;
    }
    char next[ZEIL_MAX_NEXT_DRIVERS * (PATH_MAX + 1)];
    join_next_drivers(next, sizeof next);
    /* setenv copies: out of memory the loader is not pointed at the shims,
     * zeil wraps nothing and the program runs as without zeil (W060). */
    if (setenv("ZEIL_BOOTSTRAP_NEXT", next, 1) != 0 ||
        setenv("ZEIL_BOOTSTRAP_SHIMS", shims, 1) != 0 ||
        setenv("ZE_ENABLE_ALT_DRIVERS", shims, 1) != 0)
        oom_dropped(OOM_OTHER, 1, NULL, "pointing the loader at its shims (setenv)");
    /* Newer loaders dispatch a driver that claims DDI handles through
     * the tables inside its handles, past zeil's: keep them on the tables
     * unless the user chose (zeDriverGetProperties also hides the claim). */
    if (!env_loader_ddi_path_chosen() && setenv("ZE_ENABLE_LOADER_DRIVER_DDI_PATH", "0", 0) != 0)
        oom_dropped(OOM_OTHER, 1, NULL, "keeping the loader on zeil's tables (setenv)");
}
