/*
 * The plain C side of elementwise_vs_c_ratio (bench_kernels.c): a native
 * module (zeil/cpu_kernel.h) whose kernel is the C loop out = in * f over
 * its group's elements, so that it runs on the driver's own pool, on the
 * same threads as the compiled kernel it is compared with.
 *
 * scale_c(const float *in, float *out, float f)
 */
#include <stdint.h>
#include <zeil/cpu_kernel.h>

#define ARG(type, i) (*(type const *)args[i])

static void scale_c(const zeil_cpu_group_t *g, const void *const *args)
{
    const float *in = ARG(const float *, 0);
    float *out = ARG(float *, 1);
    float f = ARG(float, 2);
    uint64_t base = (uint64_t)g->group_id[0] * g->group_size[0];
    for (uint64_t i = base; i < base + g->group_size[0]; i++)
        out[i] = in[i] * f;
}

static const uint32_t scale_c_args[] = {sizeof(float *), sizeof(float *), sizeof(float)};

static const zeil_cpu_kernel_t kernels[] = {{"scale_c", 3, scale_c_args, scale_c}};

ZEIL_CPU_MODULE_EXPORT const zeil_cpu_module_t zeil_cpu_module = {ZEIL_CPU_KERNEL_ABI_VERSION, 1,
                                                                  kernels};
