/*
 * zeil_cpu_sample: a Level Zero application that knows nothing of zeil or of
 * the driver under it. It runs allocations, copies, fills, events across two
 * immediate lists, a queue with a regular list and a fence, and native
 * kernels, checks every result, and prints a short summary. Exit status 0
 * means every step passed.
 *
 * The native kernels come from a module file: argv[1], else the environment
 * variable ZEIL_TEST_KERNELS, else the path the build knows
 * (ZEIL_SAMPLE_DEFAULT_KERNELS). The module must provide "vector_add"
 * (a, b, c, n), "reduce_sum" (in, partials, n) and "spin" (microseconds,
 * finished_ns), as zeil's test kernel library does.
 */
#include <level_zero/ze_api.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef ZEIL_SAMPLE_DEFAULT_KERNELS
#define ZEIL_SAMPLE_DEFAULT_KERNELS ""
#endif

typedef struct sample {
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t context;
    ze_module_handle_t module;
    ze_event_pool_handle_t pool;
} sample_t;

static int fail(const char *step, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "zeil_cpu_sample: FAILED in %s: ", step);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}

/* Returns from the step with a message when a Level Zero call fails. */
#define ZE_CHECK(step, call) \
    do { \
        ze_result_t r_ = (call); \
        if (r_ != ZE_RESULT_SUCCESS) \
            return fail(step, "%s returned 0x%x", #call, (unsigned)r_); \
    } while (0)

static const ze_device_mem_alloc_desc_t device_desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                                       NULL, 0, 0};
static const ze_host_mem_alloc_desc_t host_desc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};

static ze_result_t immediate_list(const sample_t *s, ze_command_list_handle_t *list)
{
    ze_command_queue_desc_t desc = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    return zeCommandListCreateImmediate(s->context, s->device, &desc, list);
}

static ze_result_t event(const sample_t *s, uint32_t index, ze_event_handle_t *ev)
{
    ze_event_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, index, ZE_EVENT_SCOPE_FLAG_HOST,
                            ZE_EVENT_SCOPE_FLAG_HOST};
    return zeEventCreate(s->pool, &desc, ev);
}

static int open_sample(sample_t *s, const char *kernels_path)
{
    const char *step = "setup";
    ZE_CHECK(step, zeInit(0));
    uint32_t n = 1;
    ZE_CHECK(step, zeDriverGet(&n, &s->driver));
    n = 1;
    ZE_CHECK(step, zeDeviceGet(s->driver, &n, &s->device));
    ze_device_properties_t props = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ZE_CHECK(step, zeDeviceGetProperties(s->device, &props));
    ze_context_desc_t cdesc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ZE_CHECK(step, zeContextCreate(s->driver, &cdesc, &s->context));
    ze_event_pool_desc_t pdesc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                  ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 8};
    ZE_CHECK(step, zeEventPoolCreate(s->context, &pdesc, 1, &s->device, &s->pool));

    FILE *f = fopen(kernels_path, "rb");
    if (!f)
        return fail(step, "cannot read the kernel module %s", kernels_path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    void *bytes = size > 0 ? malloc((size_t)size) : NULL;
    size_t got = bytes ? fread(bytes, 1, (size_t)size, f) : 0;
    fclose(f);
    if (!bytes || got != (size_t)size) {
        free(bytes);
        return fail(step, "cannot read the kernel module %s", kernels_path);
    }
    ze_module_desc_t mdesc = {ZE_STRUCTURE_TYPE_MODULE_DESC,
                              NULL,
                              ZE_MODULE_FORMAT_NATIVE,
                              (size_t)size,
                              bytes,
                              NULL,
                              NULL};
    ze_result_t r = zeModuleCreate(s->context, s->device, &mdesc, &s->module, NULL);
    free(bytes);
    if (r != ZE_RESULT_SUCCESS)
        return fail(step, "zeModuleCreate(%s) returned 0x%x", kernels_path, (unsigned)r);
    printf("device: %s (%s), kernels from %s\n", props.name,
           props.type == ZE_DEVICE_TYPE_CPU ? "CPU" : "not a CPU", kernels_path);
    return 0;
}

static int step_allocations(const sample_t *s)
{
    const char *step = "allocations";
    const size_t size = 1u << 20;
    void *ptr[3] = {0};
    const ze_memory_type_t expected[3] = {ZE_MEMORY_TYPE_HOST, ZE_MEMORY_TYPE_DEVICE,
                                          ZE_MEMORY_TYPE_SHARED};
    ZE_CHECK(step, zeMemAllocHost(s->context, &host_desc, size, 4096, &ptr[0]));
    ZE_CHECK(step, zeMemAllocDevice(s->context, &device_desc, size, 4096, s->device, &ptr[1]));
    ZE_CHECK(step, zeMemAllocShared(s->context, &device_desc, &host_desc, size, 4096, s->device,
                                    &ptr[2]));
    for (int i = 0; i < 3; i++) {
        if ((uintptr_t)ptr[i] % 4096 != 0)
            return fail(step, "allocation %p is not 4096-byte aligned", ptr[i]);
        ze_memory_allocation_properties_t props = {
            .stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
        const char *inside = (const char *)ptr[i] + size / 2;
        ZE_CHECK(step, zeMemGetAllocProperties(s->context, inside, &props, NULL));
        if (props.type != expected[i])
            return fail(step, "allocation %d reports memory type %d, expected %d", i, props.type,
                        expected[i]);
        void *base = NULL;
        size_t range = 0;
        ZE_CHECK(step, zeMemGetAddressRange(s->context, inside, &base, &range));
        if (base != ptr[i] || range < size)
            return fail(step, "allocation %p reports range %p + %zu", ptr[i], base, range);
        ZE_CHECK(step, zeMemFree(s->context, ptr[i]));
    }
    printf(
        "ok  allocations: host, device and shared USM; types and ranges from interior pointers\n");
    return 0;
}

static int step_copies_and_fills(const sample_t *s)
{
    const char *step = "copies and fills";
    const size_t size = 16u << 20;
    ze_command_list_handle_t list = NULL;
    ze_event_handle_t done = NULL;
    ZE_CHECK(step, immediate_list(s, &list));
    ZE_CHECK(step, event(s, 0, &done));
    uint32_t *source = malloc(size), *result = malloc(size);
    void *device = NULL, *shared = NULL;
    if (!source || !result)
        return fail(step, "out of host memory");
    for (size_t i = 0; i < size / 4; i++)
        source[i] = (uint32_t)(i * 2654435761u);
    memset(result, 0, size);
    ZE_CHECK(step, zeMemAllocDevice(s->context, &device_desc, size, 0, s->device, &device));
    ZE_CHECK(step,
             zeMemAllocShared(s->context, &device_desc, &host_desc, size, 0, s->device, &shared));
    /* malloc -> device -> shared -> malloc, in order on one list. */
    ZE_CHECK(step, zeCommandListAppendMemoryCopy(list, device, source, size, NULL, 0, NULL));
    ZE_CHECK(step, zeCommandListAppendMemoryCopy(list, shared, device, size, NULL, 0, NULL));
    ZE_CHECK(step, zeCommandListAppendMemoryCopy(list, result, shared, size, done, 0, NULL));
    ZE_CHECK(step, zeEventHostSynchronize(done, UINT64_MAX));
    if (memcmp(source, result, size) != 0)
        return fail(step, "copied data differ from the source");

    const uint8_t pattern[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    ZE_CHECK(step, zeEventHostReset(done));
    ZE_CHECK(step, zeCommandListAppendMemoryFill(list, device, pattern, sizeof pattern, size, NULL,
                                                 0, NULL));
    ZE_CHECK(step, zeCommandListAppendMemoryCopy(list, result, device, size, done, 0, NULL));
    ZE_CHECK(step, zeEventHostSynchronize(done, UINT64_MAX));
    const uint8_t *bytes = (const uint8_t *)result;
    for (size_t i = 0; i < size; i++)
        if (bytes[i] != pattern[i % sizeof pattern])
            return fail(step, "filled byte %zu is %u, expected %u", i, bytes[i],
                        pattern[i % sizeof pattern]);

    ZE_CHECK(step, zeMemFree(s->context, device));
    ZE_CHECK(step, zeMemFree(s->context, shared));
    free(source);
    free(result);
    ZE_CHECK(step, zeEventDestroy(done));
    ZE_CHECK(step, zeCommandListDestroy(list));
    printf("ok  copies and fills: 16 MiB through malloc, device and shared memory; 16-byte pattern "
           "fill\n");
    return 0;
}

static ze_result_t kernel(const sample_t *s, const char *name, ze_kernel_handle_t *k)
{
    ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, name};
    return zeKernelCreate(s->module, &desc, k);
}

static int step_events_across_lists(const sample_t *s)
{
    const char *step = "events across lists";
    ze_command_list_handle_t producer = NULL, consumer = NULL;
    ze_event_handle_t produced = NULL, consumed = NULL;
    ze_kernel_handle_t spin = NULL;
    ZE_CHECK(step, immediate_list(s, &producer));
    ZE_CHECK(step, immediate_list(s, &consumer));
    ZE_CHECK(step, event(s, 1, &produced));
    ZE_CHECK(step, event(s, 2, &consumed));
    ZE_CHECK(step, kernel(s, "spin", &spin));
    uint64_t *finished = NULL, copy = 0;
    ZE_CHECK(step, zeMemAllocShared(s->context, &device_desc, &host_desc, sizeof *finished, 8,
                                    s->device, (void **)&finished));
    *finished = 0;
    /* The consumer waits for the producer's slow kernel, then copies what it
     * wrote; the consumer's work is appended first. */
    ZE_CHECK(step, zeCommandListAppendMemoryCopy(consumer, &copy, finished, sizeof copy, consumed,
                                                 1, &produced));
    uint64_t us = 50 * 1000;
    ZE_CHECK(step, zeKernelSetArgumentValue(spin, 0, sizeof us, &us));
    ZE_CHECK(step, zeKernelSetArgumentValue(spin, 1, sizeof finished, &finished));
    ZE_CHECK(step, zeKernelSetGroupSize(spin, 1, 1, 1));
    ze_group_count_t one = {1, 1, 1};
    ZE_CHECK(step, zeCommandListAppendLaunchKernel(producer, spin, &one, produced, 0, NULL));
    ZE_CHECK(step, zeEventHostSynchronize(consumed, UINT64_MAX));
    if (copy == 0 || copy != *finished)
        return fail(step, "the consumer copied %llu before the producer wrote %llu",
                    (unsigned long long)copy, (unsigned long long)*finished);
    ZE_CHECK(step, zeMemFree(s->context, finished));
    ZE_CHECK(step, zeKernelDestroy(spin));
    ZE_CHECK(step, zeEventDestroy(produced));
    ZE_CHECK(step, zeEventDestroy(consumed));
    ZE_CHECK(step, zeCommandListDestroy(producer));
    ZE_CHECK(step, zeCommandListDestroy(consumer));
    printf("ok  events across lists: a consumer list waited for a producer list's 50 ms kernel\n");
    return 0;
}

#define N ((1u << 20) + 3)

static int step_queue_and_kernels(const sample_t *s)
{
    const char *step = "queue, fence and kernels";
    ze_command_queue_desc_t qdesc = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_desc_t ldesc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0, 0};
    ze_fence_desc_t fdesc = {ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, 0};
    ze_command_queue_handle_t queue = NULL;
    ze_command_list_handle_t list = NULL;
    ze_fence_handle_t fence = NULL;
    ze_kernel_handle_t add = NULL, reduce = NULL;
    ZE_CHECK(step, zeCommandQueueCreate(s->context, s->device, &qdesc, &queue));
    ZE_CHECK(step, zeCommandListCreate(s->context, s->device, &ldesc, &list));
    ZE_CHECK(step, zeFenceCreate(queue, &fdesc, &fence));
    ZE_CHECK(step, kernel(s, "vector_add", &add));
    ZE_CHECK(step, kernel(s, "reduce_sum", &reduce));

    const uint32_t group = 256, groups = (N + group - 1) / group;
    float *a = NULL, *b = NULL, *c = NULL, *partials = NULL;
    ZE_CHECK(step, zeMemAllocShared(s->context, &device_desc, &host_desc, N * sizeof(float), 0,
                                    s->device, (void **)&a));
    ZE_CHECK(step, zeMemAllocDevice(s->context, &device_desc, N * sizeof(float), 0, s->device,
                                    (void **)&b));
    ZE_CHECK(step, zeMemAllocShared(s->context, &device_desc, &host_desc, N * sizeof(float), 0,
                                    s->device, (void **)&c));
    ZE_CHECK(step, zeMemAllocShared(s->context, &device_desc, &host_desc, groups * sizeof(float), 0,
                                    s->device, (void **)&partials));
    for (uint32_t i = 0; i < N; i++)
        a[i] = (float)(i % 100);
    uint64_t n = N;
    const float two = 2.0f;
    ZE_CHECK(step, zeKernelSetArgumentValue(add, 0, sizeof a, &a));
    ZE_CHECK(step, zeKernelSetArgumentValue(add, 1, sizeof b, &b));
    ZE_CHECK(step, zeKernelSetArgumentValue(add, 2, sizeof c, &c));
    ZE_CHECK(step, zeKernelSetArgumentValue(add, 3, sizeof n, &n));
    ZE_CHECK(step, zeKernelSetGroupSize(add, group, 1, 1));
    ZE_CHECK(step, zeKernelSetArgumentValue(reduce, 0, sizeof c, &c));
    ZE_CHECK(step, zeKernelSetArgumentValue(reduce, 1, sizeof partials, &partials));
    ZE_CHECK(step, zeKernelSetArgumentValue(reduce, 2, sizeof n, &n));
    ZE_CHECK(step, zeKernelSetGroupSize(reduce, group, 1, 1));
    ze_group_count_t count = {groups, 1, 1};
    /* b = 2; c = a + b; partials = per-group sums of c. */
    ZE_CHECK(step, zeCommandListAppendMemoryFill(list, b, &two, sizeof two, N * sizeof(float), NULL,
                                                 0, NULL));
    ZE_CHECK(step, zeCommandListAppendBarrier(list, NULL, 0, NULL));
    ZE_CHECK(step, zeCommandListAppendLaunchKernel(list, add, &count, NULL, 0, NULL));
    ZE_CHECK(step, zeCommandListAppendBarrier(list, NULL, 0, NULL));
    ZE_CHECK(step, zeCommandListAppendLaunchKernel(list, reduce, &count, NULL, 0, NULL));
    ZE_CHECK(step, zeCommandListClose(list));
    for (int round = 1; round <= 2; round++) {
        ZE_CHECK(step, zeCommandQueueExecuteCommandLists(queue, 1, &list, fence));
        ZE_CHECK(step, zeFenceHostSynchronize(fence, UINT64_MAX));
        ZE_CHECK(step, zeFenceReset(fence));
        double total = 0, expected = 0;
        for (uint32_t i = 0; i < N; i++) {
            if (c[i] != a[i] + 2.0f)
                return fail(step, "round %d: c[%u] = %f, expected %f", round, i, c[i], a[i] + 2.0f);
            expected += c[i];
        }
        for (uint32_t g = 0; g < groups; g++)
            total += partials[g];
        if (total != expected)
            return fail(step, "round %d: reduction gave %.1f, expected %.1f", round, total,
                        expected);
        for (uint32_t i = 0; i < N; i++) /* new input for the second run */
            a[i] = (float)(i % 10);
    }
    ZE_CHECK(step, zeMemFree(s->context, a));
    ZE_CHECK(step, zeMemFree(s->context, b));
    ZE_CHECK(step, zeMemFree(s->context, c));
    ZE_CHECK(step, zeMemFree(s->context, partials));
    ZE_CHECK(step, zeKernelDestroy(add));
    ZE_CHECK(step, zeKernelDestroy(reduce));
    ZE_CHECK(step, zeFenceDestroy(fence));
    ZE_CHECK(step, zeCommandListDestroy(list));
    ZE_CHECK(step, zeCommandQueueDestroy(queue));
    printf("ok  queue, fence and kernels: fill, vector_add and reduce_sum over %u elements, run "
           "twice\n",
           N);
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : getenv("ZEIL_TEST_KERNELS");
    if (!path || !*path)
        path = ZEIL_SAMPLE_DEFAULT_KERNELS;
    if (!*path) {
        fprintf(stderr, "usage: %s KERNEL_MODULE (or set ZEIL_TEST_KERNELS)\n", argv[0]);
        return 2;
    }
    sample_t s = {0};
    if (open_sample(&s, path) || step_allocations(&s) || step_copies_and_fills(&s) ||
        step_events_across_lists(&s) || step_queue_and_kernels(&s)) {
        fprintf(stderr, "zeil_cpu_sample: not every step passed\n");
        return 1;
    }
    const char *step = "teardown";
    ZE_CHECK(step, zeModuleDestroy(s.module));
    ZE_CHECK(step, zeEventPoolDestroy(s.pool));
    ZE_CHECK(step, zeContextDestroy(s.context));
    printf("all steps passed\n");
    return 0;
}
