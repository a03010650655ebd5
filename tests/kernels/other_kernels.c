/*
 * A second native module with kernels of its own, so module tests can tell
 * two modules apart (kernel names, binaries, launches). Contracts:
 * test_kernels.h.
 */
#include "test_kernels.h"

#include <zeil/cpu_kernel.h>

static void negate(const zeil_cpu_group_t *g, const void *const *args)
{
    float *x = *(float *const *)args[0];
    uint64_t n = *(const uint64_t *)args[1];
    uint64_t base = (uint64_t)g->group_id[0] * g->group_size[0];
    for (uint32_t i = 0; i < g->group_size[0]; i++)
        if (base + i < n)
            x[base + i] = -x[base + i];
}

static void iota(const zeil_cpu_group_t *g, const void *const *args)
{
    uint32_t *out = *(uint32_t *const *)args[0];
    uint64_t n = *(const uint64_t *)args[1];
    uint64_t base = (uint64_t)g->group_id[0] * g->group_size[0];
    for (uint32_t i = 0; i < g->group_size[0]; i++)
        if (base + i < n)
            out[base + i] = (uint32_t)(base + i);
}

static const uint32_t negate_args[] = {sizeof(float *), sizeof(uint64_t)};
static const uint32_t iota_args[] = {sizeof(uint32_t *), sizeof(uint64_t)};

static const zeil_cpu_kernel_t kernels[] = {
    {TK_OTHER_NEGATE, 2, negate_args, negate},
    {TK_OTHER_IOTA, 2, iota_args, iota},
};

ZEIL_CPU_MODULE_EXPORT const zeil_cpu_module_t zeil_cpu_module = {ZEIL_CPU_KERNEL_ABI_VERSION, 2,
                                                                  kernels};
