/*
 * dnnl_compat.h: everything that depends on the oneDNN version: the memory
 * descriptor type, descriptor sizes and primitive queries. dnnl_compat.c
 * holds what 2.6 and 3.x share; what a memory descriptor holds is
 * dnnl_compat_md2.c (2.x, a public struct) or dnnl_compat_md3.c (3.x, opaque,
 * read through dnnl_memory_desc_query).
 */
#ifndef ZEIL_INTEROP_DNNL_COMPAT_H
#define ZEIL_INTEROP_DNNL_COMPAT_H

#include <stddef.h>
#include <stdint.h>
#include <zeil/dnnl_ze.h>

/* How many buffers a memory object can have in this oneDNN. */
#define COMPAT_MAX_MEMORY_HANDLES 1

/* Bytes the descriptor needs (0 for a null descriptor). */
size_t compat_md_size(dnnl_ze_interop_memory_desc_t md);

/* Why oneDNN refuses memory over md ("has format_kind any", "has runtime
 * dimensions or strides"), or null when it does not. */
const char *compat_md_unfit_for_memory(dnnl_ze_interop_memory_desc_t md);

/* Bytes the memory object's descriptor needs; 0 when it cannot be queried. */
size_t compat_memory_size(const_dnnl_memory_t memory);

/* The memory object's data type and dimensions (at most DNNL_MAX_NDIMS);
 * 0 when it cannot be queried. */
int compat_memory_shape(const_dnnl_memory_t memory, dnnl_data_type_t *data_type, int *ndims,
                        dnnl_dim_t dims[DNNL_MAX_NDIMS]);

/* What a primitive is: its engine, kind name ("eltwise") and implementation
 * ("jit:avx2"). The strings belong to oneDNN and live as long as the
 * primitive. */
typedef struct compat_primitive_info {
    dnnl_engine_t engine;
    const char *kind;
    const char *impl;
    const char *memory_args; /* not set here: execute.c describes the arguments */
} compat_primitive_info_t;

dnnl_status_t compat_primitive_info(const_dnnl_primitive_t primitive,
                                    compat_primitive_info_t *info);

/* Whether an execution argument is written (the hazard checks): DST*,
 * DIFF_* but DIFF_DST*, MULTIPLE_DST, the scratchpad, and the workspace when
 * forward_training; everything else is read. */
int compat_arg_is_written(int arg, int forward_training);
/* 1 when the primitive propagates forward for training (0 when it has no
 * propagation kind: reorders, sums, concats). */
int compat_is_forward_training(const_dnnl_primitive_t primitive);

/* The running oneDNN's version. */
typedef struct compat_version {
    uint32_t major, minor, patch;
    const char *hash;
} compat_version_t;

void compat_dnnl_version(compat_version_t *version);

/* A argument index as oneDNN names it ("DNNL_ARG_SRC"), or "argument". */
const char *compat_arg_name(int arg);

/* The shapes and data types of an execute's memory arguments, for traces:
 * "src f32 4x3x16x16, weights f32 8x3x3x3, dst f32 4x8x16x16" (scratchpad
 * left out). Writes at most cap bytes, always terminated. */
void compat_describe_args(int nargs, const dnnl_exec_arg_t *args, char *out, size_t cap);

/* oneDNN 2.6 built without DNNL_ENABLE_CONCURRENT_EXEC (Debian's) keeps a
 * primitive's library-mode scratchpad in thread-local storage of the thread
 * that created the primitive: executed on another thread (a driver worker)
 * it reads a null scratchpad and crashes. The worker therefore executes its
 * own instance, created on that thread from the same descriptor (a primitive
 * cache hit, yet about 4000 instructions with its destruction). *instance
 * is null when the primitive can run as it is: user scratchpad mode, or no
 * library scratchpad at all (memory_consumption 0: eltwise and other small
 * primitives, whose execute is dominated by fixed costs); otherwise the
 * caller destroys it after executing. */
dnnl_status_t compat_instance_for_this_thread(const_dnnl_primitive_t primitive,
                                              dnnl_primitive_t *instance);

#endif
