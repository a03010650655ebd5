/* intercepts.h: what the shims are handed, zeil_icpt_<api> for every entry
 * of known type (scripts/codegen/gen-wrappers writes them and zeil_hooks.h, what
 * their hooks share; README.md, "Finding a call"), and NEXT. */
#ifndef ZEIL_INTERCEPTS_H
#define ZEIL_INTERCEPTS_H

#include "calls.h"
#include "registry.h"
#include "shim_abi.h"

/* What every shim is handed; the entries with hand-written code (checks/intercepted_kinds.c). */
extern const zeil_intercepts_t zeil_runtime_intercepts __attribute__((visibility("hidden")));
extern const zeil_intercepts_t zeil_hooked_intercepts __attribute__((visibility("hidden")));

/* The runtime's record of each shim's next driver (zeil_shim_attach fills
 * it), and the entries the loader calls straight for each (generated:
 * zeil_direct_<api>_<shim>, every entry in gen-wrappers' INLINED_HOOKS and
 * every hand-written intercept). */
extern zeil_next_t zeil_attached_next[ZEIL_MAX_NEXT_DRIVERS] __attribute__((visibility("hidden")));
extern const zeil_directs_t zeil_runtime_directs[ZEIL_MAX_NEXT_DRIVERS]
    __attribute__((visibility("hidden")));

/* The next driver's entry of a table, e.g. NEXT(ze_mem_dditable_t, pfnFree). */
#define NEXT(table, member) (next->ddi_##table.member)
#endif
