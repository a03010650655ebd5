/*
 * The state pointer passed through: after the first optimisation has
 * inlined a kernel into its entries, each call the entry still makes to
 * __zeil_rt_state (the kernel runtime's thread-local state, a
 * __tls_get_addr in a loaded module) becomes the entry's own st parameter,
 * which rd_kc_enter has just made the thread's state: the same pointer, so
 * built-ins left out of line (which still read the thread-local one) agree.
 * The optimiser then sees work-item ids as plain loads from st, computed
 * once per item in the direct loop instead of a call per built-in. The 1-D
 * direct loop (kc_wrap.c's __zeil_d1_*) reads its own copy instead.
 */
#include "kc.h"

#include <stdlib.h>

/* The call's uses that turn the integer back into a pointer use st itself
 * (cast to their address space), so the optimiser follows the pointer. */
static void as_pointers(LLVMBuilderRef bld, LLVMValueRef call, LLVMValueRef st)
{
    LLVMUseRef next;
    for (LLVMUseRef u = LLVMGetFirstUse(call); u; u = next) {
        next = LLVMGetNextUse(u);
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAIntToPtrInst(user))
            continue;
        LLVMPositionBuilderBefore(bld, user);
        LLVMTypeRef to = LLVMTypeOf(user);
        LLVMValueRef v = to == LLVMTypeOf(st) ? st : LLVMBuildAddrSpaceCast(bld, st, to, "");
        LLVMReplaceAllUsesWith(user, v);
        LLVMInstructionEraseFromParent(user);
    }
}

/* Replaces the calls to rt_state in fn by st (as the integer it returns):
 * how many. */
static unsigned pass_state(LLVMValueRef fn, LLVMValueRef rt_state, LLVMValueRef st)
{
    unsigned n = 0;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
        LLVMValueRef next;
        for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = next) {
            next = LLVMGetNextInstruction(in);
            if (!LLVMIsACallInst(in) || LLVMGetCalledValue(in) != rt_state)
                continue;
            LLVMBuilderRef bld =
                LLVMCreateBuilderInContext(LLVMGetModuleContext(LLVMGetGlobalParent(fn)));
            as_pointers(bld, in, st);
            LLVMPositionBuilderBefore(bld, in);
            LLVMValueRef v = LLVMBuildPtrToInt(bld, st, LLVMTypeOf(in), "");
            LLVMDisposeBuilder(bld);
            LLVMReplaceAllUsesWith(in, v);
            LLVMInstructionEraseFromParent(in);
            n++;
        }
    }
    return n;
}

/* The pointer fn's first call to set_state passes: the 1-D loop's copy. */
static LLVMValueRef first_state_set(LLVMValueRef fn, LLVMValueRef set_state)
{
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in))
            if (LLVMIsACallInst(in) && LLVMGetCalledValue(in) == set_state)
                return LLVMGetOperand(in, 0);
    return NULL;
}

/* Whether fn calls anything but set_state and LLVM's intrinsics: code out
 * of line that may read the thread's state. */
static int calls_out(LLVMValueRef fn, LLVMValueRef set_state)
{
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in)) {
            if (!LLVMIsACallInst(in) && !LLVMIsAInvokeInst(in))
                continue;
            LLVMValueRef callee = LLVMGetCalledValue(in);
            if (callee == set_state)
                continue;
            if (!LLVMIsAFunction(callee) || LLVMGetIntrinsicID(callee) == 0)
                return 1;
        }
    return 0;
}

static void drop_calls(LLVMValueRef fn, LLVMValueRef callee)
{
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
        LLVMValueRef next;
        for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = next) {
            next = LLVMGetNextInstruction(in);
            if (LLVMIsACallInst(in) && LLVMGetCalledValue(in) == callee)
                LLVMInstructionEraseFromParent(in);
        }
    }
}

/* The 1-D loop reads its own copy of the state; when nothing out of line
 * can read the thread's state meanwhile, the copy need not be published
 * (the thread's state stays st, set by the direct entry), so it lives in
 * registers. Without a set_state call found, the calls stay: they read the
 * copy through the thread's state. */
static unsigned pass_copy(LLVMValueRef d1, LLVMValueRef rt_state, LLVMValueRef set_state)
{
    LLVMValueRef priv = set_state ? first_state_set(d1, set_state) : NULL;
    if (!priv)
        return 0;
    unsigned n = pass_state(d1, rt_state, priv);
    if (!calls_out(d1, set_state))
        drop_calls(d1, set_state);
    return n + 1;
}

unsigned kc_pass_state(kc_program_t *p)
{
    LLVMValueRef rt_state = LLVMGetNamedFunction(p->mod, "__zeil_rt_state");
    if (!rt_state)
        return 0;
    unsigned n = 0;
    for (uint32_t i = 0; i < p->num_kernels; i++) {
        const kc_kernel_t *k = &p->kernels[i];
        if (k->item)
            n += pass_state(k->item, rt_state, LLVMGetParam(k->item, 1));
        if (k->direct)
            n += pass_state(k->direct, rt_state, LLVMGetParam(k->direct, 1));
        if (k->d1)
            n += pass_copy(k->d1, rt_state, LLVMGetNamedFunction(p->mod, "rd_rt_set_state"));
    }
    return n;
}

/* Before the first optimisation: __zeil_rt_state stays a call until
 * kc_pass_state has seen it. */
void kc_keep_state_calls(kc_program_t *p)
{
    LLVMValueRef rt_state = LLVMGetNamedFunction(p->mod, "__zeil_rt_state");
    if (rt_state && !LLVMIsDeclaration(rt_state)) {
        unsigned kind = LLVMGetEnumAttributeKindForName("noinline", 8);
        LLVMAddAttributeAtIndex(rt_state, LLVMAttributeFunctionIndex,
                                LLVMCreateEnumAttribute(p->ctx, kind, 0));
    }
}
