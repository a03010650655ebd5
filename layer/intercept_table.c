/*
 * The table of intercepted entries handed to every shim. An entry is
 * intercepted exactly when an intercept_*.c file defines zeil_icpt_<api>;
 * the others are weak and stay null, so the shim leaves the driver's own
 * pointer in the loader's table.
 */
#include "intercepts.h"

const zeil_intercepts_t zeil_runtime_intercepts = {
#define ZEIL_TABLE_ENTRY(table, member, pfn, api, params, args) .api = zeil_icpt_##api,
    ZEIL_DDI_ENTRIES(ZEIL_TABLE_ENTRY)
#undef ZEIL_TABLE_ENTRY
};
