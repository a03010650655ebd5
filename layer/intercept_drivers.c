/*
 * Intercepts of zeInit, zeInitDrivers, drivers and devices: they register
 * handles, and keep newer loaders dispatching through zeil's tables.
 */
#include "intercepts.h"

#include "checks.h"
#include "zeil_hooks.h"
#include "coverage.h"
#include "diag.h"

/* The drivers zeDriverGet or zeInitDrivers returned: since API 1.10 a
 * loader takes them from either, so both register them alike. */
static void register_drivers(const zeil_call_t *call, const zeil_next_t *next, uint32_t count,
                             const ze_driver_handle_t *drivers)
{
    for (uint32_t i = 0; drivers && i < count; i++) {
        zeil_obj_t *known = registry_find(drivers[i]);
        if (!known || !atomic_load(&known->alive))
            intercept_register(call, next, &(zeil_obj_t){.handle = drivers[i],
                                                         .kind = ZEIL_KIND_DRIVER,
                                                         .driver = drivers[i]});
        ze_api_version_t version;
        if (NEXT(ze_driver_dditable_t, pfnGetApiVersion) &&
            NEXT(ze_driver_dditable_t, pfnGetApiVersion)(drivers[i], &version) ==
                ZE_RESULT_SUCCESS)
            coverage_note_driver_version(next, version);
    }
}

ZEIL_POST(zeDriverGet)
{
    if (result == ZE_RESULT_SUCCESS && a->pCount)
        register_drivers(call, next, *a->pCount, a->phDrivers);
}

ZEIL_POST(zeInitDrivers)
{
    if (result == ZE_RESULT_SUCCESS && a->pCount)
        register_drivers(call, next, *a->pCount, a->phDrivers);
}

/* A driver that claims DDI handles (ze_driver_ddi_handles_ext_properties_t
 * chained to these properties) has newer loaders call it through the tables
 * inside its handles, never through zeil's: zeil hides the claim. */
ZEIL_POST(zeDriverGetProperties)
{
    int hops = 0; /* a chain is short; a cycle must not hang the call */
    for (ze_base_properties_t *p = result == ZE_RESULT_SUCCESS && a->pDriverProperties
                                       ? a->pDriverProperties->pNext : NULL;
         p && hops < 64; p = p->pNext, hops++) {
        if (p->stype != ZEIL_COMPAT_STYPE_DRIVER_DDI_HANDLES_EXT_PROPERTIES)
            continue;
        zeil_compat_driver_ddi_handles_ext_properties_t *ddi = (void *)p;
        static _Atomic int said[ZEIL_MAX_NEXT_DRIVERS];
        if (!(ddi->flags & ZEIL_COMPAT_DRIVER_DDI_HANDLE_EXT_FLAG_SUPPORTED))
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

static void register_devices(const zeil_call_t *call, const zeil_next_t *next,
                             ze_driver_handle_t driver, ze_device_handle_t parent,
                             uint32_t count, ze_device_handle_t *devices)
{
    for (uint32_t i = 0; devices && i < count; i++) {
        zeil_obj_t *known = registry_find(devices[i]);
        if (known && atomic_load(&known->alive) && known->kind == ZEIL_KIND_DEVICE)
            continue;
        intercept_register(call, next, &(zeil_obj_t){.handle = devices[i],
                                                     .kind = ZEIL_KIND_DEVICE,
                                                     .driver = driver,
                                                     .device = devices[i],
                                                     .parent = parent});
    }
}

ZEIL_POST(zeDeviceGet)
{
    if (result == ZE_RESULT_SUCCESS && a->pCount)
        register_devices(call, next, a->hDriver, NULL, *a->pCount, a->phDevices);
}

ZEIL_POST(zeDeviceGetSubDevices)
{
    if (result == ZE_RESULT_SUCCESS && a->pCount)
        register_devices(call, next, objs[0] ? objs[0]->driver : NULL, a->hDevice, *a->pCount,
                         a->phSubdevices);
}
