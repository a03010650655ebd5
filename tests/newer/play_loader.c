/*
 * A loader of any API version, for tests: Debian's loader asks for tables of
 * API 1.4 and exports no entry point of a later version, so programs cannot
 * reach zeil's handling of newer tables and entries through it.
 *
 * Preloaded (LD_PRELOAD) in front of the real loader, this library plays the
 * loader's part: at the first call it asks zeil's shim (ZEIL_PLAY_SHIM) for
 * every table at the version ZEIL_PLAY_VERSION ("1.17"), each in memory sized
 * exactly for that version as a loader built from those headers sizes it,
 * and exports every Level Zero function zeil knows the type of, each calling
 * through its table. An entry the version's table does not have answers
 * ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, as a loader does. One driver, whose
 * handles it never wraps (as a loader with one driver and no layers).
 *
 * It knows nothing of zeil but the shim's file and the generated layout.
 */
#include "play_loader.h"

#include <loader/ze_loader.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
#define TABLE_NO(getter, table, prefix, first, count, type) PLAY_TABLE_##table,
    ZEIL_DDI_ALL_TABLES(TABLE_NO)
#undef TABLE_NO
    PLAY_TABLE_COUNT
};

typedef struct play_table {
    const char *getter;
    size_t first, count;
} play_table_info_t;

static const play_table_info_t play_tables[PLAY_TABLE_COUNT] = {
#define TABLE_INFO(getter, table, prefix, first, count, type) {#getter, first, count},
    ZEIL_DDI_ALL_TABLES(TABLE_INFO)
#undef TABLE_INFO
};

static const ze_api_version_t play_versions[ZEIL_DDI_LAYOUT_COUNT] = {
#define ENTRY_VERSION(table, member, api, version, index, kind) version,
    ZEIL_DDI_LAYOUT(ENTRY_VERSION)
#undef ENTRY_VERSION
};

/* The loader's tables: entries[t] has sizes[t] entries, malloc'd exactly. */
static zeil_ddi_untyped_fn *entries[PLAY_TABLE_COUNT];
static size_t sizes[PLAY_TABLE_COUNT];
static pthread_once_t play_once = PTHREAD_ONCE_INIT;

static ze_api_version_t play_version(void)
{
    const char *v = getenv("ZEIL_PLAY_VERSION");
    unsigned major = 1, minor = 17;
    if (v && sscanf(v, "%u.%u", &major, &minor) != 2)
        fprintf(stderr, "play loader: ZEIL_PLAY_VERSION=%s is not MAJOR.MINOR; using 1.17\n", v);
    return ZE_MAKE_VERSION(major, minor);
}

typedef ze_result_t(ZE_APICALL *getter_fn)(ze_api_version_t, void *);

static void play_load(void)
{
    const char *shim_path = getenv("ZEIL_PLAY_SHIM");
    void *shim = shim_path ? dlopen(shim_path, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!shim) {
        fprintf(stderr, "play loader: cannot open ZEIL_PLAY_SHIM=%s: %s\n",
                shim_path ? shim_path : "(unset)", shim_path ? dlerror() : "");
        return;
    }
    ze_api_version_t version = play_version();
    for (size_t t = 0; t < PLAY_TABLE_COUNT; t++) {
        size_t n = 0;
        while (n < play_tables[t].count && play_versions[play_tables[t].first + n] <= version)
            n++;
        getter_fn getter = (getter_fn)dlsym(shim, play_tables[t].getter);
        /* A loader of a version newer than zeil knows has more entries than
         * zeil can count: room for what a driver of that version writes. */
        size_t room = version > ZEIL_DDI_NEWEST_VERSION ? n + 16 : n;
        zeil_ddi_untyped_fn *table = calloc(room ? room : 1, sizeof *table);
        if (!getter || !table || getter(version, table) != ZE_RESULT_SUCCESS) {
            free(table);
            continue; /* as a loader does with an optional table */
        }
        entries[t] = table;
        sizes[t] = n;
    }
}

static zeil_ddi_untyped_fn play_entry(size_t table, size_t index)
{
    pthread_once(&play_once, play_load);
    return entries[table] && index < sizes[table] ? entries[table][index] : NULL;
}

#define PLAY_ENTRY(table, member, pfn, api, params, args) \
    ZE_DLLEXPORT ze_result_t ZE_APICALL api params \
    { \
        zeil_ddi_untyped_fn fn = play_entry(PLAY_TABLE_##table, ZEIL_DDI_INDEX_##api); \
        return fn ? ((pfn)fn)args : ZE_RESULT_ERROR_UNSUPPORTED_FEATURE; \
    }
ZEIL_DDI_ENTRIES(PLAY_ENTRY)
#undef PLAY_ENTRY

/* One driver, handles never wrapped: a handle is its own translation. */
ZE_DLLEXPORT ze_result_t ZE_APICALL zelLoaderTranslateHandle(zel_handle_type_t type, void *handleIn,
                                                             void **handleOut)
{
    (void)type;
    if (!handleOut)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    *handleOut = handleIn;
    return ZE_RESULT_SUCCESS;
}
