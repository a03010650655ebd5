/*
 * The state pointer passed through: after the first optimisation has
 * inlined a kernel into its entries, each call the entry still makes to
 * __zeil_rt_state (the kernel runtime's thread-local state, a
 * __tls_get_addr in a loaded module) becomes the entry's own st parameter,
 * which rd_kc_enter has just made the thread's state: the same pointer, so
 * built-ins left out of line (which still read the thread-local one) agree.
 * The optimiser then sees work-item ids as plain loads from st, computed
 * once per item in the direct loop instead of a call per built-in.
 */
#include "kc.h"

#include <stdlib.h>

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
            LLVMBuilderRef bld = LLVMCreateBuilderInContext(LLVMGetModuleContext(LLVMGetGlobalParent(fn)));
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
