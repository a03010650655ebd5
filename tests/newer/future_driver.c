/*
 * A driver from the future, for tests: it behaves like a driver built from
 * headers newer than the installed ones (as Intel's compute-runtime is).
 * It forwards to the reference driver (FUTURE_NEXT_DRIVER), which fills
 * what it implements, and then fills every entry of the version asked that
 * the installed headers lack and the reference driver left empty with a
 * canary (future_canary.h); asked for a version newer than zeil knows, it
 * also fills FUTURE_UNKNOWN_ENTRIES entries past the last one zeil knows.
 * Like compute-runtime, it claims DDI handles when zeDriverGetProperties is
 * given ze_driver_ddi_handles_ext_properties_t, and reports the API version
 * the loader asked (up to the newest it knows).
 *
 * Handles are the reference driver's own: nothing here wraps them.
 */
#include "future_canary.h"
#include "zeil_ddi.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUTURE_NEXT_DRIVER
#error "FUTURE_NEXT_DRIVER must name the reference driver"
#endif

static void *next_driver;
static pthread_once_t next_once = PTHREAD_ONCE_INIT;
static _Atomic ze_api_version_t asked_version;
static ze_pfnDriverGetProperties_t next_get_properties;

static void open_next(void)
{
    next_driver = dlopen(FUTURE_NEXT_DRIVER, RTLD_NOW | RTLD_LOCAL);
    if (!next_driver)
        fprintf(stderr, "future driver: cannot open %s: %s\n", FUTURE_NEXT_DRIVER, dlerror());
}

typedef void (*future_fn)(void);

#define CANARY(table, member, api, version, index, kind) \
    static ze_result_t canary_##table##_##member(void) \
    { \
        return future_canary_result(#table, index); \
    }
ZEIL_DDI_LAYOUT(CANARY)
#undef CANARY

static ze_result_t canary_unknown_0(void)
{
    return future_canary_result("unknown", 0);
}
static ze_result_t canary_unknown_1(void)
{
    return future_canary_result("unknown", 1);
}

typedef struct future_entry {
    const char *table;
    ze_api_version_t version;
    size_t index;
    future_fn canary;
} future_entry_t;

#define ROW(table, member, api, version, index, kind) \
    {#table, version, index, (future_fn)canary_##table##_##member},
static const future_entry_t entries[] = {ZEIL_DDI_LAYOUT(ROW)};
#undef ROW

__attribute__((visibility("default"))) uint32_t zeil_future_canary_of(const void *fn);
uint32_t zeil_future_canary_of(const void *fn)
{
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
        if ((const void *)entries[i].canary == fn)
            return (uint32_t)future_canary_result(entries[i].table, (unsigned)entries[i].index);
    if (fn == (const void *)canary_unknown_0)
        return (uint32_t)future_canary_result("unknown", 0);
    if (fn == (const void *)canary_unknown_1)
        return (uint32_t)future_canary_result("unknown", 1);
    return 0;
}

static ze_result_t ZE_APICALL future_get_properties(ze_driver_handle_t driver,
                                                    ze_driver_properties_t *properties)
{
    ze_result_t r = next_get_properties(driver, properties);
    for (ze_base_properties_t *p = r == ZE_RESULT_SUCCESS && properties ? properties->pNext : NULL;
         p; p = p->pNext)
        if (p->stype == ZEIL_COMPAT_STYPE_DRIVER_DDI_HANDLES_EXT_PROPERTIES)
            ((zeil_compat_driver_ddi_handles_ext_properties_t *)(void *)p)->flags |=
                ZEIL_COMPAT_DRIVER_DDI_HANDLE_EXT_FLAG_SUPPORTED;
    return r;
}

static ze_result_t ZE_APICALL future_get_api_version(ze_driver_handle_t driver,
                                                     ze_api_version_t *version)
{
    (void)driver;
    if (!version)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    ze_api_version_t asked = atomic_load(&asked_version);
    *version = asked < ZEIL_DDI_NEWEST_VERSION ? asked : ZEIL_DDI_NEWEST_VERSION;
    return ZE_RESULT_SUCCESS;
}

typedef ze_result_t(ZE_APICALL *getter_fn)(ze_api_version_t, void *);

static ze_result_t fill(const char *getter, ze_api_version_t version, size_t first, size_t count,
                        void *ddi)
{
    pthread_once(&next_once, open_next);
    if (!next_driver)
        return ZE_RESULT_ERROR_UNINITIALIZED;
    if (!ddi)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    getter_fn next = (getter_fn)dlsym(next_driver, getter);
    ze_result_t r = next ? next(version, ddi) : ZE_RESULT_SUCCESS;
    if (r != ZE_RESULT_SUCCESS)
        return r;
    atomic_store(&asked_version, version);
    future_fn *table = ddi;
    size_t i = 0;
    for (; i < count && entries[first + i].version <= version; i++)
        if (entries[first + i].version > ZEIL_INSTALLED_API_VERSION && !table[i])
            table[i] = entries[first + i].canary;
    if (i == count && version > ZEIL_DDI_NEWEST_VERSION) {
        table[count] = (future_fn)canary_unknown_0;
        table[count + 1] = (future_fn)canary_unknown_1;
    }
    return ZE_RESULT_SUCCESS;
}

/* The driver table: the DDI-handles claim and the version, as a driver
 * built from newer headers answers them. */
static void wrap_driver_table(const char *table, void *ddi)
{
    if (strcmp(table, "ze_driver_dditable_t") != 0)
        return;
    ze_driver_dditable_t *driver = ddi;
    if (driver->pfnGetProperties != future_get_properties)
        next_get_properties = driver->pfnGetProperties;
    driver->pfnGetProperties = future_get_properties;
    driver->pfnGetApiVersion = future_get_api_version;
}

#define GETTER(getter, table, prefix, first, count, type) \
    ZE_DLLEXPORT ze_result_t ZE_APICALL getter(ze_api_version_t version, type *ddi); \
    ZE_DLLEXPORT ze_result_t ZE_APICALL getter(ze_api_version_t version, type *ddi) \
    { \
        ze_result_t r = fill(#getter, version, first, count, ddi); \
        if (r == ZE_RESULT_SUCCESS) \
            wrap_driver_table(#table, ddi); \
        return r; \
    }
ZEIL_DDI_ALL_TABLES(GETTER)
#undef GETTER
