/*
 * The exported DDI getters: every getter of the installed headers (Debian's
 * loader 1.8.12 refuses a driver that lacks some) and those of newer tables
 * (compat/ze_compat.h). Each fills the entries of the version the loader
 * asked, and no more: the loader sized its table for that version.
 *
 * An entry the driver implements gets its rd_zeXxx function. One it does not
 * implement gets a stub that says unsupported when the installed headers
 * declare it (Debian's loader expects every entry it knows filled), and is
 * left null when it is newer, as drivers built from newer headers do for
 * what they lack (the loader then answers unsupported itself). All lists come
 * from zeil_ddi.h, generated.
 */
#include "rd_api.h"

#include <stddef.h>
#include <string.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define RD_STUB(table, member, pfn, api, params, args) \
    static ze_result_t ZE_APICALL rd_unsupported_##api params \
    { \
        return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE; \
    }
ZEIL_DDI_ENTRIES(RD_STUB)
#undef RD_STUB
#pragma GCC diagnostic pop

typedef void (*rd_fn)(void);

typedef struct rd_entry {
    ze_api_version_t version; /* the entry exists in tables of this version on */
    size_t index;             /* its place in the table */
    rd_fn impl;
    rd_fn stub;
} rd_entry_t;

#define RD_ROW_T(api, version, index) \
    {version, index, (rd_fn)rd_##api, \
     (version) <= ZEIL_INSTALLED_API_VERSION ? (rd_fn)rd_unsupported_##api : NULL},
#define RD_ROW_U(api, version, index) {version, index, NULL, NULL},
#define RD_ROW(table, member, api, version, index, kind) RD_ROW_##kind(api, version, index)
static const rd_entry_t rd_entries[] = {ZEIL_DDI_LAYOUT(RD_ROW)};
#undef RD_ROW
#undef RD_ROW_U
#undef RD_ROW_T

static ze_result_t rd_fill(ze_api_version_t version, size_t first, size_t count, void *ddi)
{
    if (!ddi)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (ZE_MAJOR_VERSION(version) != ZE_MAJOR_VERSION(ZE_API_VERSION_CURRENT))
        return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
    rd_fn *table = ddi;
    for (size_t i = first; i < first + count && rd_entries[i].version <= version; i++)
        table[rd_entries[i].index] = rd_entries[i].impl ? rd_entries[i].impl : rd_entries[i].stub;
    return ZE_RESULT_SUCCESS;
}

#define RD_GETTER(getter, table, prefix, first, count, type) \
    ZE_DLLEXPORT ze_result_t ZE_APICALL getter(ze_api_version_t version, type *ddi); \
    ZE_DLLEXPORT ze_result_t ZE_APICALL getter(ze_api_version_t version, type *ddi) \
    { \
        return rd_fill(version, first, count, ddi); \
    }
ZEIL_DDI_ALL_TABLES(RD_GETTER)
#undef RD_GETTER
