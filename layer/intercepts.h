/*
 * intercepts.h: the runtime's intercept functions, zeil_icpt_<api>, one per
 * Level Zero entry zeil intercepts, with the DDI signature plus the next
 * driver's tables in front. Declared for every entry (weak, so undefined ones
 * are null); defined in the intercept_*.c files.
 */
#ifndef ZEIL_INTERCEPTS_H
#define ZEIL_INTERCEPTS_H

#include "shim_abi.h"

#define ZEIL_DECLARE_INTERCEPT(table, member, pfn, api, params, args)               \
    ze_result_t ZE_APICALL zeil_icpt_##api ZEIL_PARAMS_WITH_NEXT params             \
        __attribute__((weak, visibility("hidden")));
ZEIL_DDI_ENTRIES(ZEIL_DECLARE_INTERCEPT)
#undef ZEIL_DECLARE_INTERCEPT

/* What every shim is handed (intercept_table.c); internal, not exported. */
extern const zeil_intercepts_t zeil_runtime_intercepts __attribute__((visibility("hidden")));
/* The entries with hand-written code (hooks or a whole intercept): the ones
 * that register and retire objects (coverage.c). */
extern const zeil_intercepts_t zeil_hooked_intercepts __attribute__((visibility("hidden")));

/* The next driver's entry of a table, e.g. NEXT(ze_mem_dditable_t, pfnFree). */
#define NEXT(table, member) (next->ddi_##table.member)



#include "calls.h"
#include "registry.h"

/* Registers a new object described by *proto (handle, kind, parents and kind
 * fields set by the caller), stamping who created it. Null when zeil ran out
 * of memory (counted and said, see out_of_memory.h): the object stays
 * unknown and the call goes on as if zeil were not there. */
zeil_obj_t *intercept_register(const zeil_call_t *call, const zeil_next_t *next,
                               zeil_obj_t *proto);
/* A destroying intercept calls intercept_destroying(obj) right before it
 * forwards and intercept_retire(obj) when the driver succeeded: both on the
 * object its check found, never on a lookup made after the driver returned
 * (by then the driver may have given the handle to another thread's new
 * object). */
void intercept_destroying(const zeil_call_t *call, zeil_obj_t *obj);
void intercept_retire(const zeil_call_t *call, zeil_obj_t *obj);
#endif
