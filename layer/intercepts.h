/*
 * intercepts.h: the runtime's intercepts, zeil_icpt_<api>, one per Level Zero
 * entry of known type (scripts/gen-wrappers; README.md, "Finding a call"),
 * with the DDI signature plus the next driver's tables in front, and what
 * their hooks share.
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

/* What an entry's hooks keep from its pre_ to its post_ hook. */
typedef struct zeil_hook_state {
    int answered;            /* the pre_ hook answered the call: no driver call */
    zeil_obj_t *made;        /* what a creating entry registered (ZEIL_MAKE) */
    registry_free_t freeing; /* a free's allocation, marked before the driver */
    int marked;
} zeil_hook_state_t;

/* Registers a new object described by *proto, stamping who created it. Null
 * when zeil ran out of memory (out_of_memory.h): the object stays unknown. */
zeil_obj_t *intercept_register(const zeil_call_t *call, const zeil_next_t *next,
                               zeil_obj_t *proto);
/* A destroying entry marks the object its check found right before the
 * driver call and retires that same object when the driver succeeded (a
 * lookup after the driver returned may find another thread's new object). */
void intercept_destroying(const zeil_call_t *call, zeil_obj_t *obj);
void intercept_retire(const zeil_call_t *call, zeil_obj_t *obj);
#endif
