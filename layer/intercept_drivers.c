/*
 * Intercepts of zeInit, zeInitDrivers, drivers and devices: they register
 * handles, and keep newer loaders dispatching through zeil's tables.
 */
#include "intercepts.h"

#include "checks.h"
#include "zeil_hooks.h"
#include "coverage.h"
#include "diag.h"

ze_result_t ZE_APICALL zeil_icpt_zeInit(const zeil_next_t *next, ze_init_flags_t flags)
{
    zeil_call_t call;
    calls_begin(&call, "zeInit");
    ze_result_t r = NEXT(ze_global_dditable_t, pfnInit)(flags);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeInit, ZEIL_ARGS_zeInit);
}

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

ze_result_t ZE_APICALL zeil_icpt_zeDriverGet(const zeil_next_t *next, uint32_t *pCount,
                                             ze_driver_handle_t *phDrivers)
{
    zeil_call_t call;
    calls_begin(&call, "zeDriverGet");
    ze_result_t r = NEXT(ze_driver_dditable_t, pfnGet)(pCount, phDrivers);
    if (r == ZE_RESULT_SUCCESS && pCount)
        register_drivers(&call, next, *pCount, phDrivers);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeDriverGet, ZEIL_ARGS_zeDriverGet);
}

ze_result_t ZE_APICALL zeil_icpt_zeInitDrivers(const zeil_next_t *next, uint32_t *pCount,
                                               ze_driver_handle_t *phDrivers,
                                               ze_init_driver_type_desc_t *desc)
{
    zeil_call_t call;
    calls_begin(&call, "zeInitDrivers");
    ze_result_t r = NEXT(ze_global_dditable_t, pfnInitDrivers)(pCount, phDrivers, desc);
    if (r == ZE_RESULT_SUCCESS && pCount)
        register_drivers(&call, next, *pCount, phDrivers);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeInitDrivers, ZEIL_ARGS_zeInitDrivers);
}

/* A driver that claims DDI handles (ze_driver_ddi_handles_ext_properties_t
 * chained to these properties) has newer loaders call it through the tables
 * inside its handles, never through zeil's: zeil hides the claim. */
ze_result_t ZE_APICALL zeil_icpt_zeDriverGetProperties(const zeil_next_t *next,
                                                       ze_driver_handle_t hDriver,
                                                       ze_driver_properties_t *pDriverProperties)
{
    zeil_call_t call;
    calls_begin(&call, "zeDriverGetProperties");
    zeil_obj_t *driver;
    ze_result_t r = check_handle(&call, "hDriver", hDriver, ZEIL_KIND_DRIVER, &driver);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_driver_dditable_t, pfnGetProperties)(hDriver, pDriverProperties);
    int hops = 0; /* a chain is short; a cycle must not hang the call */
    for (ze_base_properties_t *p = r == ZE_RESULT_SUCCESS && pDriverProperties
                                       ? pDriverProperties->pNext : NULL;
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
            diag_report(ZEIL_RULE_W081, call.name,
                        "driver %p (%s) claims DDI handles; zeil hides the claim so that the "
                        "loader keeps calling it through zeil's tables",
                        (void *)hDriver, next->path);
    }
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeDriverGetProperties, ZEIL_ARGS_zeDriverGetProperties);
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

ze_result_t ZE_APICALL zeil_icpt_zeDeviceGet(const zeil_next_t *next, ze_driver_handle_t hDriver,
                                             uint32_t *pCount, ze_device_handle_t *phDevices)
{
    zeil_call_t call;
    calls_begin(&call, "zeDeviceGet");
    zeil_obj_t *driver;
    ze_result_t r = check_handle(&call, "hDriver", hDriver, ZEIL_KIND_DRIVER, &driver);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_device_dditable_t, pfnGet)(hDriver, pCount, phDevices);
    if (r == ZE_RESULT_SUCCESS && pCount)
        register_devices(&call, next, hDriver, NULL, *pCount, phDevices);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeDeviceGet, ZEIL_ARGS_zeDeviceGet);
}

ze_result_t ZE_APICALL zeil_icpt_zeDeviceGetSubDevices(const zeil_next_t *next,
                                                       ze_device_handle_t hDevice,
                                                       uint32_t *pCount,
                                                       ze_device_handle_t *phSubdevices)
{
    zeil_call_t call;
    calls_begin(&call, "zeDeviceGetSubDevices");
    zeil_obj_t *device;
    ze_result_t r = check_handle(&call, "hDevice", hDevice, ZEIL_KIND_DEVICE, &device);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_device_dditable_t, pfnGetSubDevices)(hDevice, pCount, phSubdevices);
    if (r == ZE_RESULT_SUCCESS && pCount)
        register_devices(&call, next, device ? device->driver : NULL, hDevice, *pCount,
                         phSubdevices);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeDeviceGetSubDevices, ZEIL_ARGS_zeDeviceGetSubDevices);
}
