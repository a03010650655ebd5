/*
 * The interop out-of-memory suite's workload, run in a child process: every
 * interop API function on the host backend (engine, stream, memory over
 * user USM and owned USM, executes with a dependency, the getters, the cache
 * blob and an engine from it), then everything destroyed. It runs outside
 * check's test context and asserts nothing; it prints:
 *   "CALL FIRST FINAL"  for each interop call: the status of the first try
 *                       and of the last (a call that returned
 *                       dnnl_out_of_memory is tried again, at most 3 times)
 *   "fail WHAT VALUE"   for anything else that went wrong (never expected)
 *   "values ok"         when the ReLU results are right
 *   "live N"            Level Zero objects and USM allocations zeil still
 *                       sees after the teardown (0: nothing leaked)
 *   "errors N"          error-rule findings of zeil and the interop library
 *   "faults SEEN FAILED" the fault-injecting allocator's counts
 */
#include "interop_oom_workload.h"

#include "fault_alloc.h"

#include <zeil/dnnl_ze.h>
#include <zeil/zeil.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* oneDNN has no nhandles == 0: DNNL_MEMORY_ALLOCATE asks for a buffer. */
static void *allocate = DNNL_MEMORY_ALLOCATE;

#define TRY(call) \
    do { \
        dnnl_status_t first_ = (call), last_ = first_; \
        for (int tries_ = 0; last_ == dnnl_out_of_memory && tries_ < 3; tries_++) \
            last_ = (call); \
        printf("%.*s %d %d\n", (int)strcspn(#call, "("), #call, (int)first_, (int)last_); \
    } while (0)

#define ZE(call) \
    do { \
        ze_result_t r_ = (call); \
        if (r_ != ZE_RESULT_SUCCESS) \
            printf("fail %.*s 0x%x\n", (int)strcspn(#call, "("), #call, (unsigned)r_); \
    } while (0)

#define DNNL(call) \
    do { \
        dnnl_status_t s_ = (call); \
        if (s_ != dnnl_success) \
            printf("fail %.*s %d\n", (int)strcspn(#call, "("), #call, (int)s_); \
    } while (0)

#define ELEMENTS (16 * 8 * 8)

typedef struct level_zero {
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t context;
    ze_command_list_handle_t list;
    ze_event_pool_handle_t pool;
    ze_event_handle_t ready;
    float *src;
} level_zero_t;

static void open_level_zero(level_zero_t *z)
{
    ZE(zeInit(0));
    uint32_t n = 1;
    ZE(zeDriverGet(&n, &z->driver));
    n = 1;
    ZE(zeDeviceGet(z->driver, &n, &z->device));
    ze_context_desc_t context_desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ZE(zeContextCreate(z->driver, &context_desc, &z->context));
    ze_command_queue_desc_t list_desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                         NULL,
                                         0,
                                         0,
                                         ZE_BIT(1) /* in order */,
                                         ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                         ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ZE(zeCommandListCreateImmediate(z->context, z->device, &list_desc, &z->list));
    ze_event_pool_desc_t pool_desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                      ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    ZE(zeEventPoolCreate(z->context, &pool_desc, 1, &z->device, &z->pool));
    ze_event_desc_t event_desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                                  ZE_EVENT_SCOPE_FLAG_HOST};
    ZE(zeEventCreate(z->pool, &event_desc, &z->ready));
    ZE(zeEventHostSignal(z->ready));
    ze_device_mem_alloc_desc_t device_desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    ze_host_mem_alloc_desc_t host_desc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
    ZE(zeMemAllocShared(z->context, &device_desc, &host_desc, ELEMENTS * sizeof(float), 64,
                        z->device, (void **)&z->src));
    for (int i = 0; z->src && i < ELEMENTS; i++)
        z->src[i] = (float)(i % 17) - 8.0f;
}

static void close_level_zero(level_zero_t *z)
{
    ZE(zeMemFree(z->context, z->src));
    ZE(zeEventDestroy(z->ready));
    ZE(zeEventPoolDestroy(z->pool));
    ZE(zeCommandListDestroy(z->list));
    ZE(zeContextDestroy(z->context));
}

static dnnl_primitive_t relu_on(dnnl_engine_t engine, const dnnl_memory_desc_t *md)
{
    dnnl_eltwise_desc_t desc;
    dnnl_primitive_desc_t pd = NULL;
    dnnl_primitive_t relu = NULL;
    DNNL(dnnl_eltwise_forward_desc_init(&desc, dnnl_forward_inference, dnnl_eltwise_relu, md, 0.f,
                                        0.f));
    DNNL(dnnl_primitive_desc_create(&pd, &desc, NULL, engine, NULL));
    DNNL(dnnl_primitive_create(&relu, pd));
    DNNL(dnnl_primitive_desc_destroy(pd));
    return relu;
}

/* An engine made again from the first one's cache blob. */
static void engine_from_blob(level_zero_t *z, dnnl_engine_t engine)
{
    size_t size = 0;
    TRY(dnnl_ze_interop_engine_get_cache_blob(engine, &size, NULL));
    uint8_t *blob = malloc(size ? size : 1);
    TRY(dnnl_ze_interop_engine_get_cache_blob(engine, &size, blob));
    dnnl_engine_t again = NULL;
    TRY(dnnl_ze_interop_engine_create_from_cache_blob(&again, z->driver, z->device, z->context,
                                                      size, blob));
    DNNL(dnnl_engine_destroy(again));
    free(blob);
}

static void getters(dnnl_engine_t engine, dnnl_stream_t stream)
{
    ze_context_handle_t context;
    ze_device_handle_t device;
    ze_driver_handle_t driver;
    ze_command_list_handle_t list;
    TRY(dnnl_ze_interop_engine_get_context(engine, &context));
    TRY(dnnl_ze_interop_engine_get_device(engine, &device));
    TRY(dnnl_ze_interop_engine_get_driver(engine, &driver));
    TRY(dnnl_ze_interop_stream_get_list(stream, &list));
}

static void relu_runs(level_zero_t *z, dnnl_engine_t engine, dnnl_stream_t stream)
{
    const dnnl_dims_t dims = {1, 16, 8, 8};
    dnnl_memory_desc_t md;
    DNNL(dnnl_memory_desc_init_by_tag(&md, 4, dims, dnnl_f32, dnnl_nchw));
    dnnl_primitive_t relu = relu_on(engine, &md);
    dnnl_memory_t src = NULL, dst = NULL;
    void *user = z->src;
    TRY(dnnl_ze_interop_memory_create(&src, &md, engine, 1, &user));
    TRY(dnnl_ze_interop_memory_create(&dst, &md, engine, 1, &allocate)); /* owned USM */
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
    for (int i = 0; i < 4; i++) {
        ze_event_handle_t done = NULL;
        TRY(dnnl_ze_interop_primitive_execute(relu, stream, 2, args, i % 2, &z->ready, &done));
        if (done)
            ZE(zeEventHostSynchronize(done, UINT64_MAX));
    }
    float *out = NULL;
    DNNL(dnnl_memory_get_data_handle(dst, (void **)&out));
    int ok = out && z->src;
    for (int i = 0; ok && i < ELEMENTS; i++)
        ok = out[i] == (z->src[i] > 0 ? z->src[i] : 0.0f);
    printf("values %s\n", ok ? "ok" : "wrong");
    DNNL(dnnl_memory_destroy(src));
    DNNL(dnnl_memory_destroy(dst));
    DNNL(dnnl_primitive_destroy(relu));
}

int interop_oom_workload_run(void)
{
    level_zero_t z;
    memset(&z, 0, sizeof z);
    open_level_zero(&z);
    dnnl_engine_t engine = NULL;
    dnnl_stream_t stream = NULL;
    TRY(dnnl_ze_interop_engine_create(&engine, z.driver, z.device, z.context));
    TRY(dnnl_ze_interop_stream_create(&stream, engine, z.list, 0));
    relu_runs(&z, engine, stream);
    getters(engine, stream);
    engine_from_blob(&z, engine);
    DNNL(dnnl_stream_destroy(stream));
    DNNL(dnnl_engine_destroy(engine));
    close_level_zero(&z);
    zeil_live_counts_t live;
    zeil_get_live_counts(&live);
    uint64_t left = live.allocations;
    for (int k = ZEIL_KIND_CONTEXT; k < ZEIL_KIND_COUNT; k++)
        left += live.handles[k];
    printf("live %llu\n", (unsigned long long)left);
    printf("errors %llu\n", (unsigned long long)zeil_error_count());
    fault_alloc_counts_t faults = fault_alloc_counts();
    printf("faults %llu %llu\n", (unsigned long long)faults.seen,
           (unsigned long long)faults.failed);
    return 0;
}
