/*
 * rd_compiled.h: the table a module compiled from SPIR-V or OpenCL C exports.
 *
 * The compiler (compiler/) turns a kernel program into an ELF shared object
 * for the host. The object exports RD_CM_MODULE_SYMBOL, an rd_cm_module_t;
 * the driver loads it as it loads a native module of zeil/cpu_kernel.h (the
 * same bytes are what zeModuleGetNativeBinary returns and what
 * ZE_MODULE_FORMAT_NATIVE takes back), and tells the two apart by the symbol
 * each exports.
 *
 * Included by the driver and by the kernel runtime compiled into every
 * module (builtins/rd_rt.c).
 */
#ifndef ZEIL_RD_COMPILED_H
#define ZEIL_RD_COMPILED_H

#include "rd_workitem.h"

#define RD_CM_MODULE_SYMBOL "zeil_cpu_cl_module"
#define RD_CM_ABI_VERSION 1u

/* What an argument is, from the kernel's signature and address spaces. */
typedef enum rd_cm_arg_kind {
    RD_CM_ARG_VALUE = 0,    /* scalar, vector or struct passed by value: size bytes */
    RD_CM_ARG_GLOBAL = 1,   /* global pointer (8 bytes; may be null) */
    RD_CM_ARG_CONSTANT = 2, /* constant pointer (8 bytes; may be null) */
    RD_CM_ARG_LOCAL = 3,    /* local pointer: set by size with a null value */
    RD_CM_ARG_OTHER = 4,    /* image, sampler, pipe, queue: refused at launch */
} rd_cm_arg_kind_t;

typedef struct rd_cm_arg {
    rd_u32 kind; /* rd_cm_arg_kind_t */
    rd_u32 size; /* bytes zeKernelSetArgumentValue expects (local: 0, any size) */
} rd_cm_arg_t;

/*
 * One work-item: makes st the calling thread's current state, loads the
 * arguments from args (args[i] points to the argument's bytes; for a local
 * argument, to a void * holding the group's buffer) and calls the kernel.
 */
typedef void (*rd_cm_item_fn)(const void *const *args, rd_wi_state_t *st);

/*
 * Work-items first .. first + count - 1 of the group, in linear local id
 * order, on the calling thread's stack: writes each one's per-work-item
 * fields into st, then calls the kernel. Only for groups that reach no
 * barrier and no sub-group collective. A compiled module's direct entry
 * runs a group of one row (local sizes 1 in y and z) on its own copy of st
 * instead, leaving st's local_id RD_WI_ID_UNKNOWN until it returns.
 */
typedef void (*rd_cm_direct_fn)(const void *const *args, rd_wi_state_t *st, rd_u32 first,
                                rd_u32 count);

typedef struct rd_cm_kernel {
    const char *name;
    rd_u32 num_args;
    const rd_cm_arg_t *args;
    rd_u32 reqd_group_size[3]; /* reqd_work_group_size, or 0s */
    rd_u32 reqd_sg_size;       /* intel_reqd_sub_group_size, or 0 */
    rd_u32 local_bytes;        /* kernel-scope __local variables */
    rd_u32 private_bytes;      /* an estimate of a work-item's stack */
    rd_cm_item_fn item;
    rd_cm_direct_fn direct;
    const char *attributes; /* as the source gave them, for zeKernelGetSourceAttributes */
} rd_cm_kernel_t;

/* A program-scope variable: what zeModuleGetGlobalPointer answers. */
typedef struct rd_cm_global {
    const char *name;
    void *address;
    rd_u64 size;
} rd_cm_global_t;

typedef struct rd_cm_module {
    rd_u32 abi_version;    /* RD_CM_ABI_VERSION */
    rd_u32 wi_abi_version; /* RD_WI_ABI_VERSION */
    rd_u32 num_kernels;
    rd_u32 num_globals;
    const rd_cm_kernel_t *kernels;
    const rd_cm_global_t *globals;
} rd_cm_module_t;

#endif
