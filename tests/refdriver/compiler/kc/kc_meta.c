/*
 * What each kernel is, read from the spir64 program before it is lowered:
 * its arguments (kind from the address space and the OpenCL type, size in
 * the host's layout), its attributes, its kernel-scope local bytes and an
 * estimate of its private bytes; and the program-scope variables.
 */
#include "kc.h"
#include "rd_compiled.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KC_CC_SPIR_KERNEL 76u

enum {
    KC_AS_PRIVATE = 0,
    KC_AS_GLOBAL = 1,
    KC_AS_CONSTANT = 2,
    KC_AS_LOCAL = 3
};

/* The metadata node of that kind on the function, as a value, or null. */
static LLVMValueRef fn_md(LLVMContextRef ctx, LLVMValueRef fn, const char *kind)
{
    unsigned id = LLVMGetMDKindIDInContext(ctx, kind, (unsigned)strlen(kind));
    size_t n = 0;
    LLVMValueMetadataEntry *entries = LLVMGlobalCopyAllMetadata(fn, &n);
    LLVMValueRef v = NULL;
    for (unsigned i = 0; i < n && !v; i++)
        if (LLVMValueMetadataEntriesGetKind(entries, i) == id)
            v = LLVMMetadataAsValue(ctx, LLVMValueMetadataEntriesGetMetadata(entries, i));
    if (entries)
        LLVMDisposeValueMetadataEntries(entries);
    return v;
}

/* Operand i of a node of integers, or def. */
static uint32_t md_int(LLVMValueRef node, unsigned i, uint32_t def)
{
    if (!node || i >= LLVMGetMDNodeNumOperands(node))
        return def;
    LLVMValueRef ops[16];
    if (LLVMGetMDNodeNumOperands(node) > 16)
        return def;
    LLVMGetMDNodeOperands(node, ops);
    if (!ops[i] || !LLVMIsAConstantInt(ops[i]))
        return def;
    return (uint32_t)LLVMConstIntGetZExtValue(ops[i]);
}

/* Operand i of a node of strings (kernel_arg_type), or null. */
static const char *md_str(LLVMValueRef node, unsigned i)
{
    unsigned n = node ? LLVMGetMDNodeNumOperands(node) : 0;
    if (i >= n)
        return NULL;
    LLVMValueRef *ops = calloc(n, sizeof *ops);
    if (!ops)
        return NULL;
    LLVMGetMDNodeOperands(node, ops);
    unsigned len = 0;
    const char *s = ops[i] ? LLVMGetMDString(ops[i], &len) : NULL;
    free(ops);
    return s;
}

/* An OpenCL type the driver cannot pass: image, sampler, pipe, queue, event. */
static int other_type(const char *t)
{
    static const char *const names[] = {"image",   "sampler_t",   "pipe",
                                        "queue_t", "clk_event_t", "reserve_id_t"};
    for (size_t i = 0; t && i < sizeof names / sizeof *names; i++)
        if (strstr(t, names[i]))
            return 1;
    return 0;
}

static void read_arg(kc_program_t *p, LLVMValueRef fn, unsigned i, const char *cl_type, kc_arg_t *a)
{
    LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(fn, i));
    static unsigned byval_kind;
    if (!byval_kind)
        byval_kind = LLVMGetEnumAttributeKindForName("byval", 5);
    LLVMAttributeRef byval = LLVMGetEnumAttributeAtIndex(fn, i + 1, byval_kind);
    a->type = t;
    a->byval = byval ? LLVMGetTypeAttributeValue(byval) : NULL;
    if (other_type(cl_type)) {
        a->kind = RD_CM_ARG_OTHER;
        a->size = 8;
    } else if (a->byval) {
        a->kind = RD_CM_ARG_VALUE;
        a->size = (uint32_t)LLVMABISizeOfType(p->layout, a->byval);
    } else if (LLVMGetTypeKind(t) == LLVMPointerTypeKind) {
        unsigned as = LLVMGetPointerAddressSpace(t);
        a->kind = as == KC_AS_LOCAL      ? RD_CM_ARG_LOCAL
                  : as == KC_AS_CONSTANT ? RD_CM_ARG_CONSTANT
                                         : RD_CM_ARG_GLOBAL;
        a->size = as == KC_AS_LOCAL ? 0 : 8;
    } else {
        a->kind = RD_CM_ARG_VALUE;
        a->size = (uint32_t)LLVMABISizeOfType(p->layout, t);
    }
}

/* Bytes of the module's __local variables that belong to the kernel (clang
 * and llvm-spirv name them "kernel.variable"). */
static uint32_t local_bytes(kc_program_t *p, const char *kernel)
{
    size_t len = strlen(kernel);
    uint64_t sum = 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(p->mod); g; g = LLVMGetNextGlobal(g)) {
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) != KC_AS_LOCAL)
            continue;
        size_t n = 0;
        const char *name = LLVMGetValueName2(g, &n);
        if (n > len && strncmp(name, kernel, len) == 0 && name[len] == '.')
            sum += LLVMABISizeOfType(p->layout, LLVMGlobalGetValueType(g));
    }
    return (uint32_t)sum;
}

/* The kernel's own allocas, in bytes: a lower bound of its stack. */
static uint32_t private_bytes(kc_program_t *p, LLVMValueRef fn)
{
    uint64_t sum = 0;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in))
            if (LLVMGetInstructionOpcode(in) == LLVMAlloca)
                sum += LLVMABISizeOfType(p->layout, LLVMGetAllocatedType(in));
    return (uint32_t)sum;
}

static char *attributes(const kc_kernel_t *k, LLVMValueRef hint)
{
    char buf[256];
    size_t n = 0;
    buf[0] = 0;
    if (k->reqd_group_size[0])
        n += (size_t)snprintf(buf + n, sizeof buf - n, "reqd_work_group_size(%u,%u,%u)",
                              k->reqd_group_size[0], k->reqd_group_size[1], k->reqd_group_size[2]);
    if (hint && n < sizeof buf)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%swork_group_size_hint(%u,%u,%u)",
                              n ? " " : "", md_int(hint, 0, 1), md_int(hint, 1, 1),
                              md_int(hint, 2, 1));
    if (k->reqd_sg_size && n < sizeof buf)
        snprintf(buf + n, sizeof buf - n, "%sintel_reqd_sub_group_size(%u)", n ? " " : "",
                 k->reqd_sg_size);
    return strdup(buf);
}

static int read_kernel(kc_program_t *p, LLVMValueRef fn, kc_kernel_t *k)
{
    size_t len = 0;
    const char *name = LLVMGetValueName2(fn, &len);
    k->name = strndup(name, len);
    k->fn = fn;
    k->num_args = LLVMCountParams(fn);
    k->args = calloc(k->num_args ? k->num_args : 1, sizeof *k->args);
    if (!k->name || !k->args)
        return kc_fail("out of memory");
    LLVMValueRef types = fn_md(p->ctx, fn, "kernel_arg_type");
    for (unsigned i = 0; i < k->num_args; i++)
        read_arg(p, fn, i, md_str(types, i), &k->args[i]);
    LLVMValueRef reqd = fn_md(p->ctx, fn, "reqd_work_group_size");
    for (unsigned d = 0; reqd && d < 3; d++)
        k->reqd_group_size[d] = md_int(reqd, d, 1);
    k->reqd_sg_size = md_int(fn_md(p->ctx, fn, "intel_reqd_sub_group_size"), 0, 0);
    k->local_bytes = local_bytes(p, k->name);
    k->private_bytes = private_bytes(p, fn);
    k->attributes = attributes(k, fn_md(p->ctx, fn, "work_group_size_hint"));
    return k->attributes != NULL || kc_fail("out of memory");
}

int kc_read_kernels(kc_program_t *p)
{
    uint32_t n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(p->mod); f; f = LLVMGetNextFunction(f))
        if (LLVMGetFunctionCallConv(f) == KC_CC_SPIR_KERNEL && !LLVMIsDeclaration(f))
            n++;
    p->kernels = calloc(n ? n : 1, sizeof *p->kernels);
    if (!p->kernels)
        return kc_fail("out of memory");
    for (LLVMValueRef f = LLVMGetFirstFunction(p->mod); f; f = LLVMGetNextFunction(f))
        if (LLVMGetFunctionCallConv(f) == KC_CC_SPIR_KERNEL && !LLVMIsDeclaration(f))
            if (!read_kernel(p, f, &p->kernels[p->num_kernels++]))
                return 0;
    return 1;
}

/* A variable the program declared at program scope in __global or
 * __constant (not a string literal or the compiler's own). */
static int program_variable(LLVMValueRef g, const char **name)
{
    size_t n = 0;
    *name = LLVMGetValueName2(g, &n);
    unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(g));
    if ((as != KC_AS_GLOBAL && as != KC_AS_CONSTANT) || n == 0 || LLVMIsDeclaration(g))
        return 0;
    if ((*name)[0] == '.' || strncmp(*name, "llvm.", 5) == 0 || strncmp(*name, "__", 2) == 0)
        return 0;
    return LLVMGetLinkage(g) != LLVMPrivateLinkage;
}

int kc_read_globals(kc_program_t *p)
{
    uint32_t n = 0;
    const char *name;
    for (LLVMValueRef g = LLVMGetFirstGlobal(p->mod); g; g = LLVMGetNextGlobal(g))
        n += (uint32_t)program_variable(g, &name);
    p->globals = calloc(n ? n : 1, sizeof *p->globals);
    if (!p->globals)
        return kc_fail("out of memory");
    for (LLVMValueRef g = LLVMGetFirstGlobal(p->mod); g; g = LLVMGetNextGlobal(g)) {
        if (!program_variable(g, &name))
            continue;
        kc_global_t *v = &p->globals[p->num_globals++];
        v->name = strdup(name);
        v->var = g;
        v->size = LLVMABISizeOfType(p->layout, LLVMGlobalGetValueType(g));
        if (!v->name)
            return kc_fail("out of memory");
    }
    return 1;
}
