/*
 * The test kernel library: a native module for the reference driver (see
 * include/zeil/cpu_kernel.h) whose kernels let the suites check results,
 * argument passing, launch geometry and timing. Contracts: test_kernels.h.
 */
#include "test_kernels.h"

#include <string.h>
#include <time.h>
#include <zeil/cpu_kernel.h>

#define ARG(type, i) (*(type const *)args[i])

static uint64_t group_base(const zeil_cpu_group_t *g)
{
    return (uint64_t)g->group_id[0] * g->group_size[0];
}

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void vector_add(const zeil_cpu_group_t *g, const void *const *args)
{
    const float *a = ARG(float *, 0);
    const float *b = ARG(float *, 1);
    float *c = ARG(float *, 2);
    uint64_t n = ARG(uint64_t, 3);
    uint64_t base = group_base(g);
    for (uint32_t i = 0; i < g->group_size[0]; i++)
        if (base + i < n)
            c[base + i] = a[base + i] + b[base + i];
}

static void reduce_sum(const zeil_cpu_group_t *g, const void *const *args)
{
    const float *in = ARG(float *, 0);
    float *partials = ARG(float *, 1);
    uint64_t n = ARG(uint64_t, 2);
    uint64_t base = group_base(g);
    float sum = 0.0f;
    for (uint32_t i = 0; i < g->group_size[0]; i++)
        if (base + i < n)
            sum += in[base + i];
    partials[g->group_id[0]] = sum;
}

static void scale(const zeil_cpu_group_t *g, const void *const *args)
{
    double *out = ARG(double *, 0);
    const float *in = ARG(float *, 1);
    uint64_t n = ARG(uint64_t, 2);
    double f64 = ARG(double, 8);
    uint64_t base = group_base(g);
    for (uint32_t i = 0; i < g->group_size[0]; i++)
        if (base + i < n)
            out[base + i] = (double)in[base + i] * f64;
    if (g->group_id[0] == 0 && g->group_id[1] == 0 && g->group_id[2] == 0) {
        tk_scale_echo_t *echo = ARG(tk_scale_echo_t *, 10);
        echo->a8 = ARG(uint8_t, 3);
        echo->a16 = ARG(uint16_t, 4);
        echo->a32 = ARG(uint32_t, 5);
        echo->a64 = ARG(uint64_t, 6);
        echo->f32 = ARG(float, 7);
        echo->f64 = f64;
        memcpy(&echo->blob, args[9], sizeof echo->blob);
        echo->written = 1;
    }
}

static void record_geometry(const zeil_cpu_group_t *g, const void *const *args)
{
    tk_geometry_t *records = ARG(tk_geometry_t *, 0);
    uint64_t index =
        g->group_id[0] + (uint64_t)g->group_count[0] *
                             (g->group_id[1] + (uint64_t)g->group_count[1] * g->group_id[2]);
    tk_geometry_t *r = &records[index];
    for (int d = 0; d < 3; d++) {
        r->group_id[d] = g->group_id[d];
        r->group_size[d] = g->group_size[d];
        r->group_count[d] = g->group_count[d];
        r->global_size[d] = g->global_size[d];
    }
    __atomic_fetch_add(&r->runs, 1u, __ATOMIC_RELAXED);
}

static void spin(const zeil_cpu_group_t *g, const void *const *args)
{
    uint64_t microseconds = ARG(uint64_t, 0);
    uint64_t *finished_ns = ARG(uint64_t *, 1);
    uint64_t until = monotonic_ns() + microseconds * 1000u;
    uint64_t now;
    do {
        now = monotonic_ns();
    } while (now < until);
    if (finished_ns)
        finished_ns[g->group_id[0]] = now;
}

static void stamp(const zeil_cpu_group_t *g, const void *const *args)
{
    uint64_t *started_ns = ARG(uint64_t *, 0);
    if (g->group_id[0] == 0 && g->group_id[1] == 0 && g->group_id[2] == 0)
        *started_ns = monotonic_ns();
}

static void null_probe(const zeil_cpu_group_t *g, const void *const *args)
{
    uint32_t *out = ARG(uint32_t *, 0);
    if (g->group_id[0] == 0 && g->group_id[1] == 0 && g->group_id[2] == 0)
        out[0] = args[1] == NULL;
}

static const uint32_t vector_add_args[] = {sizeof(float *), sizeof(float *), sizeof(float *),
                                           sizeof(uint64_t)};
static const uint32_t reduce_sum_args[] = {sizeof(float *), sizeof(float *), sizeof(uint64_t)};
static const uint32_t scale_args[TK_SCALE_NUM_ARGS] = {
    sizeof(double *), sizeof(float *),     sizeof(uint64_t),         sizeof(uint8_t),
    sizeof(uint16_t), sizeof(uint32_t),    sizeof(uint64_t),         sizeof(float),
    sizeof(double),   sizeof(tk_blob24_t), sizeof(tk_scale_echo_t *)};
static const uint32_t record_geometry_args[] = {sizeof(tk_geometry_t *)};
static const uint32_t spin_args[] = {sizeof(uint64_t), sizeof(uint64_t *)};
static const uint32_t stamp_args[] = {sizeof(uint64_t *)};
static const uint32_t null_probe_args[] = {sizeof(uint32_t *), sizeof(uint64_t)};

#define KERNEL(name, fn, sizes) \
    { \
        name, sizeof(sizes) / sizeof(sizes[0]), sizes, fn \
    }

static const zeil_cpu_kernel_t kernels[] = {
    KERNEL(TK_VECTOR_ADD, vector_add, vector_add_args),
    KERNEL(TK_REDUCE_SUM, reduce_sum, reduce_sum_args),
    KERNEL(TK_SCALE, scale, scale_args),
    KERNEL(TK_RECORD_GEOMETRY, record_geometry, record_geometry_args),
    KERNEL(TK_SPIN, spin, spin_args),
    KERNEL(TK_STAMP, stamp, stamp_args),
    KERNEL(TK_NULL_PROBE, null_probe, null_probe_args),
};
_Static_assert(sizeof(kernels) / sizeof(kernels[0]) == TK_NUM_KERNELS, "TK_NUM_KERNELS");

ZEIL_CPU_MODULE_EXPORT const zeil_cpu_module_t zeil_cpu_module = {
    ZEIL_CPU_KERNEL_ABI_VERSION, sizeof(kernels) / sizeof(kernels[0]), kernels};
