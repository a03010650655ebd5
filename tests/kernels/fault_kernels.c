/*
 * A native module (zeil/cpu_kernel.h) whose kernel faults on purpose, for
 * the suite that checks a faulting kernel loses the device and not the
 * process (tests/driver/driver_fault_test.c).
 *
 * write_null(uint32_t *out, uint64_t bad_group): group bad_group stores
 * through a null pointer; every other group g sets out[g] = g + 1.
 */
#include <stddef.h>
#include <stdint.h>
#include <zeil/cpu_kernel.h>

#define ARG(type, i) (*(type const *)args[i])

/* Not checked by UBSan: the null store is the point. */
__attribute__((no_sanitize("undefined"))) static void write_null(const zeil_cpu_group_t *g,
                                                                 const void *const *args)
{
    uint32_t *out = ARG(uint32_t *, 0);
    uint64_t bad = ARG(uint64_t, 1);
    uint32_t *volatile p = g->group_id[0] == bad ? NULL : &out[g->group_id[0]];
    *p = g->group_id[0] + 1;
}

static const uint32_t write_null_args[] = {sizeof(uint32_t *), sizeof(uint64_t)};

static const zeil_cpu_kernel_t kernels[] = {
    {"write_null", 2, write_null_args, write_null},
};

ZEIL_CPU_MODULE_EXPORT const zeil_cpu_module_t zeil_cpu_module = {ZEIL_CPU_KERNEL_ABI_VERSION, 1,
                                                                  kernels};
