/* Interop engines: creation on either backend, the getters, and lifetime. */
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <oneapi/dnnl/dnnl_debug.h>
#include <zeil/zeil.h>

#include "checks.h"
#include "env.h"
#include "export.h"
#include "forward.h"
#include "handle_map.h"
#include "real_dnnl.h"
#include "kernel/launch_abi.h"
#include "kernel_image.h"
#include "rules.h"

static handle_map_t engines = HANDLE_MAP_INIT;

interop_engine_t *interop_engine_find(dnnl_engine_t engine)
{
    return engine ? handle_map_get(&engines, engine) : NULL;
}

interop_engine_t *interop_engine_require(const char *call, dnnl_engine_t engine)
{
    return check_interop_handle(call, &engines, engine, "engine", INTEROP_RULE_E105,
                                "dnnl_ze_interop_engine_create");
}

void interop_engine_retain(interop_engine_t *engine)
{
    atomic_fetch_add(&engine->refs, 1);
}

void interop_engine_release(interop_engine_t *engine)
{
    if (atomic_fetch_sub(&engine->refs, 1) != 1)
        return;
    if (engine->module)
        zeModuleDestroy(engine->module);
    free(engine);
}

void interop_engine_forget(dnnl_engine_t engine)
{
    interop_engine_t *record = handle_map_take(&engines, engine);
    if (record)
        interop_engine_release(record);
}

interop_backend_t interop_engine_backend_for(ze_device_handle_t device)
{
    backend_request_t request = env_backend_request();
    if (request == BACKEND_FORWARD_ONLY)
        return INTEROP_BACKEND_FORWARD; /* refused later (E152) without a target */
    if (request == BACKEND_HOST_ONLY || !forward_table())
        return INTEROP_BACKEND_HOST;
    ze_device_properties_t props = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    if (zeDeviceGetProperties(device, &props) == ZE_RESULT_SUCCESS &&
        props.type == ZE_DEVICE_TYPE_CPU)
        return INTEROP_BACKEND_HOST;
    return INTEROP_BACKEND_FORWARD;
}

/* Builds zeil's native module on the device: also the probe that tells
 * whether the device executes host code at all. */
static ze_result_t build_native_module(const interop_engine_t *engine, const uint8_t *binary,
                                       size_t size, ze_module_handle_t *module)
{
    ze_module_desc_t desc = {
        ZE_STRUCTURE_TYPE_MODULE_DESC, NULL, ZE_MODULE_FORMAT_NATIVE, size, binary, NULL, NULL};
    ze_module_build_log_handle_t log = NULL;
    ze_result_t result = zeModuleCreate(engine->context, engine->device, &desc, module, &log);
    if (log)
        zeModuleBuildLogDestroy(log);
    return result;
}

static interop_engine_t *new_record(interop_backend_t backend, ze_driver_handle_t driver,
                                    ze_device_handle_t device, ze_context_handle_t context)
{
    interop_engine_t *record = calloc(1, sizeof *record);
    if (!record)
        return NULL;
    record->backend = backend;
    record->driver = driver;
    record->device = device;
    record->context = context;
    record->system_memory = check_device_uses_system_memory(device);
    atomic_init(&record->refs, 1);
    return record;
}

static dnnl_status_t publish(interop_engine_t *record, dnnl_engine_t engine, dnnl_engine_t *out)
{
    record->engine = engine;
    /* A record already here belongs to an engine destroyed behind zeil's
     * back (oneDNN's dnnl_engine_destroy was called directly). */
    interop_engine_forget(engine);
    if (handle_map_put(&engines, engine, record) != 0) {
        interop_engine_release(record);
        real_dnnl_engine_destroy(engine); /* nobody else will */
        return dnnl_out_of_memory;
    }
    *out = engine;
    return dnnl_success;
}

static dnnl_status_t create_forward(const char *call, dnnl_engine_t *out, interop_engine_t *record,
                                    const uint8_t *blob, size_t blob_size)
{
    const forward_table_t *next = forward_table();
    if (!next) {
        interop_report(INTEROP_RULE_E152, call,
                       "ZEIL_INTEROP_BACKEND=forward, but no other dnnl_ze_interop_* is loaded");
        interop_engine_release(record);
        return dnnl_runtime_error;
    }
    dnnl_engine_t engine = NULL;
    dnnl_status_t status =
        blob ? next->engine_create_from_cache_blob(&engine, record->driver, record->device,
                                                   record->context, blob_size, blob)
             : next->engine_create(&engine, record->driver, record->device, record->context);
    if (status != dnnl_success || !engine) {
        interop_report(INTEROP_RULE_E152, call, "forwarded call returned %s",
                       dnnl_status2str(status));
        interop_engine_release(record);
        return status != dnnl_success ? status : dnnl_runtime_error;
    }
    return publish(record, engine, out);
}

static dnnl_status_t create_host(const char *call, dnnl_engine_t *out, interop_engine_t *record,
                                 const uint8_t *binary, size_t binary_size, ze_result_t *probe)
{
    *probe = build_native_module(record, binary, binary_size, &record->module);
    if (*probe != ZE_RESULT_SUCCESS) {
        record->module = NULL;
        return dnnl_runtime_error;
    }
    ze_kernel_desc_t kdesc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, ZEIL_INTEROP_KERNEL_NAME};
    ze_kernel_handle_t kernel = NULL;
    ze_result_t result = zeKernelCreate(record->module, &kdesc, &kernel);
    if (result != ZE_RESULT_SUCCESS) {
        interop_report(INTEROP_RULE_E107, call,
                       "zeKernelCreate(%s) returned 0x%x: the module is not zeil's",
                       ZEIL_INTEROP_KERNEL_NAME, (unsigned)result);
        interop_engine_release(record);
        return dnnl_runtime_error;
    }
    zeKernelDestroy(kernel); /* streams create their own kernel objects */
    dnnl_engine_t engine = NULL;
    dnnl_status_t status = dnnl_engine_create(&engine, dnnl_cpu, 0);
    if (status != dnnl_success) {
        interop_engine_release(record);
        return status;
    }
    return publish(record, engine, out);
}

dnnl_status_t interop_engine_create(const char *call, dnnl_engine_t *out, ze_driver_handle_t driver,
                                    ze_device_handle_t device, ze_context_handle_t context,
                                    const uint8_t *binary, size_t binary_size)
{
    if (check_not_null(call, out, "engine output"))
        return dnnl_invalid_arguments;
    dnnl_status_t status = interpose_check(call);
    if (status == dnnl_success)
        status = check_engine_objects(call, driver, device, context);
    if (status != dnnl_success)
        return status;
    interop_backend_t backend = interop_engine_backend_for(device);
    interop_engine_t *record = new_record(backend, driver, device, context);
    if (!record)
        return dnnl_out_of_memory;
    if (backend == INTEROP_BACKEND_FORWARD)
        return create_forward(call, out, record, binary, binary_size);
    ze_result_t probe = ZE_RESULT_SUCCESS;
    status = create_host(call, out, record, binary ? binary : kernel_image_bytes(),
                         binary ? binary_size : kernel_image_size(), &probe);
    if (probe == ZE_RESULT_SUCCESS)
        return status;
    /* The device does not run host code: a Level Zero oneDNN may. */
    if (forward_table() && env_backend_request() != BACKEND_HOST_ONLY && !binary) {
        record->backend = INTEROP_BACKEND_FORWARD;
        return create_forward(call, out, record, NULL, 0);
    }
    interop_engine_release(record);
    interop_report(INTEROP_RULE_E104, call,
                   "device %p is not host-executable (zeModuleCreate of zeil's native module "
                   "returned 0x%x) and no other dnnl_ze_interop_engine_create was found",
                   (void *)device, (unsigned)probe);
    return dnnl_unimplemented;
}

INTEROP_EXPORT dnnl_status_t dnnl_ze_interop_engine_create(dnnl_engine_t *engine,
                                                           ze_driver_handle_t driver,
                                                           ze_device_handle_t device,
                                                           ze_context_handle_t context)
{
    return interop_engine_create("dnnl_ze_interop_engine_create", engine, driver, device, context,
                                 NULL, 0);
}

/* The getters return what the engine was created with and retain nothing;
 * they refuse an engine whose context or device has been destroyed. */
static interop_engine_t *usable_engine(const char *call, dnnl_engine_t engine, const void *out,
                                       dnnl_status_t *status)
{
    *status = dnnl_invalid_arguments;
    interop_engine_t *record = interop_engine_require(call, engine);
    if (!record || check_not_null(call, out, "output"))
        return NULL;
    *status = check_engine_objects_alive(call, record->device, record->context);
    return *status == dnnl_success ? record : NULL;
}

INTEROP_EXPORT dnnl_status_t dnnl_ze_interop_engine_get_context(dnnl_engine_t engine,
                                                                ze_context_handle_t *context)
{
    dnnl_status_t status;
    interop_engine_t *record =
        usable_engine("dnnl_ze_interop_engine_get_context", engine, context, &status);
    if (!record)
        return status;
    if (record->backend == INTEROP_BACKEND_FORWARD)
        return forward_table()->engine_get_context(engine, context);
    *context = record->context;
    return dnnl_success;
}

INTEROP_EXPORT dnnl_status_t dnnl_ze_interop_engine_get_device(dnnl_engine_t engine,
                                                               ze_device_handle_t *device)
{
    dnnl_status_t status;
    interop_engine_t *record =
        usable_engine("dnnl_ze_interop_engine_get_device", engine, device, &status);
    if (!record)
        return status;
    if (record->backend == INTEROP_BACKEND_FORWARD)
        return forward_table()->engine_get_device(engine, device);
    *device = record->device;
    return dnnl_success;
}

INTEROP_EXPORT dnnl_status_t dnnl_ze_interop_engine_get_driver(dnnl_engine_t engine,
                                                               ze_driver_handle_t *driver)
{
    dnnl_status_t status;
    interop_engine_t *record =
        usable_engine("dnnl_ze_interop_engine_get_driver", engine, driver, &status);
    if (!record)
        return status;
    if (record->backend == INTEROP_BACKEND_FORWARD)
        return forward_table()->engine_get_driver(engine, driver);
    *driver = record->driver;
    return dnnl_success;
}

INTEROP_EXPORT int zeil_interop_engine_is_ze(dnnl_engine_t engine)
{
    return interop_engine_find(engine) != NULL;
}
