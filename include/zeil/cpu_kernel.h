/*
 * cpu_kernel.h: the native kernel ABI of zeil's reference CPU driver.
 *
 * A module of format ZE_MODULE_FORMAT_NATIVE given to the reference driver is
 * the bytes of an ELF shared object built for the host CPU. The object exports
 * one symbol, ZEIL_CPU_MODULE_SYMBOL, a zeil_cpu_module_t that lists its
 * kernels. The driver loads the object from memory (the caller's file system is
 * not touched), reads the list, and runs each launch as a set of work-groups:
 * the kernel's entry is called once per work-group, on one of the driver's
 * worker threads, and loops over the work-items of its group itself.
 *
 * Arguments are the values set with zeKernelSetArgumentValue, copied at set
 * time: args[i] points to arg_sizes[i] bytes (for a USM pointer argument, to a
 * void *). A null argument value (allowed by the specification for local
 * memory) is passed as a null args[i].
 *
 * Example, a kernel "scale" with arguments (float *x, float factor):
 *
 *   static void scale(const zeil_cpu_group_t *g, const void *const *args)
 *   {
 *       float *x = *(float *const *)args[0];
 *       float factor = *(const float *)args[1];
 *       uint64_t base = (uint64_t)g->group_id[0] * g->group_size[0];
 *       for (uint32_t i = 0; i < g->group_size[0]; i++)
 *           if (base + i < g->global_size[0]) x[base + i] *= factor;
 *   }
 *   static const uint32_t scale_args[] = { sizeof(float *), sizeof(float) };
 *   static const zeil_cpu_kernel_t kernels[] = {
 *       { "scale", 2, scale_args, scale },
 *   };
 *   ZEIL_CPU_MODULE_EXPORT const zeil_cpu_module_t zeil_cpu_module = {
 *       ZEIL_CPU_KERNEL_ABI_VERSION, 1, kernels,
 *   };
 */
#ifndef ZEIL_CPU_KERNEL_H
#define ZEIL_CPU_KERNEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ZEIL_CPU_KERNEL_ABI_VERSION 1u
#define ZEIL_CPU_MODULE_SYMBOL "zeil_cpu_module"
#define ZEIL_CPU_MODULE_EXPORT __attribute__((visibility("default")))

/* What one call of a kernel entry covers: one work-group of a launch. */
typedef struct zeil_cpu_group {
    uint32_t group_id[3];    /* this group's id in each dimension */
    uint32_t group_size[3];  /* work-items per group (zeKernelSetGroupSize) */
    uint32_t group_count[3]; /* groups in the launch (ze_group_count_t) */
    uint64_t global_size[3]; /* group_count * group_size */
} zeil_cpu_group_t;

typedef void (*zeil_cpu_kernel_fn)(const zeil_cpu_group_t *group, const void *const *args);

typedef struct zeil_cpu_kernel {
    const char *name;          /* zeKernelCreate's pKernelName */
    uint32_t num_args;         /* number of arguments */
    const uint32_t *arg_sizes; /* byte size of each argument */
    zeil_cpu_kernel_fn entry;  /* called once per work-group */
} zeil_cpu_kernel_t;

typedef struct zeil_cpu_module {
    uint32_t abi_version; /* ZEIL_CPU_KERNEL_ABI_VERSION */
    uint32_t num_kernels;
    const zeil_cpu_kernel_t *kernels;
} zeil_cpu_module_t;

#ifdef __cplusplus
}
#endif

#endif
