/* engine.h: zeil's record of an interop engine, bound to Level Zero objects. */
#ifndef ZEIL_INTEROP_ENGINE_H
#define ZEIL_INTEROP_ENGINE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <zeil/dnnl_ze.h>

typedef enum interop_backend {
    INTEROP_BACKEND_HOST,    /* oneDNN CPU engine, primitives run by zeil's kernel */
    INTEROP_BACKEND_FORWARD, /* another oneDNN's Level Zero engine */
} interop_backend_t;

typedef struct interop_engine {
    dnnl_engine_t engine;
    interop_backend_t backend;
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t context;
    ze_module_handle_t module; /* host: zeil's native module in the context */
    int system_memory;         /* device reports sharedSystemAllocCapabilities */
    atomic_int refs;           /* the engine itself + its streams */
} interop_engine_t;

/* The record of an interop engine, or null for any other engine. */
interop_engine_t *interop_engine_find(dnnl_engine_t engine);
/* Like interop_engine_find, reporting E101/E105 for the call. */
interop_engine_t *interop_engine_require(const char *call, dnnl_engine_t engine);

void interop_engine_retain(interop_engine_t *engine);
void interop_engine_release(interop_engine_t *engine);

/* Creates a host or forward engine; binary (may be null: the embedded
 * module) is the native module to build. Validates the handles first. */
dnnl_status_t interop_engine_create(const char *call, dnnl_engine_t *out, ze_driver_handle_t driver,
                                    ze_device_handle_t device, ze_context_handle_t context,
                                    const uint8_t *binary, size_t binary_size);

/* Which backend serves a device (without creating anything). */
interop_backend_t interop_engine_backend_for(ze_device_handle_t device);

/* dnnl_engine_destroy: drops the table entry and the engine's reference. */
void interop_engine_forget(dnnl_engine_t engine);

#endif
