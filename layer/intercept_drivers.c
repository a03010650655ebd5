/* Intercepts of zeInit, drivers and devices: they only register handles. */
#include "intercepts.h"

#include "checks.h"

ze_result_t ZE_APICALL zeil_icpt_zeInit(const zeil_next_t *next, ze_init_flags_t flags)
{
    zeil_call_t call;
    calls_begin(&call, "zeInit");
    ze_result_t r = NEXT(ze_global_dditable_t, pfnInit)(flags);
    return CALLS_END(&call, r, "flags=0x%x driver=%s", (unsigned)flags, next->path);
}

ze_result_t ZE_APICALL zeil_icpt_zeDriverGet(const zeil_next_t *next, uint32_t *pCount,
                                             ze_driver_handle_t *phDrivers)
{
    zeil_call_t call;
    calls_begin(&call, "zeDriverGet");
    ze_result_t r = NEXT(ze_driver_dditable_t, pfnGet)(pCount, phDrivers);
    for (uint32_t i = 0; r == ZE_RESULT_SUCCESS && phDrivers && pCount && i < *pCount; i++) {
        zeil_obj_t *known = registry_find(phDrivers[i]);
        if (!known || !atomic_load(&known->alive))
            intercept_register(&call, next, &(zeil_obj_t){.handle = phDrivers[i],
                                                          .kind = ZEIL_KIND_DRIVER,
                                                          .driver = phDrivers[i]});
    }
    return CALLS_END(&call, r, "count=%u", pCount ? *pCount : 0);
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
    return CALLS_END(&call, r, "hDriver=%p count=%u", (void *)hDriver, pCount ? *pCount : 0);
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
    return CALLS_END(&call, r, "hDevice=%p count=%u", (void *)hDevice, pCount ? *pCount : 0);
}
