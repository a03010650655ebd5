/*
 * Every object kind created and destroyed from many threads at once, with
 * work submitted between: each round a thread makes a context of its own
 * (or, every other round, uses the shared one), and in it an immediate list,
 * a queue with a regular list and a fence, an event pool and events, a
 * module and kernels, USM of every kind; it launches a kernel, copies and
 * fills, executes the regular list, checks the results, and destroys it
 * all. The driver hands each freed handle and address to the next creation
 * (reuse mode), often on another thread.
 */
#include "transparency.h"

#include "test_kernels.h"

#include <string.h>

#define ITEMS 64u

typedef struct round_objects {
    ze_context_handle_t context;
    ze_module_handle_t module;
    ze_kernel_handle_t kernel;
    ze_command_list_handle_t immediate, regular;
    ze_command_queue_handle_t queue;
    ze_fence_handle_t fence;
    ze_event_pool_handle_t pool;
    ze_event_handle_t done, copied;
    float *a, *b, *c; /* shared, host, device */
    float *result;    /* host */
} round_objects_t;

static void create_all(tp_thread_t *t, round_objects_t *o, int own_context)
{
    memset(o, 0, sizeof *o);
    o->context = t->context;
    if (own_context) {
        ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
        TP_CALL(t, zeContextCreate(t->driver, &desc, &o->context));
    }
    o->module = t->module;
    if (own_context) {
        ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC,
                                 NULL,
                                 ZE_MODULE_FORMAT_NATIVE,
                                 t->module_size,
                                 t->module_bytes,
                                 NULL,
                                 NULL};
        o->module = NULL;
        TP_CALL(t, zeModuleCreate(o->context, t->device, &desc, &o->module, NULL));
    }
    ze_kernel_desc_t kdesc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, TK_VECTOR_ADD};
    TP_CALL(t, zeKernelCreate(o->module, &kdesc, &o->kernel));
    ze_command_queue_desc_t qdesc = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    TP_CALL(t, zeCommandListCreateImmediate(o->context, t->device, &qdesc, &o->immediate));
    TP_CALL(t, zeCommandQueueCreate(o->context, t->device, &qdesc, &o->queue));
    ze_command_list_desc_t ldesc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0, 0};
    TP_CALL(t, zeCommandListCreate(o->context, t->device, &ldesc, &o->regular));
    ze_fence_desc_t fdesc = {ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, 0};
    TP_CALL(t, zeFenceCreate(o->queue, &fdesc, &o->fence));
    ze_event_pool_desc_t pdesc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                  ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 2};
    ze_device_handle_t device = t->device;
    TP_CALL(t, zeEventPoolCreate(o->context, &pdesc, 1, &device, &o->pool));
    ze_event_desc_t edesc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                             ZE_EVENT_SCOPE_FLAG_HOST};
    TP_CALL(t, zeEventCreate(o->pool, &edesc, &o->done));
    edesc.index = 1;
    TP_CALL(t, zeEventCreate(o->pool, &edesc, &o->copied));
    ze_device_mem_alloc_desc_t ddesc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    ze_host_mem_alloc_desc_t hdesc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
    size_t bytes = ITEMS * sizeof(float);
    TP_CALL(t, zeMemAllocShared(o->context, &ddesc, &hdesc, bytes, 64, t->device, (void **)&o->a));
    TP_CALL(t, zeMemAllocHost(o->context, &hdesc, bytes, 64, (void **)&o->b));
    TP_CALL(t, zeMemAllocDevice(o->context, &ddesc, bytes, 64, t->device, (void **)&o->c));
    TP_CALL(t, zeMemAllocHost(o->context, &hdesc, bytes, 64, (void **)&o->result));
}

static void destroy_all(tp_thread_t *t, round_objects_t *o, int own_context)
{
    void *usm[] = {o->a, o->b, o->c, o->result};
    for (size_t i = 0; i < sizeof usm / sizeof usm[0]; i++)
        if (usm[i])
            TP_CALL(t, zeMemFree(o->context, usm[i]));
    if (o->done)
        TP_CALL(t, zeEventDestroy(o->done));
    if (o->copied)
        TP_CALL(t, zeEventDestroy(o->copied));
    if (o->pool)
        TP_CALL(t, zeEventPoolDestroy(o->pool));
    if (o->fence)
        TP_CALL(t, zeFenceDestroy(o->fence));
    if (o->regular)
        TP_CALL(t, zeCommandListDestroy(o->regular));
    if (o->queue)
        TP_CALL(t, zeCommandQueueDestroy(o->queue));
    if (o->immediate)
        TP_CALL(t, zeCommandListDestroy(o->immediate));
    if (o->kernel)
        TP_CALL(t, zeKernelDestroy(o->kernel));
    if (own_context && o->module)
        TP_CALL(t, zeModuleDestroy(o->module));
    if (own_context && o->context)
        TP_CALL(t, zeContextDestroy(o->context));
}

/* c = a + b on the immediate list, then c copied to result on the regular
 * list executed on the queue; each step waited for. */
static void submit_and_check(tp_thread_t *t, round_objects_t *o, uint32_t round)
{
    for (uint32_t i = 0; i < ITEMS; i++) {
        o->a[i] = (float)(i + round);
        o->b[i] = (float)t->index;
    }
    uint64_t n = ITEMS;
    TP_CALL(t, zeKernelSetArgumentValue(o->kernel, 0, sizeof o->a, &o->a));
    TP_CALL(t, zeKernelSetArgumentValue(o->kernel, 1, sizeof o->b, &o->b));
    TP_CALL(t, zeKernelSetArgumentValue(o->kernel, 2, sizeof o->c, &o->c));
    TP_CALL(t, zeKernelSetArgumentValue(o->kernel, 3, sizeof n, &n));
    TP_CALL(t, zeKernelSetGroupSize(o->kernel, 16, 1, 1));
    ze_group_count_t groups = {ITEMS / 16, 1, 1};
    TP_CALL(t, zeCommandListAppendLaunchKernel(o->immediate, o->kernel, &groups, o->done, 0, NULL));
    TP_CALL(t, zeEventHostSynchronize(o->done, UINT64_MAX));
    uint8_t zero = 0;
    TP_CALL(t, zeCommandListAppendMemoryFill(o->regular, o->result, &zero, 1, ITEMS * sizeof(float),
                                             NULL, 0, NULL));
    TP_CALL(t, zeCommandListAppendBarrier(o->regular, NULL, 0, NULL));
    TP_CALL(t, zeCommandListAppendMemoryCopy(o->regular, o->result, o->c, ITEMS * sizeof(float),
                                             o->copied, 0, NULL));
    TP_CALL(t, zeCommandListClose(o->regular));
    TP_CALL(t, zeCommandQueueExecuteCommandLists(o->queue, 1, &o->regular, o->fence));
    TP_CALL(t, zeFenceHostSynchronize(o->fence, UINT64_MAX));
    TP_CALL(t, zeEventQueryStatus(o->copied));
    int right = 1;
    for (uint32_t i = 0; i < ITEMS; i++)
        right &= o->result[i] == (float)(i + round) + (float)t->index;
    tp_expect(t, __LINE__, "result = a + b", right);
}

void tp_all_kinds_workload(tp_thread_t *t)
{
    for (uint32_t round = 0; round < t->iterations; round++) {
        int own_context = (round + (uint32_t)t->index) % 2 == 0;
        round_objects_t o;
        create_all(t, &o, own_context);
        if (!t->failures)
            submit_and_check(t, &o, round);
        destroy_all(t, &o, own_context);
    }
}
