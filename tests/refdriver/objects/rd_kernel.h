/*
 * rd_kernel.h: a kernel object: one kernel of a module plus the state the
 * application sets on it (group size, argument values copied at set time).
 */
#ifndef ZEIL_RD_KERNEL_H
#define ZEIL_RD_KERNEL_H

#include "rd_compiled.h"
#include "rd_module.h"

/* A compiled kernel's sub-group size unless it requires one. */
#define RD_DEFAULT_SG_SIZE 16u

/* Alignment of each argument value in arg_values (that of max_align_t). */
#define RD_ARG_ALIGNMENT 16u

typedef enum rd_arg_state {
    RD_ARG_UNSET = 0,
    RD_ARG_VALUE,
    RD_ARG_NULL,  /* set with a null value */
    RD_ARG_LOCAL, /* a local pointer of a compiled kernel, set by size */
} rd_arg_state_t;

typedef struct rd_kernel {
    uint32_t magic;
    rd_module_t *module;          /* holds a reference */
    const zeil_cpu_kernel_t *abi; /* a native kernel (zeil/cpu_kernel.h), or null */
    const rd_cm_kernel_t *cm;     /* a compiled kernel (SPIR-V, OpenCL C), or null */
    const char *name;             /* the kernel's name, either way */
    uint32_t num_args;
    uint32_t *
        local_sizes; /* per argument: bytes of a local argument (compiled kernels), else 0; may be null; owned */
    uint32_t group_size[3];
    size_t *arg_offsets;       /* into arg_values, one per argument */
    unsigned char *arg_values; /* every argument's bytes, back to back */
    size_t arg_bytes;
    unsigned char *arg_states; /* rd_arg_state_t per argument */
    ze_kernel_indirect_access_flags_t indirect_access;
} rd_kernel_t;

#endif
