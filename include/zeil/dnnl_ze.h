/*
 * dnnl_ze.h: oneDNN's Level Zero interoperability C API, implemented by
 * libzeil_interop.so over a oneDNN without a Level Zero runtime of its own
 * (and forwarded to one that has it, when such a oneDNN is in the process).
 *
 * Names and parameters are oneDNN's. Differences forced by oneDNN 2.6:
 * - the memory descriptor is `const dnnl_memory_desc_t *` (oneDNN 3.x:
 *   const_dnnl_memory_desc_t);
 * - memory has one buffer: nhandles > 1 returns dnnl_unimplemented.
 *
 * Every handle given to these functions is validated (rule IDs ZEIL-E1xx and
 * ZEIL-W1xx, printed through zeil's log); a refused call returns an error
 * status and changes nothing.
 *
 * Ownership (as in oneDNN): the library never owns the driver, device,
 * context, command list or user USM pointers; it keeps references only, and
 * the getters retain nothing. A buffer allocated for DNNL_MEMORY_ALLOCATE is
 * owned by its memory object and freed by dnnl_memory_destroy. The event
 * returned by dnnl_ze_interop_primitive_execute belongs to the stream: the
 * caller must not destroy or reset it; as in oneDNN (one pool of 16384
 * events per stream) it names its own execute until 16384 more executes
 * were made on the stream; only then may its slot be reused for a later
 * execute of the same stream (ZEIL-W154 when it is named after that).
 *
 * libzeil_interop also stands in front of oneDNN's dnnl_stream_create,
 * dnnl_primitive_execute, dnnl_memory_create and dnnl_engine_get_kind, so
 * that streams, executes and memory of interop engines behave as oneDNN's
 * Level Zero ones: link libzeil_interop before libdnnl.
 */
#ifndef ZEIL_DNNL_ZE_H
#define ZEIL_DNNL_ZE_H

#include <stddef.h>
#include <stdint.h>
#include <level_zero/ze_api.h>
#include <oneapi/dnnl/dnnl.h>

#ifdef __cplusplus
extern "C" {
#endif

#if DNNL_VERSION_MAJOR >= 3
typedef const_dnnl_memory_desc_t dnnl_ze_interop_memory_desc_t;
#else
typedef const dnnl_memory_desc_t *dnnl_ze_interop_memory_desc_t;
#endif

/* Size queries: with a null id/blob, *size receives the size in bytes. With a
 * buffer, *size must be at least that size. */
dnnl_status_t dnnl_ze_interop_engine_get_cache_blob_id(ze_driver_handle_t driver,
                                                       ze_device_handle_t device, size_t *size,
                                                       uint8_t *cache_blob_id);
dnnl_status_t dnnl_ze_interop_engine_get_cache_blob(dnnl_engine_t engine, size_t *size,
                                                    uint8_t *cache_blob);
dnnl_status_t dnnl_ze_interop_engine_create_from_cache_blob(dnnl_engine_t *engine,
                                                            ze_driver_handle_t driver,
                                                            ze_device_handle_t device,
                                                            ze_context_handle_t context,
                                                            size_t size, const uint8_t *cache_blob);
dnnl_status_t dnnl_ze_interop_engine_create(dnnl_engine_t *engine, ze_driver_handle_t driver,
                                            ze_device_handle_t device, ze_context_handle_t context);
dnnl_status_t dnnl_ze_interop_engine_get_context(dnnl_engine_t engine,
                                                 ze_context_handle_t *context);
dnnl_status_t dnnl_ze_interop_engine_get_device(dnnl_engine_t engine, ze_device_handle_t *device);
dnnl_status_t dnnl_ze_interop_engine_get_driver(dnnl_engine_t engine, ze_driver_handle_t *driver);

/* The list must be an in-order immediate command list of the engine's
 * context and device. profiling != 0 gives every execute's event kernel
 * timestamps (zeEventQueryKernelTimestamp). */
dnnl_status_t dnnl_ze_interop_stream_create(dnnl_stream_t *stream, dnnl_engine_t engine,
                                            ze_command_list_handle_t list, int profiling);
dnnl_status_t dnnl_ze_interop_stream_get_list(dnnl_stream_t stream, ze_command_list_handle_t *list);

/* handles[0]: a USM pointer of the engine's context (not owned), plain host
 * memory when the device reports sharedSystemAllocCapabilities,
 * DNNL_MEMORY_ALLOCATE (device USM owned by the memory object) or
 * DNNL_MEMORY_NONE. As in oneDNN, nhandles must be at least 1. */
dnnl_status_t dnnl_ze_interop_memory_create(dnnl_memory_t *memory,
                                            dnnl_ze_interop_memory_desc_t memory_desc,
                                            dnnl_engine_t engine, int nhandles, void **handles);

/* Appends the primitive to the stream's command list, after the deps events,
 * and returns without waiting; *return_event (may be null) completes when
 * the primitive has run. */
dnnl_status_t dnnl_ze_interop_primitive_execute(const_dnnl_primitive_t primitive,
                                                dnnl_stream_t stream, int nargs,
                                                const dnnl_exec_arg_t *args, int ndeps,
                                                const ze_event_handle_t *deps,
                                                ze_event_handle_t *return_event);

/* zeil's own (not oneDNN's): 1 when engine was created by
 * dnnl_ze_interop_engine_create or dnnl_ze_interop_engine_create_from_cache_blob
 * (a Level Zero engine), else 0. dnnl_engine_get_kind says dnnl_gpu for such
 * engines, as oneDNN does, but oneDNN 2.6 itself runs them as CPU engines;
 * code that must tell a Level Zero engine from others asks this. */
int zeil_interop_engine_is_ze(dnnl_engine_t engine);

#ifdef __cplusplus
}
#endif

#endif
