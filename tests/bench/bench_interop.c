/*
 * zeil_bench_interop: the interop figures of zeil_bench, one side per
 * process (zeil_bench starts it and interleaves the sides by round).
 *
 *   zeil_bench_interop --mode direct|interop [--scale X]
 *
 * direct:  dnnl_primitive_execute + dnnl_stream_wait on a plain CPU engine.
 * interop: dnnl_ze_interop_primitive_execute on an in-order immediate list of
 *          the reference driver + zeEventHostSynchronize of the returned event.
 * Both time a 1x16x8x8 f32 ReLU (execute_overhead_us: its fixed cost) and a
 * 512x512x512 f32 matmul (matmul_us; zeil_bench divides the two sides).
 * interop also times the floor under its fixed cost: one launch of a tiny
 * test kernel on the same immediate list + zeEventHostSynchronize, the
 * reference driver's own round trip (immediate_roundtrip_us).
 */
#include "bench_stats.h"

#include "test_kernels.h"

#include <zeil/dnnl_ze.h>
#include <zeil/zeil.h>

#include <oneapi/dnnl/dnnl.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* oneDNN has no nhandles == 0: DNNL_MEMORY_ALLOCATE asks for a buffer. */
static void *allocate = DNNL_MEMORY_ALLOCATE;

#define RELU_BATCH 100
#define MATMUL_N 512

typedef struct side {
    int interop;
    dnnl_engine_t engine;
    dnnl_stream_t stream;
    /* interop only */
    ze_context_handle_t context;
    ze_command_list_handle_t list;
    ze_event_pool_handle_t pool;
    ze_event_handle_t filled; /* signalled by the fills of filled_memory */
} side_t;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("zeil_bench_interop: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

#define DNNL_OK(call) \
    do { \
        dnnl_status_t s_ = (call); \
        if (s_ != dnnl_success) \
            fail("%s:%d: %s returned %d", __FILE__, __LINE__, #call, (int)s_); \
    } while (0)
#define ZE_OK(call) \
    do { \
        ze_result_t r_ = (call); \
        if (r_ != ZE_RESULT_SUCCESS) \
            fail("%s:%d: %s returned 0x%x", __FILE__, __LINE__, #call, (unsigned)r_); \
    } while (0)

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void open_direct(side_t *s)
{
    DNNL_OK(dnnl_engine_create(&s->engine, dnnl_cpu, 0));
    DNNL_OK(dnnl_stream_create(&s->stream, s->engine, dnnl_stream_default_flags));
}

static void open_interop(side_t *s)
{
    ZE_OK(zeInit(0));
    if (!zeil_is_active())
        fail("the interop side needs zeil on (ZE_ENABLE_LAYERS=zeil), zeil is not active");
    uint32_t n = 1;
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ZE_OK(zeDriverGet(&n, &driver));
    n = 1;
    ZE_OK(zeDeviceGet(driver, &n, &device));
    ze_context_desc_t ctx = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ZE_OK(zeContextCreate(driver, &ctx, &s->context));
    /* Without ZE_COMMAND_QUEUE_FLAG_IN_ORDER, which Debian's API 1.4 headers
     * and the reference driver do not know: the driver runs every list in
     * order, and the interop library accepts such a list with a warning. */
    ze_command_queue_desc_t queue = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ZE_OK(zeCommandListCreateImmediate(s->context, device, &queue, &s->list));
    ze_event_pool_desc_t pool = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                 ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    ZE_OK(zeEventPoolCreate(s->context, &pool, 1, &device, &s->pool));
    ze_event_desc_t event = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                             ZE_EVENT_SCOPE_FLAG_HOST};
    ZE_OK(zeEventCreate(s->pool, &event, &s->filled));
    DNNL_OK(dnnl_ze_interop_engine_create(&s->engine, driver, device, s->context));
    DNNL_OK(dnnl_ze_interop_stream_create(&s->stream, s->engine, s->list, 0));
}

/* A memory object of the side's engine, every element 1.0f (uninitialised
 * floats could be denormals and time something else). */
static dnnl_memory_t filled_memory(const side_t *s, const dnnl_memory_desc_t *md)
{
    dnnl_memory_t memory;
    size_t bytes = dnnl_memory_desc_get_size(md);
    void *data = NULL;
    const float one = 1.0f;
    if (!s->interop) {
        DNNL_OK(dnnl_memory_create(&memory, md, s->engine, DNNL_MEMORY_ALLOCATE));
        DNNL_OK(dnnl_memory_get_data_handle(memory, &data));
        for (size_t i = 0; i < bytes / sizeof one; i++)
            ((float *)data)[i] = one;
        return memory;
    }
    DNNL_OK(dnnl_ze_interop_memory_create(&memory, md, s->engine, 1, &allocate));
    DNNL_OK(dnnl_memory_get_data_handle(memory, &data));
    ZE_OK(
        zeCommandListAppendMemoryFill(s->list, data, &one, sizeof one, bytes, s->filled, 0, NULL));
    ZE_OK(zeEventHostSynchronize(s->filled, UINT64_MAX));
    ZE_OK(zeEventHostReset(s->filled));
    return memory;
}

static void execute(const side_t *s, dnnl_primitive_t primitive, int nargs,
                    const dnnl_exec_arg_t *args)
{
    if (!s->interop) {
        DNNL_OK(dnnl_primitive_execute(primitive, s->stream, nargs, args));
        DNNL_OK(dnnl_stream_wait(s->stream));
        return;
    }
    ze_event_handle_t done = NULL;
    DNNL_OK(dnnl_ze_interop_primitive_execute(primitive, s->stream, nargs, args, 0, NULL, &done));
    ZE_OK(zeEventHostSynchronize(done, UINT64_MAX));
}

static dnnl_primitive_t create_primitive(const side_t *s, const void *op_desc)
{
    dnnl_primitive_desc_t pd;
    dnnl_primitive_t primitive;
    DNNL_OK(dnnl_primitive_desc_create(&pd, op_desc, NULL, s->engine, NULL));
    DNNL_OK(dnnl_primitive_create(&primitive, pd));
    DNNL_OK(dnnl_primitive_desc_destroy(pd));
    return primitive;
}

/* Median over batches of the mean time of one execute + wait, in us. */
static double time_relu(const side_t *s, size_t batches)
{
    dnnl_memory_desc_t md;
    const dnnl_dims_t dims = {1, 16, 8, 8};
    DNNL_OK(dnnl_memory_desc_init_by_tag(&md, 4, dims, dnnl_f32, dnnl_nchw));
    dnnl_eltwise_desc_t relu;
    DNNL_OK(dnnl_eltwise_forward_desc_init(&relu, dnnl_forward_inference, dnnl_eltwise_relu, &md,
                                           0.f, 0.f));
    dnnl_primitive_t primitive = create_primitive(s, &relu);
    dnnl_memory_t src = filled_memory(s, &md), dst = filled_memory(s, &md);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
    double *means = calloc(batches, sizeof *means);
    if (!means)
        fail("out of memory");
    for (int i = 0; i < RELU_BATCH; i++) /* warm-up */
        execute(s, primitive, 2, args);
    for (size_t b = 0; b < batches; b++) {
        double start = now_us();
        for (int i = 0; i < RELU_BATCH; i++)
            execute(s, primitive, 2, args);
        means[b] = (now_us() - start) / RELU_BATCH;
    }
    double median = bench_summarize(means, batches).median;
    free(means);
    DNNL_OK(dnnl_primitive_destroy(primitive));
    DNNL_OK(dnnl_memory_destroy(src));
    DNNL_OK(dnnl_memory_destroy(dst));
    return median;
}

/* Median time of one matmul execute + wait, in us. */
static double time_matmul(const side_t *s, size_t runs)
{
    dnnl_memory_desc_t md;
    const dnnl_dims_t dims = {MATMUL_N, MATMUL_N};
    DNNL_OK(dnnl_memory_desc_init_by_tag(&md, 2, dims, dnnl_f32, dnnl_ab));
    dnnl_matmul_desc_t matmul;
    DNNL_OK(dnnl_matmul_desc_init(&matmul, &md, &md, NULL, &md));
    dnnl_primitive_t primitive = create_primitive(s, &matmul);
    dnnl_memory_t src = filled_memory(s, &md), weights = filled_memory(s, &md),
                  dst = filled_memory(s, &md);
    dnnl_exec_arg_t args[] = {
        {DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}};
    double *times = calloc(runs, sizeof *times);
    if (!times)
        fail("out of memory");
    execute(s, primitive, 3, args); /* warm-up */
    for (size_t r = 0; r < runs; r++) {
        double start = now_us();
        execute(s, primitive, 3, args);
        times[r] = now_us() - start;
    }
    double median = bench_summarize(times, runs).median;
    free(times);
    DNNL_OK(dnnl_primitive_destroy(primitive));
    DNNL_OK(dnnl_memory_destroy(src));
    DNNL_OK(dnnl_memory_destroy(weights));
    DNNL_OK(dnnl_memory_destroy(dst));
    return median;
}

static ze_module_handle_t test_module(const side_t *s, ze_device_handle_t device)
{
    const char *path = getenv("ZEIL_TEST_KERNELS");
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f)
        fail("cannot open the test kernel library (ZEIL_TEST_KERNELS=%s)", path ? path : "");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    void *bytes = size > 0 ? malloc((size_t)size) : NULL;
    if (!bytes || fread(bytes, 1, (size_t)size, f) != (size_t)size)
        fail("cannot read %s", path);
    fclose(f);
    ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC,
                             NULL,
                             ZE_MODULE_FORMAT_NATIVE,
                             (size_t)size,
                             bytes,
                             NULL,
                             NULL};
    ze_module_handle_t module;
    ZE_OK(zeModuleCreate(s->context, device, &desc, &module, NULL));
    free(bytes);
    return module;
}

/* Median over batches of one vector_add(64 elements) launch + host wait, us. */
static double time_roundtrip(const side_t *s, size_t batches)
{
    ze_device_handle_t device;
    DNNL_OK(dnnl_ze_interop_engine_get_device(s->engine, &device));
    ze_module_handle_t module = test_module(s, device);
    ze_kernel_desc_t kdesc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, TK_VECTOR_ADD};
    ze_kernel_handle_t kernel;
    ZE_OK(zeKernelCreate(module, &kdesc, &kernel));
    ze_device_mem_alloc_desc_t mem = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    void *buffers[3];
    for (uint32_t i = 0; i < 3; i++) {
        ZE_OK(zeMemAllocDevice(s->context, &mem, 64 * sizeof(float), 64, device, &buffers[i]));
        ZE_OK(zeKernelSetArgumentValue(kernel, i, sizeof(void *), &buffers[i]));
    }
    uint64_t n = 64;
    ZE_OK(zeKernelSetArgumentValue(kernel, 3, sizeof n, &n));
    ZE_OK(zeKernelSetGroupSize(kernel, 64, 1, 1));
    const ze_group_count_t one = {1, 1, 1};
    double *means = calloc(batches, sizeof *means);
    if (!means)
        fail("out of memory");
    for (size_t b = 0; b <= batches; b++) { /* batch 0 warms up */
        double start = now_us();
        for (int i = 0; i < RELU_BATCH; i++) {
            ZE_OK(zeCommandListAppendLaunchKernel(s->list, kernel, &one, s->filled, 0, NULL));
            ZE_OK(zeEventHostSynchronize(s->filled, UINT64_MAX));
            ZE_OK(zeEventHostReset(s->filled));
        }
        if (b > 0)
            means[b - 1] = (now_us() - start) / RELU_BATCH;
    }
    double median = bench_summarize(means, batches).median;
    free(means);
    for (int i = 0; i < 3; i++)
        ZE_OK(zeMemFree(s->context, buffers[i]));
    ZE_OK(zeKernelDestroy(kernel));
    ZE_OK(zeModuleDestroy(module));
    return median;
}

static size_t scaled(double scale, size_t full)
{
    size_t n = (size_t)((double)full * scale);
    return n < 3 ? 3 : n;
}

int main(int argc, char **argv)
{
    const char *mode = NULL;
    double scale = 1.0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--mode") == 0)
            mode = argv[i + 1];
        else if (strcmp(argv[i], "--scale") == 0)
            scale = atof(argv[i + 1]);
    }
    if (!mode || (strcmp(mode, "direct") != 0 && strcmp(mode, "interop") != 0))
        fail("usage: zeil_bench_interop --mode direct|interop [--scale X]");
    side_t s = {.interop = strcmp(mode, "interop") == 0};
    if (s.interop)
        open_interop(&s);
    else
        open_direct(&s);
    double relu = time_relu(&s, scaled(scale, 30));
    double matmul = time_matmul(&s, scaled(scale, 25));
    /* The floor last, in the conditions the ReLU ran in: right after oneDNN's
     * work, whose spinning OpenMP threads keep the CPUs awake. Measured first,
     * in a process with no OpenMP threads yet, it varies from 12 to 70 us with
     * the machine's load (idle CPUs are slow to wake). */
    double roundtrip = s.interop ? time_roundtrip(&s, scaled(scale, 30)) : 0;
    DNNL_OK(dnnl_stream_destroy(s.stream));
    DNNL_OK(dnnl_engine_destroy(s.engine));
    if (s.interop) {
        ZE_OK(zeCommandListDestroy(s.list));
        ZE_OK(zeEventDestroy(s.filled));
        ZE_OK(zeEventPoolDestroy(s.pool));
        ZE_OK(zeContextDestroy(s.context));
    }
    printf("execute_overhead_us %s %.6g\n", mode, relu);
    printf("matmul_us %s %.6g\n", mode, matmul);
    if (s.interop)
        printf("immediate_roundtrip_us driver %.6g\n", roundtrip);
    return 0;
}
