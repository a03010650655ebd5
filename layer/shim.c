/*
 * The shim the loader opens as a driver (libzeil_layer.so and its numbered
 * copies). It exports only the DDI getters. Each getter fills the loader's
 * table with the next driver's own entries, then replaces the entries the
 * runtime intercepts by trampolines that pass this instance's next-driver
 * tables to the runtime. glibc gives one instance per file, so each copy
 * (built with its own ZEIL_SHIM_INDEX) wraps one next driver.
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

static zeil_next_t shim_next = {.index = ZEIL_SHIM_INDEX};
static const zeil_intercepts_t *shim_intercepts;
static pthread_once_t shim_once = PTHREAD_ONCE_INIT;

#define SHIM_TRAMPOLINE(table, member, pfn, api, params, args) \
    static ze_result_t ZE_APICALL shim_##api params            \
    {                                                          \
        const zeil_next_t *next = &shim_next;                  \
        return shim_intercepts->api ZEIL_ARGS_WITH_NEXT args;  \
    }
ZEIL_DDI_ENTRIES(SHIM_TRAMPOLINE)
#undef SHIM_TRAMPOLINE

/* The entries of a table the next driver does not export at all. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define SHIM_UNSUPPORTED(table, member, pfn, api, params, args) \
    static ze_result_t ZE_APICALL shim_unsupported_##api params \
    {                                                           \
        return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;             \
    }
ZEIL_DDI_ENTRIES(SHIM_UNSUPPORTED)
#undef SHIM_UNSUPPORTED
#pragma GCC diagnostic pop

typedef void (*shim_fn)(void);

typedef struct shim_entry {
    const char *table;
    size_t table_offset;      /* the entry in a DDI table */
    size_t intercept_offset;  /* the same entry in zeil_intercepts_t */
    shim_fn trampoline;
    shim_fn unsupported;
} shim_entry_t;

#define SHIM_ENTRY(table, member, pfn, api, params, args)                      \
    {#table, offsetof(table, member), offsetof(zeil_intercepts_t, api),        \
     (shim_fn)shim_##api, (shim_fn)shim_unsupported_##api},
static const shim_entry_t shim_entries[] = {ZEIL_DDI_ENTRIES(SHIM_ENTRY)};
#undef SHIM_ENTRY

static void shim_open_next(void)
{
    shim_next.path = zeil_shim_next_driver(ZEIL_SHIM_INDEX);
    if (!shim_next.path)
        return;
    shim_next.library = dlopen(shim_next.path, RTLD_NOW | RTLD_LOCAL);
    if (!shim_next.library) {
        char line[512];
        int n = snprintf(line, sizeof line, "zeil: warning cannot open next driver %s: %s\n",
                         shim_next.path, dlerror());
        if (n > 0 && write(STDERR_FILENO, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0)
            return;
        return;
    }
    shim_intercepts = zeil_shim_attach(&shim_next);
}

typedef ze_result_t (ZE_APICALL *shim_getter_fn)(ze_api_version_t, void *);

/* Fills the loader's table: the next driver's entries, with intercepted ones
 * replaced; a table the next driver lacks gets unsupported entries. */
static ze_result_t shim_fill(const char *getter, const char *table, ze_api_version_t version,
                             void *next_table, size_t size, void *loader_table)
{
    pthread_once(&shim_once, shim_open_next);
    if (!loader_table)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (!shim_next.library)
        return ZE_RESULT_ERROR_UNINITIALIZED;
    shim_getter_fn next_getter = (shim_getter_fn)dlsym(shim_next.library, getter);
    int exported = next_getter != NULL;
    if (exported) {
        ze_result_t r = next_getter(version, next_table);
        if (r != ZE_RESULT_SUCCESS)
            return r;
        memcpy(loader_table, next_table, size);
    }
    for (size_t i = 0; i < sizeof shim_entries / sizeof shim_entries[0]; i++) {
        const shim_entry_t *e = &shim_entries[i];
        if (strcmp(e->table, table) != 0)
            continue;
        shim_fn intercept;
        memcpy(&intercept, (const char *)shim_intercepts + e->intercept_offset, sizeof intercept);
        const shim_fn *replacement = NULL;
        if (!exported)
            replacement = &e->unsupported;
        else if (intercept)
            replacement = &e->trampoline;
        if (replacement)
            memcpy((char *)loader_table + e->table_offset, replacement, sizeof *replacement);
    }
    return ZE_RESULT_SUCCESS;
}

#define SHIM_GETTER(getter, table, prefix)                                             \
    ZE_DLLEXPORT ze_result_t ZE_APICALL getter(ze_api_version_t version, table *ddi);  \
    ZE_DLLEXPORT ze_result_t ZE_APICALL getter(ze_api_version_t version, table *ddi)   \
    {                                                                                   \
        return shim_fill(#getter, #table, version, &shim_next.ddi_##table,              \
                         sizeof(table), ddi);                                           \
    }
ZEIL_DDI_TABLES(SHIM_GETTER)
#undef SHIM_GETTER
