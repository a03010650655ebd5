/*
 * The shim the loader opens as a driver (libzeil_layer.so and its numbered
 * copies). It exports only the DDI getters: every getter of the installed
 * headers, and those of tables newer than them (compat/ze_compat.h). Each
 * getter lets the next driver fill the loader's own table, for the version
 * the loader asked, then replaces the entries the runtime intercepts by
 * trampolines that pass this instance's next-driver tables to the runtime,
 * or by the runtime's own entries for this instance (zeil_directs_t).
 * glibc gives one instance per file, so each copy (built with its own
 * ZEIL_SHIM_INDEX) wraps one next driver.
 *
 * The loader sized its table for the version it asked: the shim reads and
 * writes only the entries of that version that zeil knows (a prefix of the
 * table), and whatever lies beyond reaches the loader as the driver wrote it.
 */
#include "shim_abi.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef ZEIL_SHIM_INDEX
#error "ZEIL_SHIM_INDEX must be defined (0 for libzeil_layer.so)"
#endif

/* The runtime's record of the next driver, not this shim's: the loader may
 * unload the shim before the process exits, and the runtime (exit report,
 * registry) still reads it then. */
static zeil_next_t *shim_next;
static const zeil_intercepts_t *shim_intercepts;
static const zeil_directs_t *shim_directs;
static pthread_once_t shim_once = PTHREAD_ONCE_INIT;

#define SHIM_TRAMPOLINE(table, member, pfn, api, params, args) \
    static ze_result_t ZE_APICALL shim_##api params \
    { \
        const zeil_next_t *next = shim_next; \
        return shim_intercepts->api ZEIL_ARGS_WITH_NEXT args; \
    }
ZEIL_DDI_ENTRIES(SHIM_TRAMPOLINE)
#undef SHIM_TRAMPOLINE

/* The entries of a table the next driver does not export at all. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define SHIM_UNSUPPORTED(table, member, pfn, api, params, args) \
    static ze_result_t ZE_APICALL shim_unsupported_##api params \
    { \
        return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE; \
    }
ZEIL_DDI_ENTRIES(SHIM_UNSUPPORTED)
#undef SHIM_UNSUPPORTED
#pragma GCC diagnostic pop

/* The same for an entry whose signature zeil does not know: the caller
 * passes its arguments and cleans them up, this ignores them. */
static ze_result_t ZE_APICALL shim_unsupported_untyped(void)
{
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
}

typedef void (*shim_fn)(void);

typedef struct shim_entry {
    ze_api_version_t version;   /* the entry exists in tables of this version on */
    size_t index;               /* its place in the table */
    ptrdiff_t intercept_offset; /* the same entry in zeil_intercepts_t, or -1 */
    ptrdiff_t direct_offset;    /* and in zeil_directs_t, or -1 */
    shim_fn trampoline;
    shim_fn unsupported;
} shim_entry_t;

#define SHIM_ROW_T(table, member, api, version, index) \
    {version, \
     index, \
     offsetof(zeil_intercepts_t, api), \
     offsetof(zeil_directs_t, api), \
     (shim_fn)shim_##api, \
     (shim_fn)shim_unsupported_##api},
#define SHIM_ROW_U(table, member, api, version, index) \
    {version, index, -1, -1, NULL, (shim_fn)shim_unsupported_untyped},
#define SHIM_ROW(table, member, api, version, index, kind) \
    SHIM_ROW_##kind(table, member, api, version, index)
static const shim_entry_t shim_entries[] = {ZEIL_DDI_LAYOUT(SHIM_ROW)};
#undef SHIM_ROW
#undef SHIM_ROW_U
#undef SHIM_ROW_T

static void shim_open_next(void)
{
    const char *path = zeil_shim_next_driver(ZEIL_SHIM_INDEX);
    if (!path)
        return;
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        char line[512];
        int n = snprintf(line, sizeof line, "zeil: warning cannot open next driver %s: %s\n", path,
                         dlerror());
        if (n > 0 &&
            write(STDERR_FILENO, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0)
            return;
        return;
    }
    shim_next = zeil_shim_attach(ZEIL_SHIM_INDEX, path, library, &shim_intercepts, &shim_directs);
}

typedef ze_result_t(ZE_APICALL *shim_getter_fn)(ze_api_version_t, void *);

/* The runtime's entry the loader may call straight for an intercepted entry
 * (zeil_directs_t), or else its trampoline. */
static shim_fn shim_direct(const shim_entry_t *e)
{
    shim_fn direct = NULL;
    if (e->direct_offset >= 0)
        memcpy(&direct, (const char *)shim_directs + e->direct_offset, sizeof direct);
    return direct ? direct : e->trampoline;
}

/* How many of a table's known entries a table of this version has: they are
 * a prefix, in version order. A version newer than zeil knows has them all. */
static size_t shim_entries_at(size_t first, size_t count, ze_api_version_t version)
{
    size_t n = 0;
    while (n < count && shim_entries[first + n].version <= version)
        n++;
    return n;
}

/* Fills the loader's table: the next driver fills it itself, for the version
 * asked; then zeil keeps a copy of the entries it knows at that version and
 * replaces the intercepted ones the driver provides. A table the next driver
 * lacks gets unsupported entries. Touches nothing past those entries. */
static ze_result_t shim_fill(const char *getter, ze_api_version_t version, size_t first,
                             size_t count, size_t next_table_offset, void *loader_table)
{
    pthread_once(&shim_once, shim_open_next);
    if (!loader_table)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (!shim_next)
        return ZE_RESULT_ERROR_UNINITIALIZED;
    void *next_table = (char *)shim_next + next_table_offset;
    shim_getter_fn next_getter = (shim_getter_fn)dlsym(shim_next->library, getter);
    if (next_getter) {
        ze_result_t r = next_getter(version, loader_table);
        if (r != ZE_RESULT_SUCCESS)
            return r;
    }
    if (ZE_MAJOR_VERSION(version) != 1)
        return next_getter ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
    atomic_store(&shim_next->requested_version, version);
    size_t known = shim_entries_at(first, count, version);
    shim_fn *loader = loader_table, *copy = next_table;
    for (size_t i = 0; i < known; i++) {
        const shim_entry_t *e = &shim_entries[first + i];
        if (!next_getter) {
            copy[e->index] = NULL;
            loader[e->index] = e->unsupported;
            continue;
        }
        copy[e->index] = loader[e->index];
        shim_fn intercept = NULL;
        if (e->intercept_offset >= 0)
            memcpy(&intercept, (const char *)shim_intercepts + e->intercept_offset,
                   sizeof intercept);
        /* An entry the driver leaves null stays null: the loader says
         * unsupported, and the runtime never calls a null next entry. */
        if (intercept && copy[e->index])
            loader[e->index] = shim_direct(e);
    }
    for (size_t i = known; i < count; i++) /* not in a table of this version */
        copy[shim_entries[first + i].index] = NULL;
    return ZE_RESULT_SUCCESS;
}

#define SHIM_GETTER(getter, table, prefix, first, count, type) \
    ZE_DLLEXPORT ze_result_t ZE_APICALL getter(ze_api_version_t version, type *ddi); \
    ZE_DLLEXPORT ze_result_t ZE_APICALL getter(ze_api_version_t version, type *ddi) \
    { \
        return shim_fill(#getter, version, first, count, offsetof(zeil_next_t, ddi_##table), ddi); \
    }
ZEIL_DDI_ALL_TABLES(SHIM_GETTER)
#undef SHIM_GETTER
