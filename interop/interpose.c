/* zeil's definitions of oneDNN's create, execute, destroy and wait
 * functions (see interpose.h for why they exist); they reach oneDNN's own
 * through real_dnnl.c. */
#include "interpose.h"

#include "engine.h"
#include "event_ring.h"
#include "export.h"
#include "memory.h"
#include "real_dnnl.h"
#include "stream.h"

INTEROP_EXPORT dnnl_status_t dnnl_memory_destroy(dnnl_memory_t memory)
{
    struct owned_usm *owned = interop_memory_detach(memory);
    dnnl_status_t status = real_dnnl_memory_destroy(memory);
    interop_memory_free_owned(owned);
    return status;
}

INTEROP_EXPORT dnnl_status_t dnnl_stream_wait(dnnl_stream_t stream)
{
    interop_stream_t *record = interop_stream_find(stream);
    if (record)
        interop_stream_wait(record);
    return real_dnnl_stream_wait(stream);
}

INTEROP_EXPORT dnnl_status_t dnnl_stream_destroy(dnnl_stream_t stream)
{
    interop_stream_forget(stream);
    return real_dnnl_stream_destroy(stream);
}

INTEROP_EXPORT dnnl_status_t dnnl_stream_create(dnnl_stream_t *stream, dnnl_engine_t engine,
                                                unsigned flags)
{
    interop_engine_t *record = interop_engine_find(engine);
    if (record && record->backend == INTEROP_BACKEND_HOST)
        return interop_stream_create_owning_list(stream, record, flags);
    return real_dnnl_stream_create(stream, engine, flags);
}

INTEROP_EXPORT dnnl_status_t dnnl_primitive_execute(const_dnnl_primitive_t primitive,
                                                    dnnl_stream_t stream, int nargs,
                                                    const dnnl_exec_arg_t *args)
{
    interop_stream_t *record = interop_stream_find(stream);
    if (record && record->engine->backend == INTEROP_BACKEND_HOST)
        return interop_execute_plain(primitive, record, nargs, args);
    return real_dnnl_primitive_execute(primitive, stream, nargs, args);
}

INTEROP_EXPORT dnnl_status_t dnnl_memory_create(dnnl_memory_t *memory,
                                                dnnl_ze_interop_memory_desc_t memory_desc,
                                                dnnl_engine_t engine, void *handle)
{
    interop_engine_t *record = interop_engine_find(engine);
    if (record && record->backend == INTEROP_BACKEND_HOST)
        return interop_memory_create_plain(memory, memory_desc, record, handle);
    return real_dnnl_memory_create(memory, memory_desc, engine, handle);
}

INTEROP_EXPORT ze_result_t ZE_APICALL zeEventHostSynchronize(ze_event_handle_t hEvent,
                                                             uint64_t timeout)
{
    event_ring_check_reuse("zeEventHostSynchronize", "hEvent", 0, 1, &hEvent);
    return real_zeEventHostSynchronize(hEvent, timeout);
}

/* oneDNN's Level Zero engines are GPU engines. Only this query says so:
 * inside oneDNN 2.6 the engine stays the CPU engine it is (see README,
 * differences from oneDNN). */
INTEROP_EXPORT dnnl_status_t dnnl_engine_get_kind(dnnl_engine_t engine, dnnl_engine_kind_t *kind)
{
    if (engine && kind && interop_engine_find(engine)) {
        *kind = dnnl_gpu;
        return dnnl_success;
    }
    return real_dnnl_engine_get_kind(engine, kind);
}

INTEROP_EXPORT dnnl_status_t dnnl_engine_destroy(dnnl_engine_t engine)
{
    interop_engine_forget(engine);
    return real_dnnl_engine_destroy(engine);
}
