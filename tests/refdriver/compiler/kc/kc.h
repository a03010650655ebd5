/*
 * kc.h: zeil-cpu-kc, the reference driver's kernel compiler back end. It
 * turns a kernel program as LLVM bitcode for spir64 (from clang or
 * llvm-spirv) into an object file for the host, exporting the table of
 * execution/rd_compiled.h. A separate executable over the LLVM-C API: the
 * driver runs it as a process and never links LLVM (see ../../README.md).
 *
 * The steps, one file each: kc_link.c (read and link the bitcode),
 * kc_meta.c (what each kernel is: arguments, attributes, locals, globals,
 * read before lowering), kc_lower.c (retarget to the host, calling
 * conventions, address spaces), kc_wrap.c (the item and direct entries per
 * kernel), kc_table.c (the exported table), kc_emit.c (optimise, write the
 * object).
 */
#ifndef ZEIL_KC_H
#define ZEIL_KC_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <stddef.h>
#include <stdint.h>

#define KC_HOST_TRIPLE "x86_64-unknown-linux-gnu"

/* Reports an error on stderr (prefixed "zeil-cpu-kc: ") and returns 0. */
int kc_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* kc_link.c */
LLVMModuleRef kc_read_bitcode(LLVMContextRef ctx, const char *path);
LLVMModuleRef kc_read_bitcode_lazy(LLVMContextRef ctx, const char *path);
void kc_only_what_is_used(LLVMModuleRef lib);
/* Links src into dst (src is consumed). */
int kc_link(LLVMModuleRef dst, LLVMModuleRef src, const char *what);

/* kc_meta.c: what the table says of a kernel, read before lowering. */
typedef struct kc_arg {
    uint32_t kind; /* rd_cm_arg_kind_t */
    uint32_t size;
    LLVMTypeRef type;  /* the parameter's type */
    LLVMTypeRef byval; /* the byval type, or null */
} kc_arg_t;

typedef struct kc_kernel {
    char *name;
    LLVMValueRef fn;
    uint32_t num_args;
    kc_arg_t *args;
    uint32_t reqd_group_size[3];
    uint32_t reqd_sg_size;
    uint32_t local_bytes;
    uint32_t private_bytes;
    char *attributes;
    LLVMValueRef item, direct, d1; /* kc_wrap.c (d1: the 1-D direct loop) */
} kc_kernel_t;

typedef struct kc_global {
    char *name;
    LLVMValueRef var;
    uint64_t size;
} kc_global_t;

typedef struct kc_program {
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMTargetDataRef layout; /* the host's */
    uint32_t num_kernels, num_globals;
    kc_kernel_t *kernels;
    kc_global_t *globals;
} kc_program_t;

int kc_read_kernels(kc_program_t *p);
int kc_read_globals(kc_program_t *p);

/* kc_lower.c */
int kc_lower(kc_program_t *p);
/* kc_wrap.c */
int kc_wrap(kc_program_t *p);
/* kc_table.c */
int kc_table(kc_program_t *p);
/* kc_state.c: before optimising, keep __zeil_rt_state out of line; after,
 * replace its calls in the entries by their st parameter (how many). */
void kc_keep_state_calls(kc_program_t *p);
unsigned kc_pass_state(kc_program_t *p);

/* kc_emit.c: internalises all but the table, optimises, writes the object. */
int kc_emit(kc_program_t *p, const char *out_path, int opt_level);
LLVMTargetMachineRef kc_host_machine(int opt_level);

#endif
