/*
 * The exported DDI getters: all of them (Debian's loader 1.8.12 refuses a
 * driver that lacks some), each filling its table with the driver's rd_zeXxx
 * functions and, where the driver has none, a stub that says unsupported.
 * Both lists come from the installed headers (zeil_ddi.h, generated).
 */
#include "rd_api.h"

#include <stddef.h>
#include <string.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define RD_STUB(table, member, pfn, api, params, args) \
    static ze_result_t ZE_APICALL rd_unsupported_##api params \
    {                                                          \
        return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;            \
    }
ZEIL_DDI_ENTRIES(RD_STUB)
#undef RD_STUB
#pragma GCC diagnostic pop

typedef void (*rd_fn)(void);

typedef struct rd_entry {
    const char *table;
    size_t offset;
    rd_fn impl;
    rd_fn stub;
} rd_entry_t;

#define RD_ENTRY(table, member, pfn, api, params, args) \
    {#table, offsetof(table, member), (rd_fn)rd_##api, (rd_fn)rd_unsupported_##api},
static const rd_entry_t rd_entries[] = {ZEIL_DDI_ENTRIES(RD_ENTRY)};
#undef RD_ENTRY

static ze_result_t rd_fill(ze_api_version_t version, const char *table, void *ddi)
{
    if (!ddi)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (ZE_MAJOR_VERSION(version) != ZE_MAJOR_VERSION(ZE_API_VERSION_CURRENT))
        return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
    for (size_t i = 0; i < sizeof rd_entries / sizeof rd_entries[0]; i++) {
        const rd_entry_t *e = &rd_entries[i];
        if (strcmp(e->table, table) != 0)
            continue;
        rd_fn fn = e->impl ? e->impl : e->stub;
        memcpy((char *)ddi + e->offset, &fn, sizeof fn);
    }
    return ZE_RESULT_SUCCESS;
}

#define RD_GETTER(getter, table, prefix)                                            \
    ZE_DLLEXPORT ze_result_t ZE_APICALL getter(ze_api_version_t version, table *ddi); \
    ZE_DLLEXPORT ze_result_t ZE_APICALL getter(ze_api_version_t version, table *ddi)  \
    {                                                                                \
        return rd_fill(version, #table, ddi);                                        \
    }
ZEIL_DDI_TABLES(RD_GETTER)
#undef RD_GETTER
