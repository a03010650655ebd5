/*
 * STAND-IN for a oneDNN with its own Level Zero runtime (none exists on these
 * machines): exports the dnnl_ze_interop_* functions behind zeil's, so the
 * forward backend has something to forward to. Engines are oneDNN CPU
 * engines; execute runs the primitive, then appends a barrier to the
 * stream's list (standing in for oneDNN's own GPU kernels) that signals the
 * returned event. Each function counts its calls (standin_calls).
 */
#include <stdint.h>
#include <string.h>
#include <zeil/dnnl_ze.h>

#define STANDIN_EXPORT __attribute__((visibility("default")))
#define STANDIN_MAX 16

static struct {
    const char *name;
    int calls;
} counters[16];

static void count(const char *name)
{
    for (int i = 0; i < 16; i++) {
        if (!counters[i].name)
            counters[i].name = name;
        if (strcmp(counters[i].name, name) == 0) {
            counters[i].calls++;
            return;
        }
    }
}

STANDIN_EXPORT int standin_calls(const char *name);
STANDIN_EXPORT int standin_calls(const char *name)
{
    for (int i = 0; i < 16 && counters[i].name; i++)
        if (strcmp(counters[i].name, name) == 0)
            return counters[i].calls;
    return 0;
}

static struct standin_engine {
    dnnl_engine_t engine;
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t context;
} engines[STANDIN_MAX];

static struct standin_stream {
    dnnl_stream_t stream;
    ze_command_list_handle_t list;
    ze_event_pool_handle_t pool;
    uint32_t next_event;
    ze_event_handle_t events[STANDIN_MAX];
} streams[STANDIN_MAX];

static struct standin_engine *find_engine(dnnl_engine_t engine)
{
    for (int i = 0; i < STANDIN_MAX; i++)
        if (engines[i].engine == engine)
            return &engines[i];
    return NULL;
}

static struct standin_stream *find_stream(dnnl_stream_t stream)
{
    for (int i = 0; i < STANDIN_MAX; i++)
        if (streams[i].stream == stream)
            return &streams[i];
    return NULL;
}

/* Called internally through a static function: the exported name resolves
 * to zeil's definition, which comes first. */
static dnnl_status_t create_engine(dnnl_engine_t *engine, ze_driver_handle_t driver,
                                   ze_device_handle_t device, ze_context_handle_t context)
{
    struct standin_engine *slot = find_engine(NULL);
    if (!slot || dnnl_engine_create(engine, dnnl_cpu, 0) != dnnl_success)
        return dnnl_runtime_error;
    *slot = (struct standin_engine){*engine, driver, device, context};
    return dnnl_success;
}

STANDIN_EXPORT dnnl_status_t dnnl_ze_interop_engine_create(dnnl_engine_t *engine,
                                                           ze_driver_handle_t driver,
                                                           ze_device_handle_t device,
                                                           ze_context_handle_t context)
{
    count("engine_create");
    return create_engine(engine, driver, device, context);
}

static const uint8_t standin_blob[] = "stand-in blob";

STANDIN_EXPORT dnnl_status_t dnnl_ze_interop_engine_create_from_cache_blob(
    dnnl_engine_t *engine, ze_driver_handle_t driver, ze_device_handle_t device,
    ze_context_handle_t context, size_t size, const uint8_t *cache_blob)
{
    count("engine_create_from_cache_blob");
    if (size != sizeof standin_blob || memcmp(cache_blob, standin_blob, size) != 0)
        return dnnl_invalid_arguments;
    count("engine_create_from_cache_blob:accepted");
    return create_engine(engine, driver, device, context);
}

STANDIN_EXPORT dnnl_status_t dnnl_ze_interop_engine_get_cache_blob_id(ze_driver_handle_t driver,
                                                                      ze_device_handle_t device,
                                                                      size_t *size, uint8_t *id)
{
    (void)driver, (void)device;
    count("engine_get_cache_blob_id");
    if (id)
        memcpy(id, "id", 2);
    *size = 2;
    return dnnl_success;
}

STANDIN_EXPORT dnnl_status_t dnnl_ze_interop_engine_get_cache_blob(dnnl_engine_t engine,
                                                                   size_t *size, uint8_t *blob)
{
    (void)engine;
    count("engine_get_cache_blob");
    if (blob)
        memcpy(blob, standin_blob, sizeof standin_blob);
    *size = sizeof standin_blob;
    return dnnl_success;
}

STANDIN_EXPORT dnnl_status_t dnnl_ze_interop_engine_get_context(dnnl_engine_t engine,
                                                                ze_context_handle_t *context)
{
    count("engine_get_context");
    struct standin_engine *e = find_engine(engine);
    if (!e)
        return dnnl_invalid_arguments;
    *context = e->context;
    return dnnl_success;
}

STANDIN_EXPORT dnnl_status_t dnnl_ze_interop_engine_get_device(dnnl_engine_t engine,
                                                               ze_device_handle_t *device)
{
    count("engine_get_device");
    struct standin_engine *e = find_engine(engine);
    if (!e)
        return dnnl_invalid_arguments;
    *device = e->device;
    return dnnl_success;
}

STANDIN_EXPORT dnnl_status_t dnnl_ze_interop_engine_get_driver(dnnl_engine_t engine,
                                                               ze_driver_handle_t *driver)
{
    count("engine_get_driver");
    struct standin_engine *e = find_engine(engine);
    if (!e)
        return dnnl_invalid_arguments;
    *driver = e->driver;
    return dnnl_success;
}

STANDIN_EXPORT dnnl_status_t dnnl_ze_interop_stream_create(dnnl_stream_t *stream,
                                                           dnnl_engine_t engine,
                                                           ze_command_list_handle_t list,
                                                           int profiling)
{
    (void)profiling;
    count("stream_create");
    struct standin_engine *e = find_engine(engine);
    struct standin_stream *slot = find_stream(NULL);
    if (!e || !slot || dnnl_stream_create(stream, engine, dnnl_stream_in_order) != dnnl_success)
        return dnnl_runtime_error;
    ze_event_pool_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                 ZE_EVENT_POOL_FLAG_HOST_VISIBLE, STANDIN_MAX};
    if (zeEventPoolCreate(e->context, &desc, 1, &e->device, &slot->pool) != ZE_RESULT_SUCCESS)
        return dnnl_runtime_error;
    slot->stream = *stream;
    slot->list = list;
    slot->next_event = 0;
    return dnnl_success;
}

STANDIN_EXPORT dnnl_status_t dnnl_ze_interop_stream_get_list(dnnl_stream_t stream,
                                                             ze_command_list_handle_t *list)
{
    count("stream_get_list");
    struct standin_stream *s = find_stream(stream);
    if (!s)
        return dnnl_invalid_arguments;
    *list = s->list;
    return dnnl_success;
}

STANDIN_EXPORT dnnl_status_t dnnl_ze_interop_memory_create(dnnl_memory_t *memory,
                                                           dnnl_ze_interop_memory_desc_t md,
                                                           dnnl_engine_t engine, int nhandles,
                                                           void **handles)
{
    count("memory_create");
    if (nhandles != 1)
        return dnnl_unimplemented;
    return dnnl_memory_create(memory, md, engine, handles[0]);
}

STANDIN_EXPORT dnnl_status_t dnnl_ze_interop_primitive_execute(
    const_dnnl_primitive_t primitive, dnnl_stream_t stream, int nargs, const dnnl_exec_arg_t *args,
    int ndeps, const ze_event_handle_t *deps, ze_event_handle_t *return_event)
{
    count("primitive_execute");
    struct standin_stream *s = find_stream(stream);
    if (!s || s->next_event == STANDIN_MAX)
        return dnnl_runtime_error;
    for (int i = 0; i < ndeps; i++)
        zeEventHostSynchronize(deps[i], UINT64_MAX);
    dnnl_status_t status = dnnl_primitive_execute(primitive, stream, nargs, args);
    if (status == dnnl_success)
        status = dnnl_stream_wait(stream);
    if (status != dnnl_success)
        return status;
    ze_event_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, s->next_event,
                            ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t event = NULL;
    if (zeEventCreate(s->pool, &desc, &event) != ZE_RESULT_SUCCESS)
        return dnnl_runtime_error;
    s->events[s->next_event++] = event;
    /* What a oneDNN GPU kernel submission would be: work on the user's list. */
    if (zeCommandListAppendBarrier(s->list, event, 0, NULL) != ZE_RESULT_SUCCESS)
        return dnnl_runtime_error;
    if (return_event)
        *return_event = event;
    return dnnl_success;
}
