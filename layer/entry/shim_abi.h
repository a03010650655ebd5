/*
 * shim_abi.h: the contract between a shim (libzeil_layer*.so, opened by the
 * loader as a driver) and the runtime (libzeil.so). Internal to zeil.
 *
 * Each shim instance wraps exactly one next driver. It keeps that driver's
 * DDI tables in a zeil_next_t and hands the runtime a pointer to it on every
 * intercepted call, so the runtime dispatches without any handle->driver
 * lookup. The runtime says which entries it intercepts by the non-null
 * members of zeil_intercepts_t (generated from the installed headers and
 * compat/ze_compat.h).
 *
 * The next driver's tables are kept whole (zeil_full_<table>: every entry
 * zeil knows of, newer ones included), but only the entries of the version
 * the loader asked for are ever set; the others stay null.
 */
#ifndef ZEIL_SHIM_ABI_H
#define ZEIL_SHIM_ABI_H

#include <stdatomic.h>

#include "zeil_ddi.h"

#define ZEIL_MAX_NEXT_DRIVERS 4

typedef struct zeil_next {
    unsigned index;   /* which shim copy: 0 for libzeil_layer.so */
    const char *path; /* the next driver as named in the driver list */
    void *library;    /* its dlopen handle */
    /* The API version the loader asked this shim's tables for (0 until it
     * asked), what the exit report says zeil covers. */
    _Atomic ze_api_version_t requested_version;
#define ZEIL_NEXT_TABLE(getter, table, prefix, first, count, type) zeil_full_##table ddi_##table;
    ZEIL_DDI_ALL_TABLES(ZEIL_NEXT_TABLE)
#undef ZEIL_NEXT_TABLE
} zeil_next_t;

/* (a0, a1) -> (next, a0, a1) and the same for the parameter lists. */
#define ZEIL_ARGS_WITH_NEXT(...) (next, __VA_ARGS__)
#define ZEIL_PARAMS_WITH_NEXT(...) (const zeil_next_t *next, __VA_ARGS__)

typedef struct zeil_intercepts {
#define ZEIL_INTERCEPT_MEMBER(table, member, pfn, api, params, args) \
    ze_result_t(ZE_APICALL *api) ZEIL_PARAMS_WITH_NEXT params;
    ZEIL_DDI_ENTRIES(ZEIL_INTERCEPT_MEMBER)
#undef ZEIL_INTERCEPT_MEMBER
} zeil_intercepts_t;

/* Entries the loader may call straight into the runtime, with the API's own
 * parameters (no trampoline in between): the hot ones (the launches, and
 * those in gen-wrappers' INLINED_HOOKS: allocations, frees, the host's event
 * signal and reset), whose trampoline would cost a tenth of zeil's work on
 * them. Each knows its shim's next driver; a null member: the entry goes
 * through its trampoline. Members as in zeil_intercepts_t. */
typedef struct zeil_directs {
#define ZEIL_DIRECT_MEMBER(table, member, pfn, api, params, args) pfn api;
    ZEIL_DDI_ENTRIES(ZEIL_DIRECT_MEMBER)
#undef ZEIL_DIRECT_MEMBER
} zeil_directs_t;

/* The next driver shim number index must wrap, or null when there is none. */
const char *zeil_shim_next_driver(unsigned index) __attribute__((visibility("default")));

/* Called once per shim after it opened its next driver. Returns the
 * runtime's record of shim index, which the shim fills with the next
 * driver's tables: it lives as long as libzeil.so, so it outlives a shim the
 * loader unloads before exit (the exit report and the registry still read
 * it then). Sets *intercepts to the entries to intercept (all null when zeil
 * is not enabled: the shim then passes everything through) and *directs to
 * those of them the loader may call straight (for this shim's next driver;
 * all null when zeil is not enabled). Null when index is out of range. */
zeil_next_t *zeil_shim_attach(unsigned index, const char *path, void *library,
                              const zeil_intercepts_t **intercepts, const zeil_directs_t **directs)
    __attribute__((visibility("default")));

/* The entries the runtime intercepts, for tests that check a shim's tables
 * without a loader. */
const zeil_intercepts_t *zeil_shim_intercepts(void) __attribute__((visibility("default")));

#endif
