/* The out-of-memory suite's workload (see oom_workload.h). It runs outside
 * check's test context, so it asserts nothing: it prints what happened. */
#include "oom_workload.h"

#include "fault_alloc.h"
#include "test_kernels.h"

#include <level_zero/ze_api.h>
#include <zeil/zeil.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 24
#define ELEMENTS 256u
#define GROUP 64u
#define EVENTS 8u

static unsigned step;

/* Prints "STEP CALL RESULT EXPECTED": CALL is the call's text up to '('. */
static ze_result_t record(const char *text, ze_result_t result, ze_result_t expected)
{
    int name_len = (int)strcspn(text, "(");
    printf("%u %.*s 0x%x 0x%x\n", ++step, name_len, text, (unsigned)result, (unsigned)expected);
    return result;
}

#define R(call) record(#call, (call), ZE_RESULT_SUCCESS)
#define R_EXPECT(expected, call) record(#call, (call), (expected))

typedef struct objects {
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t context;
    ze_module_handle_t module;
    ze_kernel_handle_t add;
    ze_event_pool_handle_t pool, misuse_pool;
    ze_event_handle_t event[EVENTS], doomed;
    ze_command_list_handle_t list, regular, spare_list;
    ze_kernel_handle_t spare_kernel;
    int reused_list, reused_kernel; /* the driver gave the spares' values again */
    ze_command_queue_handle_t queue;
    ze_fence_handle_t fence;
} objects_t;

static void *read_kernels(size_t *size)
{
    const char *path = getenv("ZEIL_TEST_KERNELS");
    FILE *f = path ? fopen(path, "rb") : NULL;
    void *bytes = NULL;
    long len = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
        bytes = malloc((size_t)len);
        if (bytes && fread(bytes, 1, (size_t)len, f) != (size_t)len) {
            free(bytes);
            bytes = NULL;
        }
    }
    if (f)
        fclose(f);
    *size = bytes ? (size_t)len : 0;
    return bytes;
}

static ze_event_pool_handle_t event_pool(objects_t *o, uint32_t count)
{
    ze_event_pool_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                 ZE_EVENT_POOL_FLAG_HOST_VISIBLE, count};
    ze_event_pool_handle_t pool = NULL;
    R(zeEventPoolCreate(o->context, &desc, 1, &o->device, &pool));
    return pool;
}

static ze_event_handle_t event(ze_event_pool_handle_t pool, uint32_t index)
{
    ze_event_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, index, ZE_EVENT_SCOPE_FLAG_HOST,
                            ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t e = NULL;
    R(zeEventCreate(pool, &desc, &e));
    return e;
}

static ze_command_list_handle_t immediate_list(objects_t *o)
{
    ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                    NULL,
                                    0,
                                    0,
                                    ZE_BIT(1) /* in order */,
                                    ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                    ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t list = NULL;
    R(zeCommandListCreateImmediate(o->context, o->device, &desc, &list));
    return list;
}

static ze_kernel_handle_t kernel(objects_t *o, const char *name)
{
    ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, name};
    ze_kernel_handle_t k = NULL;
    R(zeKernelCreate(o->module, &desc, &k));
    return k;
}

static void set_up(objects_t *o)
{
    R(zeInit(0));
    uint32_t n = 0;
    R(zeDriverGet(&n, NULL));
    n = 1;
    R(zeDriverGet(&n, &o->driver));
    n = 1;
    R(zeDeviceGet(o->driver, &n, &o->device));
    ze_context_desc_t context_desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    R(zeContextCreate(o->driver, &context_desc, &o->context));
    size_t size = 0;
    void *bytes = read_kernels(&size);
    ze_module_desc_t module_desc = {
        ZE_STRUCTURE_TYPE_MODULE_DESC, NULL, ZE_MODULE_FORMAT_NATIVE, size, bytes, NULL, NULL};
    R(zeModuleCreate(o->context, o->device, &module_desc, &o->module, NULL));
    free(bytes);
    o->add = kernel(o, TK_VECTOR_ADD);
    R(zeKernelSetGroupSize(o->add, GROUP, 1, 1));
    o->pool = event_pool(o, EVENTS);
    for (uint32_t i = 0; i < EVENTS; i++)
        o->event[i] = event(o->pool, i);
    o->misuse_pool = event_pool(o, 1);
    o->doomed = event(o->misuse_pool, 0);
    o->list = immediate_list(o);
    o->spare_list = immediate_list(o);
    o->spare_kernel = kernel(o, TK_STAMP);
    ze_command_list_desc_t list_desc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0, 0};
    R(zeCommandListCreate(o->context, o->device, &list_desc, &o->regular));
    ze_command_queue_desc_t queue_desc = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    R(zeCommandQueueCreate(o->context, o->device, &queue_desc, &o->queue));
    ze_fence_desc_t fence_desc = {ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, 0};
    R(zeFenceCreate(o->queue, &fence_desc, &o->fence));
}

/* The misuse zeil must still refuse with its memory gone: the event was
 * registered before, its destruction needs no memory, so zeil knows it was
 * destroyed (and the driver never sees the dangling handle). */
static void misuse_destroyed_event(objects_t *o)
{
    R(zeEventDestroy(o->doomed));
    R_EXPECT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeEventHostSignal(o->doomed));
}

/* Objects zeil registered, destroyed, and made again: the driver (glibc's
 * allocator behind it) hands out the same values, which a zeil out of memory
 * fails to register; the new objects must work, not be taken for the
 * destroyed ones. */
static void reuse_destroyed_values(objects_t *o)
{
    R(zeCommandListDestroy(o->spare_list));
    ze_command_list_handle_t list = immediate_list(o);
    o->reused_list = list == o->spare_list;
    R(zeCommandListAppendBarrier(list, NULL, 0, NULL));
    R(zeCommandListDestroy(list));
    R(zeKernelDestroy(o->spare_kernel));
    ze_kernel_handle_t k = kernel(o, TK_STAMP);
    o->reused_kernel = k == o->spare_kernel;
    R(zeKernelSetGroupSize(k, 1, 1, 1));
    R(zeKernelDestroy(k));
}

static void *usm(objects_t *o, ze_memory_type_t type, size_t size)
{
    ze_device_mem_alloc_desc_t device_desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    ze_host_mem_alloc_desc_t host_desc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
    void *ptr = NULL;
    if (type == ZE_MEMORY_TYPE_HOST)
        R(zeMemAllocHost(o->context, &host_desc, size, 64, &ptr));
    else if (type == ZE_MEMORY_TYPE_DEVICE)
        R(zeMemAllocDevice(o->context, &device_desc, size, 64, o->device, &ptr));
    else
        R(zeMemAllocShared(o->context, &device_desc, &host_desc, size, 64, o->device, &ptr));
    return ptr;
}

/* Objects made and destroyed again: the driver reuses their handle values. */
static void churn(objects_t *o)
{
    ze_event_pool_handle_t pool = event_pool(o, 2);
    ze_event_handle_t e = event(pool, 1);
    R(zeEventHostSignal(e));
    R(zeEventHostSynchronize(e, UINT64_MAX));
    R(zeEventDestroy(e));
    R(zeEventPoolDestroy(pool));
    ze_command_list_handle_t list = immediate_list(o);
    R(zeCommandListAppendBarrier(list, NULL, 0, NULL));
    R(zeCommandListDestroy(list));
    ze_kernel_handle_t k = kernel(o, TK_STAMP);
    R(zeKernelDestroy(k));
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t context = NULL;
    R(zeContextCreate(o->driver, &desc, &context));
    R(zeContextDestroy(context));
}

/* One round: e = a + b through a copy, a launch and a regular list. */
static double round_sum(objects_t *o, int round)
{
    size_t bytes = ELEMENTS * sizeof(float);
    float *a = usm(o, ZE_MEMORY_TYPE_SHARED, bytes), *b = usm(o, ZE_MEMORY_TYPE_HOST, bytes);
    float *c = usm(o, ZE_MEMORY_TYPE_DEVICE, bytes), *d = usm(o, ZE_MEMORY_TYPE_SHARED, bytes);
    float *e = usm(o, ZE_MEMORY_TYPE_HOST, bytes);
    if (!a || !b || !c || !d || !e)
        return -1;
    for (uint32_t i = 0; i < ELEMENTS; i++) {
        a[i] = (float)(round + (int)i);
        b[i] = (float)(2 * i);
    }
    ze_event_handle_t done = o->event[round % EVENTS];
    float zero = 0;
    uint64_t n = ELEMENTS;
    ze_group_count_t groups = {ELEMENTS / GROUP, 1, 1};
    R(zeCommandListAppendMemoryFill(o->list, e, &zero, sizeof zero, bytes, NULL, 0, NULL));
    R(zeCommandListAppendMemoryCopy(o->list, c, a, bytes, NULL, 0, NULL));
    R(zeCommandListAppendBarrier(o->list, NULL, 0, NULL));
    R(zeKernelSetArgumentValue(o->add, 0, sizeof c, &c));
    R(zeKernelSetArgumentValue(o->add, 1, sizeof b, &b));
    R(zeKernelSetArgumentValue(o->add, 2, sizeof d, &d));
    R(zeKernelSetArgumentValue(o->add, 3, sizeof n, &n));
    R(zeCommandListAppendLaunchKernel(o->list, o->add, &groups, done, 0, NULL));
    R(zeEventHostSynchronize(done, UINT64_MAX));
    R(zeCommandListReset(o->regular));
    R(zeCommandListAppendMemoryCopy(o->regular, e, d, bytes, NULL, 0, NULL));
    R(zeCommandListClose(o->regular));
    R(zeCommandQueueExecuteCommandLists(o->queue, 1, &o->regular, o->fence));
    R(zeFenceHostSynchronize(o->fence, UINT64_MAX));
    R(zeFenceReset(o->fence));
    R(zeEventHostReset(done));
    R_EXPECT(ZE_RESULT_NOT_READY, zeEventQueryStatus(done));
    double sum = 0;
    for (uint32_t i = 0; i < ELEMENTS; i++)
        sum += e[i];
    void *all[] = {a, b, c, d, e};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        R(zeMemFree(o->context, all[i]));
    return sum;
}

static void tear_down(objects_t *o)
{
    R(zeFenceDestroy(o->fence));
    R(zeCommandQueueDestroy(o->queue));
    R(zeCommandListDestroy(o->regular));
    R(zeCommandListDestroy(o->list));
    for (uint32_t i = 0; i < EVENTS; i++)
        R(zeEventDestroy(o->event[i]));
    R(zeEventPoolDestroy(o->pool));
    R(zeEventPoolDestroy(o->misuse_pool));
    R(zeKernelDestroy(o->add));
    R(zeModuleDestroy(o->module));
    R(zeContextDestroy(o->context));
}

int oom_workload_run(int midway)
{
    objects_t o;
    memset(&o, 0, sizeof o);
    set_up(&o);
    if (midway) {
        fault_alloc_fail_from_now();
        misuse_destroyed_event(&o);
    } else {
        R(zeEventDestroy(o.doomed));
    }
    reuse_destroyed_values(&o);
    double checksum = 0;
    for (int round = 0; round < ROUNDS; round++) {
        checksum += round_sum(&o, round);
        if (round % 4 == 3)
            churn(&o);
    }
    tear_down(&o);
    printf("checksum %.1f\n", checksum);
    zeil_dropped_counts_t dropped;
    zeil_get_dropped_counts(&dropped);
    printf("dropped %llu %llu %llu %llu %llu\n", (unsigned long long)dropped.objects,
           (unsigned long long)dropped.allocations, (unsigned long long)dropped.records,
           (unsigned long long)dropped.other, (unsigned long long)dropped.unchecked);
    fault_alloc_counts_t faults = fault_alloc_counts();
    printf("faults %llu %llu\n", (unsigned long long)faults.seen,
           (unsigned long long)faults.failed);
    printf("reused %d %d\n", o.reused_list, o.reused_kernel);
    return 0;
}
