/* The Level Zero objects the benchmark children share, set up once per process. */
#include "bench_ze.h"

#include "test_kernels.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define VECTOR_ELEMENTS 64u

void bench_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("zeil_bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

void bench_ze_check(ze_result_t result, const char *call, const char *file, int line)
{
    if (result != ZE_RESULT_SUCCESS)
        bench_fail("%s:%d: %s returned 0x%x", file, line, call, (unsigned)result);
}

uint64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *read_whole_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        bench_fail("cannot open the test kernel library %s", path);
    if (fseek(f, 0, SEEK_END) != 0)
        bench_fail("cannot seek in %s", path);
    long len = ftell(f);
    rewind(f);
    void *bytes = len > 0 ? malloc((size_t)len) : NULL;
    if (!bytes || fread(bytes, 1, (size_t)len, f) != (size_t)len)
        bench_fail("cannot read %s", path);
    fclose(f);
    *size = (size_t)len;
    return bytes;
}

static void load_module(bench_ze_t *ze)
{
    const char *path = getenv("ZEIL_TEST_KERNELS");
    if (!path || !*path)
        bench_fail("ZEIL_TEST_KERNELS is not set");
    size_t size = 0;
    void *bytes = read_whole_file(path, &size);
    ze_module_desc_t desc = {
        ZE_STRUCTURE_TYPE_MODULE_DESC, NULL, ZE_MODULE_FORMAT_NATIVE, size, bytes, NULL, NULL};
    BENCH_ZE_OK(zeModuleCreate(ze->context, ze->device, &desc, &ze->module, NULL));
    free(bytes);
}

/* vector_add(a, b, c, n) on the shared buffers, every argument set. */
ze_kernel_handle_t bench_ze_new_kernel(const bench_ze_t *ze)
{
    return bench_ze_kernel_on(ze, ze->buffers);
}

ze_kernel_handle_t bench_ze_kernel_on(const bench_ze_t *ze, void *const buffers[3])
{
    ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, TK_VECTOR_ADD};
    ze_kernel_handle_t kernel = NULL;
    BENCH_ZE_OK(zeKernelCreate(ze->module, &desc, &kernel));
    for (int i = 0; i < 3; i++)
        BENCH_ZE_OK(zeKernelSetArgumentValue(kernel, (uint32_t)i, sizeof(void *), &buffers[i]));
    uint64_t n = VECTOR_ELEMENTS;
    BENCH_ZE_OK(zeKernelSetArgumentValue(kernel, 3, sizeof n, &n));
    BENCH_ZE_OK(zeKernelSetGroupSize(kernel, VECTOR_ELEMENTS, 1, 1));
    return kernel;
}

void bench_ze_alloc_buffers(const bench_ze_t *ze, void *buffers[3])
{
    ze_device_mem_alloc_desc_t mem = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    for (int i = 0; i < 3; i++)
        BENCH_ZE_OK(zeMemAllocDevice(ze->context, &mem, VECTOR_ELEMENTS * sizeof(float), 64,
                                     ze->device, &buffers[i]));
}

static void prepare_kernel(bench_ze_t *ze)
{
    bench_ze_alloc_buffers(ze, ze->buffers);
    ze->kernel = bench_ze_new_kernel(ze);
}

ze_command_list_handle_t bench_ze_new_list(const bench_ze_t *ze)
{
    ze_command_list_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0, 0};
    ze_command_list_handle_t list = NULL;
    BENCH_ZE_OK(zeCommandListCreate(ze->context, ze->device, &desc, &list));
    return list;
}

void bench_ze_open(bench_ze_t *ze)
{
    *ze = (bench_ze_t){0};
    BENCH_ZE_OK(zeInit(0));
    uint32_t n = 1;
    BENCH_ZE_OK(zeDriverGet(&n, &ze->driver));
    if (n == 0)
        bench_fail("no Level Zero driver (is ZE_ENABLE_ALT_DRIVERS set?)");
    n = 1;
    BENCH_ZE_OK(zeDeviceGet(ze->driver, &n, &ze->device));
    if (n == 0)
        bench_fail("the driver has no device");
    ze_context_desc_t ctx = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    BENCH_ZE_OK(zeContextCreate(ze->driver, &ctx, &ze->context));
    load_module(ze);
    prepare_kernel(ze);
    ze->list = bench_ze_new_list(ze);
}

ze_event_handle_t bench_ze_host_event(const bench_ze_t *ze, ze_event_pool_handle_t *pool)
{
    ze_event_pool_desc_t pool_desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                      ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    ze_device_handle_t device = ze->device;
    BENCH_ZE_OK(zeEventPoolCreate(ze->context, &pool_desc, 1, &device, pool));
    ze_event_desc_t event_desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                                  ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t event = NULL;
    BENCH_ZE_OK(zeEventCreate(*pool, &event_desc, &event));
    return event;
}

ze_command_queue_handle_t bench_ze_queue(const bench_ze_t *ze)
{
    ze_command_queue_desc_t desc = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_queue_handle_t queue = NULL;
    BENCH_ZE_OK(zeCommandQueueCreate(ze->context, ze->device, &desc, &queue));
    return queue;
}

void bench_ze_close(bench_ze_t *ze)
{
    if (ze->list)
        BENCH_ZE_OK(zeCommandListDestroy(ze->list));
    if (ze->kernel)
        BENCH_ZE_OK(zeKernelDestroy(ze->kernel));
    for (int i = 0; i < 3; i++)
        if (ze->buffers[i])
            BENCH_ZE_OK(zeMemFree(ze->context, ze->buffers[i]));
    if (ze->module)
        BENCH_ZE_OK(zeModuleDestroy(ze->module));
    if (ze->context)
        BENCH_ZE_OK(zeContextDestroy(ze->context));
    *ze = (bench_ze_t){0};
}
