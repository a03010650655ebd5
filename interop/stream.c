/* Interop streams: one oneDNN CPU stream per in-order immediate command list. */
#include "stream.h"

#include <stdint.h>
#include <stdlib.h>
#include <zeil/zeil.h>

#include "checks.h"
#include "export.h"
#include "forward.h"
#include "handle_map.h"
#include "real_dnnl.h"
#include "kernel/launch_abi.h"
#include "rules.h"

#ifndef ZE_COMMAND_QUEUE_FLAG_IN_ORDER
#define ZE_COMMAND_QUEUE_FLAG_IN_ORDER ZE_BIT(1)
#endif

static handle_map_t streams = HANDLE_MAP_INIT;

interop_stream_t *interop_stream_find(const_dnnl_stream_t stream)
{
    return stream ? handle_map_get(&streams, stream) : NULL;
}

interop_stream_t *interop_stream_require(const char *call, const_dnnl_stream_t stream)
{
    return check_interop_handle(call, &streams, stream, "stream", INTEROP_RULE_E115,
                                "dnnl_ze_interop_stream_create");
}

static void free_record(interop_stream_t *record)
{
    if (record->engine->backend == INTEROP_BACKEND_HOST) {
        event_ring_destroy(&record->events); /* waits for every launch */
        packet_ring_destroy(&record->ring);
        if (record->wait_event) {
            real_zeEventHostSynchronize(record->wait_event, UINT64_MAX);
            zeEventDestroy(record->wait_event);
        }
        if (record->wait_pool)
            zeEventPoolDestroy(record->wait_pool);
        if (record->kernel)
            zeKernelDestroy(record->kernel);
        if (record->worker)
            real_dnnl_stream_destroy(record->worker);
        pthread_mutex_destroy(&record->lock);
    }
    /* Its own list goes last: waiting for the launches above needed it. */
    if (record->owns_list)
        zeCommandListDestroy(record->list);
    interop_engine_release(record->engine);
    free(record);
}

static dnnl_status_t setup_host(const char *call, interop_stream_t *record)
{
    interop_engine_t *engine = record->engine;
    dnnl_status_t status =
        real_dnnl_stream_create(&record->stream, engine->engine, dnnl_stream_default_flags);
    if (status == dnnl_success)
        status = real_dnnl_stream_create(&record->worker, engine->engine, dnnl_stream_in_order);
    if (status != dnnl_success)
        return status;
    ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, ZEIL_INTEROP_KERNEL_NAME};
    ze_result_t result = zeKernelCreate(engine->module, &desc, &record->kernel);
    if (result == ZE_RESULT_SUCCESS)
        result = zeKernelSetGroupSize(record->kernel, 1, 1, 1);
    if (result != ZE_RESULT_SUCCESS) {
        interop_report(INTEROP_RULE_E107, call, "creating the stream's kernel object returned 0x%x",
                       (unsigned)result);
        return dnnl_runtime_error;
    }
    packet_ring_init(&record->ring);
    event_ring_init(&record->events, engine->context, engine->device, record->profiling,
                    record->stream);
    return dnnl_success;
}

/* The record of a new stream on list (owned when owns_list), published. */
static dnnl_status_t register_stream(const char *call, dnnl_stream_t *stream,
                                     interop_engine_t *owner, dnnl_engine_t engine,
                                     ze_command_list_handle_t list, int profiling, int owns_list)
{
    interop_stream_t *record = calloc(1, sizeof *record);
    if (!record) {
        if (owns_list)
            zeCommandListDestroy(list);
        return dnnl_out_of_memory;
    }
    interop_engine_retain(owner);
    record->engine = owner;
    record->list = list;
    record->owns_list = owns_list;
    record->profiling = profiling != 0;
    dnnl_status_t status;
    if (owner->backend == INTEROP_BACKEND_FORWARD) {
        status = forward_table()->stream_create(&record->stream, engine, list, profiling);
        if (status != dnnl_success)
            interop_report(INTEROP_RULE_E152, call, "forwarded call returned %d", (int)status);
    } else {
        pthread_mutex_init(&record->lock, NULL);
        status = setup_host(call, record);
    }
    if (status == dnnl_success && handle_map_put(&streams, record->stream, record) != 0)
        status = dnnl_out_of_memory;
    if (status != dnnl_success) {
        if (record->stream)
            real_dnnl_stream_destroy(record->stream);
        free_record(record);
        return status;
    }
    /* Submissions on the list are reported under this stream from now on. */
    zeil_bind_list_to_stream((ze_command_list_handle_t)below_loader(ZEL_HANDLE_COMMAND_LIST, list),
                             (uint64_t)(uintptr_t)record->stream, NULL);
    *stream = record->stream;
    return dnnl_success;
}

INTEROP_EXPORT dnnl_status_t dnnl_ze_interop_stream_create(dnnl_stream_t *stream,
                                                           dnnl_engine_t engine,
                                                           ze_command_list_handle_t list,
                                                           int profiling)
{
    const char *call = "dnnl_ze_interop_stream_create";
    if (check_not_null(call, stream, "stream output"))
        return dnnl_invalid_arguments;
    interop_engine_t *owner = interop_engine_require(call, engine);
    if (!owner)
        return dnnl_invalid_arguments;
    int forward = owner->backend == INTEROP_BACKEND_FORWARD;
    dnnl_status_t status = check_engine_objects_alive(call, owner->device, owner->context);
    if (status == dnnl_success)
        status = check_stream_list(call, list, owner->context, owner->device, forward);
    if (status != dnnl_success)
        return status;
    return register_stream(call, stream, owner, engine, list, profiling, 0);
}

dnnl_status_t interop_stream_create_owning_list(dnnl_stream_t *stream, interop_engine_t *engine,
                                                unsigned flags)
{
    const char *call = "dnnl_stream_create";
    (void)flags; /* oneDNN's Level Zero streams are in order whatever the flags say */
    if (check_not_null(call, stream, "stream output"))
        return dnnl_invalid_arguments;
    dnnl_status_t status = check_engine_objects_alive(call, engine->device, engine->context);
    if (status != dnnl_success)
        return status;
    /* As oneDNN: the first queue group, queue 0, in order. */
    ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                    NULL,
                                    0,
                                    0,
                                    ZE_COMMAND_QUEUE_FLAG_IN_ORDER,
                                    ZE_COMMAND_QUEUE_MODE_DEFAULT,
                                    ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t list = NULL;
    ze_result_t result =
        zeCommandListCreateImmediate(engine->context, engine->device, &desc, &list);
    if (result != ZE_RESULT_SUCCESS) {
        interop_report(INTEROP_RULE_E107, call,
                       "zeCommandListCreateImmediate for the stream's own list returned 0x%x",
                       (unsigned)result);
        return result == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY ? dnnl_out_of_memory
                                                            : dnnl_runtime_error;
    }
    return register_stream(call, stream, engine, engine->engine, list, 0, 1);
}

INTEROP_EXPORT dnnl_status_t dnnl_ze_interop_stream_get_list(dnnl_stream_t stream,
                                                             ze_command_list_handle_t *list)
{
    const char *call = "dnnl_ze_interop_stream_get_list";
    interop_stream_t *record = interop_stream_require(call, stream);
    if (!record || check_not_null(call, list, "list output"))
        return dnnl_invalid_arguments;
    dnnl_status_t status = check_list_alive(call, record->list);
    if (status != dnnl_success)
        return status;
    if (record->engine->backend == INTEROP_BACKEND_FORWARD)
        return forward_table()->stream_get_list(stream, list);
    *list = record->list;
    return dnnl_success;
}

/* The event a stream's waits signal with a barrier, created on first use. */
static ze_event_handle_t wait_event(interop_stream_t *record)
{
    if (record->wait_event)
        return record->wait_event;
    ze_event_pool_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                 ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    ze_device_handle_t device = record->engine->device;
    if (zeEventPoolCreate(record->engine->context, &desc, 1, &device, &record->wait_pool) !=
        ZE_RESULT_SUCCESS) {
        record->wait_pool = NULL;
        return NULL;
    }
    ze_event_desc_t event_desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                                  ZE_EVENT_SCOPE_FLAG_HOST};
    if (zeEventCreate(record->wait_pool, &event_desc, &record->wait_event) != ZE_RESULT_SUCCESS)
        record->wait_event = NULL;
    return record->wait_event;
}

void interop_stream_wait(interop_stream_t *record)
{
    if (record->engine->backend != INTEROP_BACKEND_HOST)
        return;
    /* As oneDNN's (zeCommandListHostSynchronize): everything on the list,
     * the user's own appends too. API 1.4 has no list synchronize: a barrier
     * that signals the stream's wait event, behind all of it. Under the lock
     * so no execute reuses an event while we wait. */
    pthread_mutex_lock(&record->lock);
    ze_event_handle_t event = wait_event(record);
    if (event && zeEventHostReset(event) == ZE_RESULT_SUCCESS &&
        zeCommandListAppendBarrier(record->list, event, 0, NULL) == ZE_RESULT_SUCCESS) {
        real_zeEventHostSynchronize(event, UINT64_MAX);
    } else {
        ze_event_handle_t newest = packet_ring_newest_event(&record->ring);
        if (newest) /* at least every execute (a list not in order: W113) */
            real_zeEventHostSynchronize(newest, UINT64_MAX);
    }
    pthread_mutex_unlock(&record->lock);
}

void interop_stream_forget(dnnl_stream_t stream)
{
    interop_stream_t *record = handle_map_take(&streams, stream);
    if (!record)
        return;
    zeil_unbind_stream((uint64_t)(uintptr_t)stream);
    free_record(record);
}
