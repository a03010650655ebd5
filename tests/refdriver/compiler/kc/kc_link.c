/* Reading bitcode files and linking them into the program. */
#include "kc.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>

LLVMModuleRef kc_read_bitcode(LLVMContextRef ctx, const char *path)
{
    LLVMMemoryBufferRef buf = NULL;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
        kc_fail("cannot read '%s': %s", path, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return NULL;
    }
    LLVMModuleRef mod = NULL;
    if (LLVMParseBitcodeInContext2(ctx, buf, &mod)) {
        kc_fail("'%s' is not valid LLVM bitcode", path);
        mod = NULL;
    }
    LLVMDisposeMemoryBuffer(buf);
    return mod;
}

/* A library read lazily: a function's body is read only when the linker
 * needs it. */
LLVMModuleRef kc_read_bitcode_lazy(LLVMContextRef ctx, const char *path)
{
    LLVMMemoryBufferRef buf = NULL;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
        kc_fail("cannot read '%s': %s", path, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return NULL;
    }
    LLVMModuleRef mod = NULL;
    if (LLVMGetBitcodeModuleInContext2(ctx, buf, &mod)) { /* the module owns buf from here */
        kc_fail("'%s' is not valid LLVM bitcode", path);
        return NULL;
    }
    return mod;
}

/* Makes every definition of a library linkonce_odr: the linker then takes
 * only what the program uses (and reads only those bodies). */
void kc_only_what_is_used(LLVMModuleRef lib)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(lib); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage)
            LLVMSetLinkage(f, LLVMLinkOnceODRLinkage);
    for (LLVMValueRef g = LLVMGetFirstGlobal(lib); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g) && LLVMGetLinkage(g) == LLVMExternalLinkage)
            LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
}

int kc_link(LLVMModuleRef dst, LLVMModuleRef src, const char *what)
{
    if (LLVMLinkModules2(dst, src))
        return kc_fail("linking '%s' failed", what);
    return 1;
}
