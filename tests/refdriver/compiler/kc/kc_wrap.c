/*
 * The two entries of each kernel (rd_compiled.h):
 *   item(args, st): rd_kc_enter(st), load the arguments, call the kernel;
 *   direct(args, st, first, count): rd_kc_enter(st), load the arguments
 *     once, then for each work-item rd_kc_first / rd_kc_next write its ids
 *     into st and the kernel is called.
 * rd_kc_* are the kernel runtime's (kc_rt.c), inlined by the optimiser.
 */
#include "kc.h"
#include "rd_compiled.h"

#include <stdio.h>
#include <stdlib.h>

static LLVMValueRef runtime_fn(kc_program_t *p, const char *name, LLVMTypeRef type)
{
    LLVMValueRef f = LLVMGetNamedFunction(p->mod, name);
    return f ? f : LLVMAddFunction(p->mod, name, type);
}

/* args[i] as the kernel's parameter i. */
static LLVMValueRef load_arg(kc_program_t *p, LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef args,
                             const kc_arg_t *a, unsigned i)
{
    LLVMTypeRef ptr = LLVMPointerTypeInContext(p->ctx, 0);
    LLVMValueRef idx = LLVMConstInt(LLVMInt64TypeInContext(p->ctx), i, 0);
    LLVMValueRef slot = LLVMBuildGEP2(b, ptr, args, &idx, 1, "");
    LLVMValueRef at = LLVMBuildLoad2(b, ptr, slot, "");
    if (a->byval)
        return at;
    if (a->kind == RD_CM_ARG_VALUE || a->kind == RD_CM_ARG_LOCAL) {
        LLVMValueRef v = LLVMBuildLoad2(b, a->type, at, "");
        LLVMSetAlignment(v, 1);
        return v;
    }
    /* A pointer argument set with a null value has a null args[i]. */
    LLVMBasicBlockRef here = LLVMGetInsertBlock(b);
    LLVMBasicBlockRef set = LLVMAppendBasicBlockInContext(p->ctx, fn, "");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(p->ctx, fn, "");
    LLVMBuildCondBr(b, LLVMBuildIsNull(b, at, ""), join, set);
    LLVMPositionBuilderAtEnd(b, set);
    LLVMValueRef v = LLVMBuildLoad2(b, a->type, at, "");
    LLVMSetAlignment(v, 1);
    LLVMBuildBr(b, join);
    LLVMPositionBuilderAtEnd(b, join);
    LLVMValueRef phi = LLVMBuildPhi(b, a->type, "");
    LLVMValueRef vals[2] = {LLVMConstNull(a->type), v};
    LLVMBasicBlockRef from[2] = {here, set};
    LLVMAddIncoming(phi, vals, from, 2);
    return phi;
}

static LLVMValueRef call_kernel(LLVMBuilderRef b, const kc_kernel_t *k, LLVMValueRef *vals)
{
    LLVMValueRef call =
        LLVMBuildCall2(b, LLVMGlobalGetValueType(k->fn), k->fn, vals, k->num_args, "");
    for (unsigned i = 0; i < k->num_args; i++)
        if (k->args[i].byval) {
            unsigned kind = LLVMGetEnumAttributeKindForName("byval", 5);
            LLVMAddCallSiteAttribute(
                call, i + 1,
                LLVMCreateTypeAttribute(LLVMGetModuleContext(LLVMGetGlobalParent(k->fn)), kind,
                                        k->args[i].byval));
        }
    return call;
}

static LLVMValueRef new_entry(kc_program_t *p, const char *kernel, const char *suffix,
                              LLVMTypeRef type)
{
    char name[512];
    snprintf(name, sizeof name, "__zeil_%s_%s", suffix, kernel);
    LLVMValueRef f = LLVMAddFunction(p->mod, name, type);
    LLVMSetFunctionCallConv(f, LLVMCCallConv);
    return f;
}

/*
 * The 1-D direct loop, out of line (noinline, so kc_state.c finds it):
 * __zeil_d1_K(args, st, first, count) copies st into its own block, makes
 * it the thread's state (rd_kc_d1_enter), writes each work-item's ids into
 * it (rd_kc_seek1, no division for the ids) and calls the kernel; at the end
 * st is the thread's state again. Once kc_state.c has made the kernel read
 * the copy directly, the copy needs no memory when nothing out of line
 * reads it, so the loop vectorises.
 */
static LLVMValueRef direct_1d(kc_program_t *p, kc_kernel_t *k, LLVMBuilderRef b, LLVMValueRef *vals)
{
    LLVMContextRef c = p->ctx;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i32 = LLVMInt32TypeInContext(c);
    LLVMTypeRef vd = LLVMVoidTypeInContext(c);
    LLVMTypeRef two_ptrs[2] = {ptr, ptr}, ptr_i32[2] = {ptr, i32};
    LLVMTypeRef enter_t = LLVMFunctionType(vd, &ptr, 1, 0);
    LLVMTypeRef d1_enter_t = LLVMFunctionType(vd, two_ptrs, 2, 0);
    LLVMTypeRef seek_t = LLVMFunctionType(vd, ptr_i32, 2, 0);
    LLVMTypeRef params[4] = {ptr, ptr, i32, i32};
    LLVMValueRef d = new_entry(p, k->name, "d1", LLVMFunctionType(vd, params, 4, 0));
    unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    LLVMAddAttributeAtIndex(d, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, noinline, 0));
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, d, "entry"));
    LLVMValueRef st = LLVMGetParam(d, 1), first = LLVMGetParam(d, 2), count = LLVMGetParam(d, 3);
    LLVMValueRef priv =
        LLVMBuildAlloca(b, LLVMArrayType(LLVMInt8TypeInContext(c), sizeof(rd_wi_state_t)), "priv");
    LLVMSetAlignment(priv, 16);
    for (unsigned i = 0; i < k->num_args; i++)
        vals[i] = load_arg(p, b, d, LLVMGetParam(d, 0), &k->args[i], i);
    LLVMValueRef both[2] = {priv, st};
    LLVMBuildCall2(b, d1_enter_t, runtime_fn(p, "rd_kc_d1_enter", d1_enter_t), both, 2, "");
    LLVMBasicBlockRef head = LLVMGetInsertBlock(b);
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(c, d, "loop");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c, d, "done");
    LLVMBuildBr(b, loop);
    LLVMPositionBuilderAtEnd(b, loop);
    LLVMValueRef i = LLVMBuildPhi(b, i32, "i");
    LLVMValueRef seek[2] = {priv, LLVMBuildAdd(b, first, i, "")};
    LLVMBuildCall2(b, seek_t, runtime_fn(p, "rd_kc_seek1", seek_t), seek, 2, "");
    call_kernel(b, k, vals);
    LLVMValueRef i1 = LLVMBuildAdd(b, i, LLVMConstInt(i32, 1, 0), "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, i1, count, ""), loop, done);
    LLVMValueRef in_vals[2] = {LLVMConstInt(i32, 0, 0), i1};
    LLVMBasicBlockRef in_from[2] = {head, loop};
    LLVMAddIncoming(i, in_vals, in_from, 2);
    LLVMPositionBuilderAtEnd(b, done);
    LLVMBuildCall2(b, enter_t, runtime_fn(p, "rd_kc_enter", enter_t), &st, 1, "");
    LLVMBuildRetVoid(b);
    return d;
}

static int wrap_kernel(kc_program_t *p, kc_kernel_t *k, LLVMBuilderRef b)
{
    LLVMContextRef c = p->ctx;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i32 = LLVMInt32TypeInContext(c);
    LLVMTypeRef vd = LLVMVoidTypeInContext(c);
    LLVMTypeRef enter_t = LLVMFunctionType(vd, &ptr, 1, 0);
    LLVMTypeRef first_params[2] = {ptr, i32};
    LLVMTypeRef first_t = LLVMFunctionType(vd, first_params, 2, 0);
    LLVMValueRef enter = runtime_fn(p, "rd_kc_enter", enter_t);
    LLVMValueRef first = runtime_fn(p, "rd_kc_first", first_t);
    LLVMValueRef next = runtime_fn(p, "rd_kc_next", enter_t);
    LLVMValueRef *vals = calloc(k->num_args ? k->num_args : 1, sizeof *vals);
    if (!vals)
        return kc_fail("out of memory");

    LLVMTypeRef item_params[2] = {ptr, ptr};
    k->item = new_entry(p, k->name, "item", LLVMFunctionType(vd, item_params, 2, 0));
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, k->item, "entry"));
    LLVMValueRef st = LLVMGetParam(k->item, 1);
    LLVMBuildCall2(b, enter_t, enter, &st, 1, "");
    for (unsigned i = 0; i < k->num_args; i++)
        vals[i] = load_arg(p, b, k->item, LLVMGetParam(k->item, 0), &k->args[i], i);
    call_kernel(b, k, vals);
    LLVMBuildRetVoid(b);

    k->d1 = direct_1d(p, k, b, vals);
    LLVMTypeRef direct_params[4] = {ptr, ptr, i32, i32};
    k->direct = new_entry(p, k->name, "direct", LLVMFunctionType(vd, direct_params, 4, 0));
    LLVMValueRef d = k->direct;
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c, d, "entry");
    LLVMPositionBuilderAtEnd(b, entry);
    st = LLVMGetParam(d, 1);
    LLVMValueRef count = LLVMGetParam(d, 3);
    LLVMBuildCall2(b, enter_t, enter, &st, 1, "");
    for (unsigned i = 0; i < k->num_args; i++)
        vals[i] = load_arg(p, b, d, LLVMGetParam(d, 0), &k->args[i], i);
    LLVMBasicBlockRef start = LLVMAppendBasicBlockInContext(c, d, "start");
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(c, d, "loop");
    LLVMBasicBlockRef step = LLVMAppendBasicBlockInContext(c, d, "step");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c, d, "done");
    LLVMBasicBlockRef one_row = LLVMAppendBasicBlockInContext(c, d, "one_row");
    LLVMBasicBlockRef rows = LLVMAppendBasicBlockInContext(c, d, "rows");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, count, LLVMConstInt(i32, 0, 0), ""), done, rows);
    LLVMPositionBuilderAtEnd(b, rows);
    LLVMTypeRef is_1d_t = LLVMFunctionType(i32, &ptr, 1, 0);
    LLVMValueRef is_1d =
        LLVMBuildCall2(b, is_1d_t, runtime_fn(p, "rd_kc_is_1d", is_1d_t), &st, 1, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, is_1d, LLVMConstInt(i32, 0, 0), ""), one_row,
                    start);
    LLVMPositionBuilderAtEnd(b, one_row);
    LLVMValueRef d1_args[4] = {LLVMGetParam(d, 0), st, LLVMGetParam(d, 2), count};
    LLVMTypeRef d1_t = LLVMGlobalGetValueType(k->d1);
    LLVMBuildCall2(b, d1_t, k->d1, d1_args, 4, "");
    LLVMBuildBr(b, done);
    LLVMPositionBuilderAtEnd(b, start);
    LLVMValueRef fargs[2] = {st, LLVMGetParam(d, 2)};
    LLVMBuildCall2(b, first_t, first, fargs, 2, "");
    LLVMBuildBr(b, loop);
    LLVMPositionBuilderAtEnd(b, loop);
    LLVMValueRef i = LLVMBuildPhi(b, i32, "i");
    call_kernel(b, k, vals);
    LLVMValueRef i1 = LLVMBuildAdd(b, i, LLVMConstInt(i32, 1, 0), "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, i1, count, ""), step, done);
    LLVMPositionBuilderAtEnd(b, step);
    LLVMBuildCall2(b, enter_t, next, &st, 1, "");
    LLVMBuildBr(b, loop);
    LLVMValueRef in_vals[2] = {LLVMConstInt(i32, 0, 0), i1};
    LLVMBasicBlockRef in_from[2] = {start, step};
    LLVMAddIncoming(i, in_vals, in_from, 2);
    LLVMPositionBuilderAtEnd(b, done);
    LLVMBuildRetVoid(b);
    free(vals);
    return 1;
}

int kc_wrap(kc_program_t *p)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(p->ctx);
    int ok = 1;
    for (uint32_t i = 0; ok && i < p->num_kernels; i++)
        ok = wrap_kernel(p, &p->kernels[i], b);
    LLVMDisposeBuilder(b);
    return ok;
}
