/*
 * compile_cold_s and compile_warm_ms: building a 100-line OpenCL C program
 * (format 3) on the reference driver, cold (ZEIL_CPU_KERNEL_CACHE=off: the
 * compiler runs) and warm (from a cache the child filled first, in a
 * temporary directory). One line each, column "driver".
 */
#include "bench_child.h"
#include "bench_ze.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char program[] =
    "/* A tiled matrix multiply with a bias and an activation. */\n"
    "#define TILE 16\n"
    "typedef struct dims { int m, n, k; float alpha, beta; } dims_t;\n"
    "\n"
    "static float activate(float x, int kind)\n"
    "{\n"
    "    switch (kind) {\n"
    "    case 0: return x;\n"
    "    case 1: return fmax(x, 0.0f);\n"
    "    case 2: return 1.0f / (1.0f + exp(-x));\n"
    "    default: return tanh(x);\n"
    "    }\n"
    "}\n"
    "\n"
    "static float load_or_zero(__global const float *p, int row, int col, int rows, int cols, int "
    "ld)\n"
    "{\n"
    "    return row < rows && col < cols ? p[row * ld + col] : 0.0f;\n"
    "}\n"
    "\n"
    "__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))\n"
    "void gemm_bias_act(__global const float *a, __global const float *b, __global const float "
    "*bias,\n"
    "                   __global float *c, dims_t d, int act)\n"
    "{\n"
    "    __local float ta[TILE][TILE + 1];\n"
    "    __local float tb[TILE][TILE + 1];\n"
    "    int lx = get_local_id(0), ly = get_local_id(1);\n"
    "    int col = get_group_id(0) * TILE + lx, row = get_group_id(1) * TILE + ly;\n"
    "    float acc = 0.0f;\n"
    "    for (int t = 0; t < d.k; t += TILE) {\n"
    "        ta[ly][lx] = load_or_zero(a, row, t + lx, d.m, d.k, d.k);\n"
    "        tb[ly][lx] = load_or_zero(b, t + ly, col, d.k, d.n, d.n);\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (int i = 0; i < TILE; i++)\n"
    "            acc = mad(ta[ly][i], tb[i][lx], acc);\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (row < d.m && col < d.n) {\n"
    "        float v = d.alpha * acc + d.beta * c[row * d.n + col] + bias[col];\n"
    "        c[row * d.n + col] = activate(v, act);\n"
    "    }\n"
    "}\n"
    "\n"
    "__kernel void reduce_rows(__global const float *in, __global float *out, int cols, __local "
    "float *scratch)\n"
    "{\n"
    "    int row = get_group_id(0), lid = get_local_id(0), n = get_local_size(0);\n"
    "    float s = 0.0f;\n"
    "    for (int c = lid; c < cols; c += n)\n"
    "        s += in[row * cols + c];\n"
    "    scratch[lid] = s;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int step = n / 2; step > 0; step /= 2) {\n"
    "        if (lid < step)\n"
    "            scratch[lid] += scratch[lid + step];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (lid == 0)\n"
    "        out[row] = scratch[0];\n"
    "}\n"
    "\n"
    "__kernel void softmax_rows(__global float *x, __global const float *sums, int cols)\n"
    "{\n"
    "    int row = get_global_id(1), col = get_global_id(0);\n"
    "    if (col < cols)\n"
    "        x[row * cols + col] = exp(x[row * cols + col]) / sums[row];\n"
    "}\n"
    "\n"
    "__kernel void convert_u8(__global const float *in, __global uchar *out, float scale, float "
    "shift)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    float v = in[i] * scale + shift;\n"
    "    out[i] = convert_uchar_sat_rte(v);\n"
    "}\n"
    "\n"
    "__kernel void axpby4(__global float4 *y, __global const float4 *x, float alpha, float beta)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    y[i] = alpha * x[i] + beta * y[i];\n"
    "}\n"
    "\n"
    "__kernel void transpose_pad(__global const float *in, __global float *out, int w, int h, "
    "float pad)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    int pw = get_global_size(0);\n"
    "    out[x * get_global_size(1) + y] = (x < w && y < h) ? in[y * w + x] : pad;\n"
    "    (void)pw;\n"
    "}\n";

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One zeModuleCreate of the program, timed in seconds. */
static double build_once(const bench_ze_t *ze)
{
    ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC,
                             NULL,
                             (ze_module_format_t)3,
                             sizeof program - 1,
                             (const uint8_t *)program,
                             "-cl-std=CL2.0",
                             NULL};
    ze_module_handle_t module = NULL;
    ze_module_build_log_handle_t log = NULL;
    double start = now_s();
    ze_result_t r = zeModuleCreate(ze->context, ze->device, &desc, &module, &log);
    double took = now_s() - start;
    if (r != ZE_RESULT_SUCCESS && log) {
        size_t size = 0;
        zeModuleBuildLogGetString(log, &size, NULL);
        char *text = malloc(size ? size : 1);
        if (text && zeModuleBuildLogGetString(log, &size, text) == ZE_RESULT_SUCCESS)
            fprintf(stderr, "%s\n", text);
        free(text);
    }
    if (log)
        zeModuleBuildLogDestroy(log);
    BENCH_ZE_OK(r);
    BENCH_ZE_OK(zeModuleDestroy(module));
    return took;
}

int bench_child_compile(const bench_child_args_t *args)
{
    (void)args;
    bench_ze_t ze;
    bench_ze_open(&ze);
    setenv("ZEIL_CPU_KERNEL_CACHE", "off", 1);
    double cold = build_once(&ze);
    char dir[] = "/tmp/zeil-bench-cache-XXXXXX";
    if (!mkdtemp(dir))
        bench_fail("mkdtemp failed");
    setenv("ZEIL_CPU_KERNEL_CACHE", dir, 1);
    build_once(&ze);
    double warm = build_once(&ze);
    char rm[128];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    if (system(rm) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    bench_emit("compile_cold_s", "driver", cold);
    bench_emit("compile_warm_ms", "driver", warm * 1e3);
    bench_ze_close(&ze);
    return 0;
}
