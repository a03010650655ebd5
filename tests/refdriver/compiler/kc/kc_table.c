/*
 * The exported table (rd_compiled.h): RD_CM_MODULE_SYMBOL, an rd_cm_module_t
 * listing every kernel (name, arguments, attributes, entries) and every
 * program-scope variable (name, address, size).
 */
#include "kc.h"
#include "rd_compiled.h"

#include <stdlib.h>
#include <string.h>

static LLVMValueRef cstring(kc_program_t *p, const char *s)
{
    LLVMValueRef init = LLVMConstStringInContext(p->ctx, s, (unsigned)strlen(s), 0);
    LLVMValueRef g = LLVMAddGlobal(p->mod, LLVMTypeOf(init), ".zeil.str");
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    return g;
}

static LLVMValueRef u32(kc_program_t *p, uint32_t v)
{
    return LLVMConstInt(LLVMInt32TypeInContext(p->ctx), v, 0);
}

static LLVMValueRef const_array_global(kc_program_t *p, LLVMTypeRef elem, LLVMValueRef *vals,
                                       unsigned n, const char *name)
{
    if (n == 0)
        return LLVMConstNull(LLVMPointerTypeInContext(p->ctx, 0));
    LLVMValueRef init = LLVMConstArray(elem, vals, n);
    LLVMValueRef g = LLVMAddGlobal(p->mod, LLVMTypeOf(init), name);
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    return g;
}

static LLVMValueRef kernel_entry(kc_program_t *p, LLVMTypeRef kt, const kc_kernel_t *k)
{
    LLVMContextRef c = p->ctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    LLVMTypeRef at_fields[2] = {i32, i32};
    LLVMTypeRef at = LLVMStructTypeInContext(c, at_fields, 2, 0);
    LLVMValueRef args[256];
    unsigned n = k->num_args < 256 ? k->num_args : 256;
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef f[2] = {u32(p, k->args[i].kind), u32(p, k->args[i].size)};
        args[i] = LLVMConstNamedStruct(at, f, 2);
    }
    LLVMValueRef reqd[3] = {u32(p, k->reqd_group_size[0]), u32(p, k->reqd_group_size[1]),
                            u32(p, k->reqd_group_size[2])};
    LLVMValueRef fields[10] = {
        cstring(p, k->name),
        u32(p, k->num_args),
        const_array_global(p, at, args, n, ".zeil.args"),
        LLVMConstArray(i32, reqd, 3),
        u32(p, k->reqd_sg_size),
        u32(p, k->local_bytes),
        u32(p, k->private_bytes),
        k->item,
        k->direct,
        cstring(p, k->attributes),
    };
    return LLVMConstNamedStruct(kt, fields, 10);
}

int kc_table(kc_program_t *p)
{
    LLVMContextRef c = p->ctx;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i32 = LLVMInt32TypeInContext(c);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
    LLVMTypeRef kt = LLVMStructCreateNamed(c, "rd_cm_kernel");
    LLVMTypeRef kt_fields[10] = {ptr, i32, ptr, LLVMArrayType(i32, 3), i32, i32, i32,
                                 ptr, ptr, ptr};
    LLVMStructSetBody(kt, kt_fields, 10, 0);
    LLVMTypeRef gt = LLVMStructCreateNamed(c, "rd_cm_global");
    LLVMTypeRef gt_fields[3] = {ptr, ptr, i64};
    LLVMStructSetBody(gt, gt_fields, 3, 0);
    LLVMTypeRef mt = LLVMStructCreateNamed(c, "rd_cm_module");
    LLVMTypeRef mt_fields[6] = {i32, i32, i32, i32, ptr, ptr};
    LLVMStructSetBody(mt, mt_fields, 6, 0);

    LLVMValueRef *ks = calloc(p->num_kernels ? p->num_kernels : 1, sizeof *ks);
    LLVMValueRef *gs = calloc(p->num_globals ? p->num_globals : 1, sizeof *gs);
    if (!ks || !gs)
        return kc_fail("out of memory");
    for (uint32_t i = 0; i < p->num_kernels; i++) {
        if (p->kernels[i].num_args > 256)
            return kc_fail("kernel '%s' has more than 256 arguments", p->kernels[i].name);
        ks[i] = kernel_entry(p, kt, &p->kernels[i]);
    }
    for (uint32_t i = 0; i < p->num_globals; i++) {
        const kc_global_t *g = &p->globals[i];
        LLVMValueRef addr = LLVMConstAddrSpaceCast(g->var, ptr);
        LLVMValueRef f[3] = {cstring(p, g->name), addr, LLVMConstInt(i64, g->size, 0)};
        gs[i] = LLVMConstNamedStruct(gt, f, 3);
    }
    LLVMValueRef m[6] = {
        u32(p, RD_CM_ABI_VERSION),
        u32(p, RD_WI_ABI_VERSION),
        u32(p, p->num_kernels),
        u32(p, p->num_globals),
        const_array_global(p, kt, ks, p->num_kernels, ".zeil.kernels"),
        const_array_global(p, gt, gs, p->num_globals, ".zeil.globals"),
    };
    LLVMValueRef table = LLVMAddGlobal(p->mod, mt, RD_CM_MODULE_SYMBOL);
    LLVMSetInitializer(table, LLVMConstNamedStruct(mt, m, 6));
    LLVMSetGlobalConstant(table, 1);
    LLVMSetVisibility(table, LLVMDefaultVisibility);
    free(ks);
    free(gs);
    return 1;
}
