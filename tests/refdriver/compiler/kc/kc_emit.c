/*
 * The end of the pipeline: everything but the table becomes internal (so the
 * optimiser inlines the kernels into their entries and drops the built-ins
 * nobody calls), the module is verified and optimised (twice when the entries
 * pass their state pointer to the inlined kernels, kc_state.c), and the
 * host's object file is written.
 */
#include "kc.h"
#include "rd_compiled.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <string.h>

LLVMTargetMachineRef kc_host_machine(int opt_level)
{
    LLVMTargetRef target = NULL;
    char *msg = NULL;
    if (LLVMGetTargetFromTriple(KC_HOST_TRIPLE, &target, &msg)) {
        kc_fail("no x86-64 target in this LLVM: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return NULL;
    }
    char *cpu = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
    LLVMTargetMachineRef tm =
        LLVMCreateTargetMachine(target, KC_HOST_TRIPLE, cpu, features,
                                opt_level ? LLVMCodeGenLevelDefault : LLVMCodeGenLevelNone,
                                LLVMRelocPIC, LLVMCodeModelDefault);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    if (!tm)
        kc_fail("cannot create a target machine for the host");
    return tm;
}

static void internalize(LLVMModuleRef mod)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            LLVMSetLinkage(f, LLVMInternalLinkage);
    for (LLVMValueRef g = LLVMGetFirstGlobal(mod); g; g = LLVMGetNextGlobal(g)) {
        size_t n = 0;
        const char *name = LLVMGetValueName2(g, &n);
        if (LLVMIsDeclaration(g) || strcmp(name, RD_CM_MODULE_SYMBOL) == 0 ||
            strncmp(name, "llvm.", 5) == 0)
            continue;
        if (LLVMGetLinkage(g) != LLVMPrivateLinkage)
            LLVMSetLinkage(g, LLVMInternalLinkage);
    }
}

/* OpenCL built-ins the program calls that no library defines: named in the
 * error, since the shared object would not load. */
static int undefined_builtins(LLVMModuleRef mod)
{
    int missing = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
        size_t n = 0;
        const char *name = LLVMGetValueName2(f, &n);
        if (!LLVMIsDeclaration(f) || !LLVMGetFirstUse(f))
            continue;
        if (strncmp(name, "_Z", 2) == 0 || strncmp(name, "__spirv", 7) == 0 ||
            strncmp(name, "__zeil", 6) == 0 || strncmp(name, "rd_", 3) == 0) {
            kc_fail("the program calls '%s', which this driver's built-in library does not define",
                    name);
            missing++;
        }
    }
    return missing;
}

int kc_emit(kc_program_t *p, const char *out_path, int opt_level)
{
    internalize(p->mod);
    char *msg = NULL;
    if (LLVMVerifyModule(p->mod, LLVMReturnStatusAction, &msg)) {
        kc_fail("the program does not verify after lowering: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return 0;
    }
    LLVMDisposeMessage(msg);
    LLVMTargetMachineRef tm = kc_host_machine(opt_level);
    if (!tm)
        return 0;
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    if (opt_level)
        kc_keep_state_calls(p);
    LLVMErrorRef err = LLVMRunPasses(p->mod, opt_level ? "default<O2>" : "globaldce", tm, opts);
    /* The kernels are inside their entries now: pass st, optimise again. */
    if (!err && opt_level && kc_pass_state(p))
        err = LLVMRunPasses(p->mod, "default<O2>", tm, opts);
    LLVMDisposePassBuilderOptions(opts);
    if (err) {
        char *e = LLVMGetErrorMessage(err);
        kc_fail("optimising failed: %s", e);
        LLVMDisposeErrorMessage(e);
        LLVMDisposeTargetMachine(tm);
        return 0;
    }
    int ok = undefined_builtins(p->mod) == 0;
    if (ok && LLVMTargetMachineEmitToFile(tm, p->mod, (char *)out_path, LLVMObjectFile, &msg)) {
        ok = kc_fail("writing '%s' failed: %s", out_path, msg ? msg : "?");
        LLVMDisposeMessage(msg);
    }
    LLVMDisposeTargetMachine(tm);
    return ok;
}
