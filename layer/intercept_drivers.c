/*
 * Hooks of zeInit, zeInitDrivers, drivers and devices: they register the
 * handles returned, and keep newer loaders dispatching through zeil's tables.
 */
#include "intercepts.h"

#include "checks.h"
#include "coverage.h"
#include "diag.h"
#include "zeil_hooks.h"

/* The drivers or devices returned, registered when zeil does not know them
 * live (since API 1.10 a loader takes drivers from zeDriverGet or
 * zeInitDrivers, so both register them alike). */
static void register_all(const zeil_call_t *call, const zeil_next_t *next, zeil_kind_t kind,
                         ze_driver_handle_t driver, ze_device_handle_t parent,
                         const uint32_t *count, void *const *handles)
{
    for (uint32_t i = 0; handles && count && i < *count; i++) {
        zeil_obj_t *known = registry_find(handles[i]);
        ze_api_version_t version;
        if (!known || !atomic_load(&known->alive) || known->kind != kind)
            intercept_register(call, next, &(zeil_obj_t){
                .handle = handles[i], .kind = kind, .parent = parent,
                .driver = kind == ZEIL_KIND_DRIVER ? handles[i] : driver,
                .device = kind == ZEIL_KIND_DEVICE ? handles[i] : NULL});
        if (kind == ZEIL_KIND_DRIVER && NEXT(ze_driver_dditable_t, pfnGetApiVersion) &&
            NEXT(ze_driver_dditable_t, pfnGetApiVersion)(handles[i], &version) == ZE_RESULT_SUCCESS)
            coverage_note_driver_version(next, version);
    }
}

ZEIL_POST(zeDriverGet)
{
    if (result == ZE_RESULT_SUCCESS)
        register_all(call, next, ZEIL_KIND_DRIVER, NULL, NULL, a->pCount, (void *const *)a->phDrivers);
}

ZEIL_POST(zeInitDrivers)
{
    if (result == ZE_RESULT_SUCCESS)
        register_all(call, next, ZEIL_KIND_DRIVER, NULL, NULL, a->pCount, (void *const *)a->phDrivers);
}

ZEIL_POST(zeDeviceGet)
{
    if (result == ZE_RESULT_SUCCESS)
        register_all(call, next, ZEIL_KIND_DEVICE, a->hDriver, NULL, a->pCount,
                     (void *const *)a->phDevices);
}

ZEIL_POST(zeDeviceGetSubDevices)
{
    if (result == ZE_RESULT_SUCCESS)
        register_all(call, next, ZEIL_KIND_DEVICE, objs[0] ? objs[0]->driver : NULL, a->hDevice,
                     a->pCount, (void *const *)a->phSubdevices);
}

/* A driver that claims DDI handles (ze_driver_ddi_handles_ext_properties_t
 * chained to these properties) has newer loaders call it through the tables
 * inside its handles, never through zeil's: zeil hides the claim. */
ZEIL_POST(zeDriverGetProperties)
{
    static _Atomic int said[ZEIL_MAX_NEXT_DRIVERS];
    int hops = 0; /* a chain is short; a cycle must not hang the call */
    for (ze_base_properties_t *p = result == ZE_RESULT_SUCCESS && a->pDriverProperties
                                       ? a->pDriverProperties->pNext : NULL;
         p && hops < 64; p = p->pNext, hops++) {
        zeil_compat_driver_ddi_handles_ext_properties_t *ddi = (void *)p;
        if (p->stype != ZEIL_COMPAT_STYPE_DRIVER_DDI_HANDLES_EXT_PROPERTIES ||
            !(ddi->flags & ZEIL_COMPAT_DRIVER_DDI_HANDLE_EXT_FLAG_SUPPORTED))
            continue;
        ddi->flags &= ~(uint32_t)ZEIL_COMPAT_DRIVER_DDI_HANDLE_EXT_FLAG_SUPPORTED;
        if (zeil_settings()->log_level >= ZEIL_LOG_INFO && next->index < ZEIL_MAX_NEXT_DRIVERS &&
            !atomic_exchange(&said[next->index], 1))
            diag_report(ZEIL_RULE_W081, call->name,
                        "driver %p (%s) claims DDI handles; zeil hides the claim so that the "
                        "loader keeps calling it through zeil's tables",
                        (void *)a->hDriver, next->path);
    }
}
