/*
 * zeil-cpu-kc: compiles a kernel program (LLVM bitcode for spir64) into an
 * object file for the host that exports the table of rd_compiled.h.
 *
 *   zeil-cpu-kc [-O0|-O2] [--lib LIB.bc | --lazy-lib LIB.bc]... -o OUT.o IN.bc
 *   zeil-cpu-kc --version
 *
 * Each library is linked in, in order, after the kernels are read: a --lib
 * whole, a --lazy-lib (the built-in library, the kernel runtime) only for
 * what the program uses so far, reading only those functions. Errors go to
 * stderr (the driver's build log).
 */
#include "kc.h"

#include "rd_compiled.h"

#include <llvm-c/Target.h>
#include <llvm/Config/llvm-config.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int kc_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("zeil-cpu-kc: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 0;
}

#define KC_MAX_LIBS 8

typedef struct kc_options {
    const char *in, *out;
    const char *libs[KC_MAX_LIBS];
    int lazy[KC_MAX_LIBS];
    int num_libs;
    int opt_level;
} kc_options_t;

static int parse(int argc, char **argv, kc_options_t *o)
{
    o->opt_level = 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-o") == 0 && i + 1 < argc)
            o->out = argv[++i];
        else if ((strcmp(a, "--lib") == 0 || strcmp(a, "--lazy-lib") == 0) && i + 1 < argc) {
            if (o->num_libs == KC_MAX_LIBS)
                return kc_fail("too many libraries (at most %d)", KC_MAX_LIBS);
            o->lazy[o->num_libs] = strcmp(a, "--lazy-lib") == 0;
            o->libs[o->num_libs++] = argv[++i];
        } else if (strcmp(a, "-O0") == 0)
            o->opt_level = 0;
        else if (strcmp(a, "-O2") == 0)
            o->opt_level = 2;
        else if (a[0] == '-')
            return kc_fail("unknown option '%s'", a);
        else if (o->in)
            return kc_fail("two inputs: '%s' and '%s'", o->in, a);
        else
            o->in = a;
    }
    if (!o->in || !o->out)
        return kc_fail(
            "usage: zeil-cpu-kc [-O0|-O2] [--lib LIB.bc | --lazy-lib LIB.bc]... -o OUT.o IN.bc");
    return 1;
}

static int compile(const kc_options_t *o)
{
    kc_program_t p = {0};
    p.ctx = LLVMContextCreate();
    LLVMContextSetOpaquePointers(p.ctx, 1);
    LLVMTargetMachineRef tm = kc_host_machine(o->opt_level);
    if (!tm)
        return 0;
    p.layout = LLVMCreateTargetDataLayout(tm);
    LLVMDisposeTargetMachine(tm);
    char *layout = LLVMCopyStringRepOfTargetData(p.layout);
    p.mod = kc_read_bitcode(p.ctx, o->in);
    int ok = p.mod != NULL;
    if (ok) {
        LLVMSetTarget(p.mod, KC_HOST_TRIPLE);
        LLVMSetDataLayout(p.mod, layout);
        ok = kc_read_kernels(&p) && kc_read_globals(&p);
    }
    for (int i = 0; ok && i < o->num_libs; i++) {
        LLVMModuleRef lib = o->lazy[i] ? kc_read_bitcode_lazy(p.ctx, o->libs[i])
                                       : kc_read_bitcode(p.ctx, o->libs[i]);
        if (lib && o->lazy[i])
            kc_only_what_is_used(lib);
        if (lib) {
            LLVMSetTarget(lib, KC_HOST_TRIPLE);
            LLVMSetDataLayout(lib, layout);
        }
        ok = lib && kc_link(p.mod, lib, o->libs[i]);
    }
    ok = ok && kc_lower(&p) && kc_wrap(&p) && kc_table(&p) && kc_emit(&p, o->out, o->opt_level);
    LLVMDisposeMessage(layout);
    /* The process ends here: the module and context go with it. */
    return ok;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("zeil-cpu-kc abi %u (LLVM %s)\n", RD_CM_ABI_VERSION, LLVM_VERSION_STRING);
        return 0;
    }
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86Target();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmPrinter();
    kc_options_t o = {0};
    if (!parse(argc, argv, &o))
        return 2;
    return compile(&o) ? 0 : 1;
}
