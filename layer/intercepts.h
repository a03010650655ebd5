/*
 * intercepts.h: the runtime's intercepts, zeil_icpt_<api>, one per Level Zero
 * entry of known type (scripts/gen-wrappers writes them and zeil_hooks.h,
 * what their hooks share; README.md, "Finding a call"), with the DDI
 * signature plus the next driver's tables in front.
 */
#ifndef ZEIL_INTERCEPTS_H
#define ZEIL_INTERCEPTS_H

#include "calls.h"
#include "registry.h"
#include "shim_abi.h"

#define ZEIL_DECLARE_INTERCEPT(table, member, pfn, api, params, args)               \
    ze_result_t ZE_APICALL zeil_icpt_##api ZEIL_PARAMS_WITH_NEXT params             \
        __attribute__((weak, visibility("hidden")));
ZEIL_DDI_ENTRIES(ZEIL_DECLARE_INTERCEPT)
#undef ZEIL_DECLARE_INTERCEPT

/* What every shim is handed; the entries with hand-written code (coverage.c). */
extern const zeil_intercepts_t zeil_runtime_intercepts __attribute__((visibility("hidden")));
extern const zeil_intercepts_t zeil_hooked_intercepts __attribute__((visibility("hidden")));

/* The next driver's entry of a table, e.g. NEXT(ze_mem_dditable_t, pfnFree). */
#define NEXT(table, member) (next->ddi_##table.member)
#endif
