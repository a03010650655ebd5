/*
 * Lowering the linked spir64 program for the host (the triple and layout are
 * the host's already, set before linking):
 *  - SPIR calling conventions become C, on functions and on calls;
 *  - each __local variable (address space 3) becomes a thread-local variable
 *    of the same type: a thread runs one work-group at a time, with all of
 *    its work-items (fibers), so thread-local storage is the group's local
 *    memory. Its uses see it through an addrspacecast, a no-op on x86-64, as
 *    are the casts between the other OpenCL address spaces.
 */
#include "kc.h"

#include <stdlib.h>
#include <string.h>

static void calls_to_c(LLVMValueRef fn)
{
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in))
            if (LLVMIsACallInst(in) || LLVMIsAInvokeInst(in))
                LLVMSetInstructionCallConv(in, LLVMCCallConv);
}

static int local_to_thread_local(kc_program_t *p, LLVMValueRef g)
{
    LLVMTypeRef vt = LLVMGlobalGetValueType(g);
    size_t n = 0;
    char *name = strndup(LLVMGetValueName2(g, &n), n);
    if (!name)
        return kc_fail("out of memory");
    LLVMSetValueName2(g, "", 0);
    LLVMValueRef t = LLVMAddGlobalInAddressSpace(p->mod, vt, name, 0);
    free(name);
    LLVMSetInitializer(t, LLVMConstNull(vt));
    LLVMSetLinkage(t, LLVMInternalLinkage);
    LLVMSetThreadLocal(t, 1);
    unsigned align = LLVMGetAlignment(g);
    LLVMSetAlignment(t, align > 16 ? align : 16);
    LLVMReplaceAllUsesWith(g, LLVMConstAddrSpaceCast(t, LLVMTypeOf(g)));
    LLVMDeleteGlobal(g);
    return 1;
}

int kc_lower(kc_program_t *p)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(p->mod); f; f = LLVMGetNextFunction(f)) {
        LLVMSetFunctionCallConv(f, LLVMCCallConv);
        calls_to_c(f);
    }
    LLVMValueRef next;
    for (LLVMValueRef g = LLVMGetFirstGlobal(p->mod); g; g = next) {
        next = LLVMGetNextGlobal(g);
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 3 && !LLVMIsDeclaration(g))
            if (!local_to_thread_local(p, g))
                return 0;
    }
    return 1;
}
