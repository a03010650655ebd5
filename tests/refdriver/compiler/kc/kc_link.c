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

int kc_link(LLVMModuleRef dst, LLVMModuleRef src, const char *what)
{
    if (LLVMLinkModules2(dst, src))
        return kc_fail("linking '%s' failed", what);
    return 1;
}
