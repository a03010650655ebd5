/*
 * The kernels child: what running compiled kernels costs on the reference
 * driver (its compiler, tests/refdriver/compiler, and its work-item
 * scheduler, tests/refdriver/execution/rd_schedule.h), through the loader
 * and a synchronous immediate list, with groups of 256:
 *   workitem_ns            ns per work-item of a kernel without barriers
 *                          (iota over 2^22 work-items: the direct path)
 *   workitem_barrier_ns    ns per work-item of a kernel with one barrier
 *                          (2^20 work-items, every one on a fiber)
 *   elementwise_vs_c_ratio a plain C loop's time over the kernel's for
 *                          out = in * f over 2^24 floats; the C loop is a
 *                          native kernel (bench_native_kernels.c), so it
 *                          runs on the driver's pool in the same chunks;
 *                          the two alternate in one process
 * Times are the process's CPU time (every thread's: the pool's threads
 * sleep when idle), so a machine busy with other processes does not inflate
 * them: ns per work-item is the cost of one work-item on one core. The
 * kernels are OpenCL C (format 3); the column is "compiled".
 */
#include "bench_child.h"

#include "bench_stats.h"
#include "bench_ze.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GROUP 256u
#define RUNS 7
#define FORMAT_OCLC ((ze_module_format_t)3)

static const char program[] =
    "__kernel void iota(__global uint *out)\n"
    "{\n"
    "    size_t g = get_global_id(0);\n"
    "    out[g] = (uint)g;\n"
    "}\n"
    "__kernel void barrier1(__global float *out)\n"
    "{\n"
    "    size_t g = get_global_id(0);\n"
    "    out[g] = 1.0f;\n"
    "    barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "    out[g] += 1.0f;\n"
    "}\n"
    "__kernel void scale(__global const float *in, __global float *out, float f)\n"
    "{\n"
    "    size_t g = get_global_id(0);\n"
    "    out[g] = in[g] * f;\n"
    "}\n";

typedef struct kbench {
    bench_ze_t ze;
    ze_module_handle_t compiled, native;
    ze_command_list_handle_t list; /* synchronous immediate */
} kbench_t;

static uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static ze_module_handle_t module_of(const kbench_t *b, ze_module_format_t format, const void *bytes,
                                    size_t size)
{
    ze_module_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_MODULE_DESC,
                             .format = format,
                             .inputSize = size,
                             .pInputModule = bytes,
                             .pBuildFlags = ""};
    ze_module_handle_t m = NULL;
    BENCH_ZE_OK(zeModuleCreate(b->ze.context, b->ze.device, &desc, &m, NULL));
    return m;
}

static void *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        bench_fail("kernels: cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *data = malloc((size_t)n);
    if (!data || fread(data, 1, (size_t)n, f) != (size_t)n)
        bench_fail("kernels: cannot read %s", path);
    fclose(f);
    *size = (size_t)n;
    return data;
}

static ze_kernel_handle_t kernel_of(ze_module_handle_t m, const char *name)
{
    ze_kernel_desc_t desc = {.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC, .pKernelName = name};
    ze_kernel_handle_t k = NULL;
    BENCH_ZE_OK(zeKernelCreate(m, &desc, &k));
    BENCH_ZE_OK(zeKernelSetGroupSize(k, GROUP, 1, 1));
    return k;
}

static void *alloc(const kbench_t *b, size_t size)
{
    ze_device_mem_alloc_desc_t d = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_host_mem_alloc_desc_t h = {.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    void *p = NULL;
    BENCH_ZE_OK(zeMemAllocShared(b->ze.context, &d, &h, size, 64, b->ze.device, &p));
    return p;
}

/* CPU ns of one launch of items work-items. */
static double launch_ns(const kbench_t *b, ze_kernel_handle_t k, uint64_t items)
{
    ze_group_count_t count = {(uint32_t)(items / GROUP), 1, 1};
    uint64_t start = cpu_ns();
    BENCH_ZE_OK(zeCommandListAppendLaunchKernel(b->list, k, &count, NULL, 0, NULL));
    return (double)(cpu_ns() - start);
}

/* The median of RUNS launches after one to warm up, per work-item. */
static double per_item(const kbench_t *b, ze_kernel_handle_t k, uint64_t items)
{
    double ns[RUNS];
    launch_ns(b, k, items);
    for (int i = 0; i < RUNS; i++)
        ns[i] = launch_ns(b, k, items);
    return bench_summarize(ns, RUNS).median / (double)items;
}

static double elementwise_ratio(const kbench_t *b, uint64_t n)
{
    float *in = alloc(b, n * sizeof *in), *out = alloc(b, n * sizeof *out);
    for (uint64_t i = 0; i < n; i++)
        in[i] = (float)(i % 1000);
    float f = 1.5f;
    ze_kernel_handle_t k = kernel_of(b->compiled, "scale"), c = kernel_of(b->native, "scale_c");
    ze_kernel_handle_t both[2] = {k, c};
    for (int i = 0; i < 2; i++) {
        BENCH_ZE_OK(zeKernelSetArgumentValue(both[i], 0, sizeof in, &in));
        BENCH_ZE_OK(zeKernelSetArgumentValue(both[i], 1, sizeof out, &out));
        BENCH_ZE_OK(zeKernelSetArgumentValue(both[i], 2, sizeof f, &f));
    }
    double ratios[RUNS];
    launch_ns(b, k, n);
    launch_ns(b, c, n);
    for (int i = 0; i < RUNS; i++) {
        double kernel = launch_ns(b, k, n);
        double plain = launch_ns(b, c, n);
        ratios[i] = plain / kernel;
    }
    out[n - 1] = -1;
    launch_ns(b, k, n);
    if (out[n - 1] != in[n - 1] * f)
        bench_fail("kernels: scale computed %g, not %g", out[n - 1], in[n - 1] * f);
    BENCH_ZE_OK(zeKernelDestroy(k));
    BENCH_ZE_OK(zeKernelDestroy(c));
    BENCH_ZE_OK(zeMemFree(b->ze.context, in));
    BENCH_ZE_OK(zeMemFree(b->ze.context, out));
    return bench_summarize(ratios, RUNS).median;
}

static void open_bench(kbench_t *b)
{
    bench_ze_open(&b->ze);
    b->compiled = module_of(b, FORMAT_OCLC, program, sizeof program);
    size_t size = 0;
    void *bytes = read_file(BENCH_NATIVE_KERNELS_FILE, &size);
    b->native = module_of(b, ZE_MODULE_FORMAT_NATIVE, bytes, size);
    free(bytes);
    ze_command_queue_desc_t q = {.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                 .mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS};
    BENCH_ZE_OK(zeCommandListCreateImmediate(b->ze.context, b->ze.device, &q, &b->list));
}

static void close_bench(kbench_t *b)
{
    BENCH_ZE_OK(zeCommandListDestroy(b->list));
    BENCH_ZE_OK(zeModuleDestroy(b->native));
    BENCH_ZE_OK(zeModuleDestroy(b->compiled));
    bench_ze_close(&b->ze);
}

int bench_child_kernels(const bench_child_args_t *args)
{
    kbench_t b;
    open_bench(&b);
    double scale = args->scale < 1 ? args->scale : 1;
    uint64_t items = (uint64_t)((double)(1u << 22) * scale) / GROUP * GROUP;
    uint64_t elementwise = (uint64_t)((double)(1u << 24) * scale) / GROUP * GROUP;
    items = items < GROUP * 64 ? GROUP * 64 : items;
    elementwise = elementwise < GROUP * 64 ? GROUP * 64 : elementwise;
    uint32_t *out = alloc(&b, items * sizeof *out);
    ze_kernel_handle_t iota = kernel_of(b.compiled, "iota"),
                       barrier = kernel_of(b.compiled, "barrier1");
    BENCH_ZE_OK(zeKernelSetArgumentValue(iota, 0, sizeof out, &out));
    BENCH_ZE_OK(zeKernelSetArgumentValue(barrier, 0, sizeof out, &out));
    double plain = per_item(&b, iota, items);
    if (out[items - 1] != items - 1)
        bench_fail("kernels: iota computed %u, not %llu", out[items - 1],
                   (unsigned long long)items - 1);
    double with_barrier = per_item(&b, barrier, items / 4);
    BENCH_ZE_OK(zeKernelDestroy(iota));
    BENCH_ZE_OK(zeKernelDestroy(barrier));
    BENCH_ZE_OK(zeMemFree(b.ze.context, out));
    double ratio = elementwise_ratio(&b, elementwise);
    close_bench(&b);
    bench_emit("workitem_ns", "compiled", plain);
    bench_emit("workitem_barrier_ns", "compiled", with_barrier);
    bench_emit("elementwise_vs_c_ratio", "compiled", ratio);
    return 0;
}
