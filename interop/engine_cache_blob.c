/* The engine cache blob API: an ID naming what a blob is valid for, the blob
 * of an engine (its native module's binary), and engines built from blobs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache_blob.h"
#include "checks.h"
#include "dnnl_compat.h"
#include "engine.h"
#include "export.h"
#include "forward.h"
#include "rules.h"

static dnnl_status_t current_id(const char *call, ze_driver_handle_t driver,
                                ze_device_handle_t device, cache_blob_id_t *id)
{
    ze_device_properties_t dev = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ze_driver_properties_t drv = {.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES};
    ze_result_t result = zeDeviceGetProperties(device, &dev);
    if (result == ZE_RESULT_SUCCESS)
        result = zeDriverGetProperties(driver, &drv);
    if (result != ZE_RESULT_SUCCESS) {
        interop_report(INTEROP_RULE_E107, call,
                       "querying the device and driver properties returned 0x%x", (unsigned)result);
        return dnnl_runtime_error;
    }
    memset(id, 0, sizeof *id);
    id->format_version = CACHE_BLOB_FORMAT_VERSION;
    memcpy(id->device_uuid, dev.uuid.id, CACHE_BLOB_UUID_SIZE);
    snprintf(id->device_name, sizeof id->device_name, "%.*s", (int)sizeof dev.name, dev.name);
    id->driver_version = drv.driverVersion;
    compat_version_t version;
    compat_dnnl_version(&version);
    id->dnnl_major = version.major;
    id->dnnl_minor = version.minor;
    id->dnnl_patch = version.patch;
    snprintf(id->dnnl_hash, sizeof id->dnnl_hash, "%s", version.hash);
    return dnnl_success;
}

/* The size-query convention: a null buffer asks for the size. */
static dnnl_status_t deliver(const char *call, const char *what, size_t needed, size_t *size,
                             uint8_t *buffer, int *write)
{
    *write = 0;
    if (!buffer) {
        *size = needed;
        return dnnl_success;
    }
    if (*size < needed) {
        interop_report(INTEROP_RULE_E145, call, "*size is %zu, the %s needs %zu bytes", *size, what,
                       needed);
        return dnnl_invalid_arguments;
    }
    *size = needed;
    *write = 1;
    return dnnl_success;
}

INTEROP_EXPORT dnnl_status_t dnnl_ze_interop_engine_get_cache_blob_id(ze_driver_handle_t driver,
                                                                      ze_device_handle_t device,
                                                                      size_t *size,
                                                                      uint8_t *cache_blob_id)
{
    const char *call = "dnnl_ze_interop_engine_get_cache_blob_id";
    dnnl_status_t status = check_driver_device(call, driver, device);
    if (status != dnnl_success || check_not_null(call, size, "size"))
        return status != dnnl_success ? status : dnnl_invalid_arguments;
    if (interop_engine_backend_for(device) == INTEROP_BACKEND_FORWARD) {
        const forward_table_t *next = forward_table();
        if (next)
            return next->engine_get_cache_blob_id(driver, device, size, cache_blob_id);
        interop_report(INTEROP_RULE_E152, call,
                       "ZEIL_INTEROP_BACKEND=forward, but no other dnnl_ze_interop_* is loaded");
        return dnnl_runtime_error;
    }
    cache_blob_id_t id;
    if ((status = current_id(call, driver, device, &id)) != dnnl_success)
        return status;
    int write = 0;
    status = deliver(call, "cache blob ID", CACHE_BLOB_ID_SIZE, size, cache_blob_id, &write);
    if (write)
        cache_blob_id_encode(&id, cache_blob_id);
    return status;
}

INTEROP_EXPORT dnnl_status_t dnnl_ze_interop_engine_get_cache_blob(dnnl_engine_t engine,
                                                                   size_t *size,
                                                                   uint8_t *cache_blob)
{
    const char *call = "dnnl_ze_interop_engine_get_cache_blob";
    interop_engine_t *record = interop_engine_require(call, engine);
    if (!record || check_not_null(call, size, "size"))
        return dnnl_invalid_arguments;
    if (record->backend == INTEROP_BACKEND_FORWARD)
        return forward_table()->engine_get_cache_blob(engine, size, cache_blob);
    dnnl_status_t status = check_engine_objects_alive(call, record->device, record->context);
    if (status != dnnl_success)
        return status;
    cache_blob_id_t id;
    if ((status = current_id(call, record->driver, record->device, &id)) != dnnl_success)
        return status;
    size_t binary_size = 0;
    ze_result_t result = zeModuleGetNativeBinary(record->module, &binary_size, NULL);
    uint8_t *binary = result == ZE_RESULT_SUCCESS ? malloc(binary_size ? binary_size : 1) : NULL;
    if (binary)
        result = zeModuleGetNativeBinary(record->module, &binary_size, binary);
    if (result == ZE_RESULT_SUCCESS && !binary)
        return dnnl_out_of_memory;
    if (result != ZE_RESULT_SUCCESS) {
        free(binary);
        interop_report(INTEROP_RULE_E107, call, "zeModuleGetNativeBinary returned 0x%x",
                       (unsigned)result);
        return dnnl_runtime_error;
    }
    int write = 0;
    status = deliver(call, "cache blob", cache_blob_size(binary_size), size, cache_blob, &write);
    if (write)
        cache_blob_encode(&id, binary, binary_size, cache_blob);
    free(binary);
    return status;
}

static interop_rule_t parse_rule(cache_blob_status_t status)
{
    return status == CACHE_BLOB_OTHER_FORMAT ? INTEROP_RULE_E144 : INTEROP_RULE_E140;
}

static interop_rule_t mismatch_rule(cache_blob_mismatch_t mismatch)
{
    switch (mismatch) {
    case CACHE_BLOB_OTHER_ZEIL:
        return INTEROP_RULE_E144;
    case CACHE_BLOB_OTHER_DEVICE:
        return INTEROP_RULE_E141;
    case CACHE_BLOB_OTHER_DRIVER:
        return INTEROP_RULE_E142;
    default:
        return INTEROP_RULE_E143;
    }
}

INTEROP_EXPORT dnnl_status_t dnnl_ze_interop_engine_create_from_cache_blob(
    dnnl_engine_t *engine, ze_driver_handle_t driver, ze_device_handle_t device,
    ze_context_handle_t context, size_t size, const uint8_t *cache_blob)
{
    const char *call = "dnnl_ze_interop_engine_create_from_cache_blob";
    if (check_not_null(call, engine, "engine output") ||
        check_not_null(call, cache_blob, "cache blob"))
        return dnnl_invalid_arguments;
    dnnl_status_t status = check_engine_objects(call, driver, device, context);
    if (status != dnnl_success)
        return status;
    if (interop_engine_backend_for(device) == INTEROP_BACKEND_FORWARD)
        return interop_engine_create(call, engine, driver, device, context, cache_blob, size);
    char why[512];
    cache_blob_view_t view;
    cache_blob_status_t parsed = cache_blob_parse(cache_blob, size, &view, why, sizeof why);
    if (parsed != CACHE_BLOB_OK) {
        interop_report(parse_rule(parsed), call, "%s", why);
        return dnnl_invalid_arguments;
    }
    cache_blob_id_t here;
    if ((status = current_id(call, driver, device, &here)) != dnnl_success)
        return status;
    cache_blob_mismatch_t mismatch = cache_blob_id_compare(&view.id, &here, why, sizeof why);
    if (mismatch != CACHE_BLOB_MATCH) {
        interop_report(mismatch_rule(mismatch), call, "%s", why);
        return dnnl_invalid_arguments;
    }
    return interop_engine_create(call, engine, driver, device, context, view.binary,
                                 view.binary_size);
}
