#!/usr/bin/env python3
"""link_check.py: compiles a kernel as OpenCL C 1.2, 2.0 and 3.0 and, when
llvm-spirv-15 is there, as SPIR-V read back into bitcode (the two ways the
driver's compiler gets a module), links each with rd_rt.bc and
zeil_cl_builtins.bc the way the compiler does, and fails if a built-in the
kernel calls stays undefined. Host functions (libm, libc) may stay.

Usage: link_check.py CLANG LLVM_LINK LLVM_NM LLVM_SPIRV|- LIB_BC RT_BC EXT_H KERNEL.cl WORKDIR
"""
import os
import re
import subprocess
import sys

HOST = re.compile(r'^(printf|snprintf|fwrite|stdout|strchr|[a-z]+[0-9]*f?(_r)?)$')


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit('link_check: %s failed:\n%s' % (' '.join(cmd), r.stderr))
    return r.stdout


def main():
    clang, link, nm, spirv, lib, rt, ext, kernel, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    modes = [('CL1.2', False), ('CL2.0', False), ('CL3.0', False)]
    if spirv != '-':
        modes.append(('CL2.0', True))
    bad = 0
    for std, via_spirv in modes:
        tag = std + ('-spirv' if via_spirv else '')
        bc = os.path.join(work, 'link_%s.bc' % tag)
        cmd = [clang, '-cc1', '-triple', 'spir64-unknown-unknown', '-x', 'cl', '-cl-std=' + std,
               '-finclude-default-header', '-include', ext, '-O2', '-emit-llvm-bc', '-o', bc, kernel]
        if via_spirv:
            cmd.insert(2, '-no-opaque-pointers')
        run(cmd)
        if via_spirv:
            spv = bc + '.spv'
            run([spirv, bc, '-o', spv, '--spirv-ext=+all'])
            run([spirv, '-r', spv, '-o', bc])
        linked = os.path.join(work, 'link_%s.linked.bc' % tag)
        # rd_rt.bc first: its opaque pointers make the context read SPIR-V's typed-pointer bitcode
        run([link, '-o', linked + '.rt', rt, bc])
        run([link, '-o', linked, linked + '.rt', '--only-needed', lib])
        undef = run([nm, '--undefined-only', linked]).split()
        missing = [u for u in undef if u not in ('U',) and not HOST.match(u)]
        if missing:
            bad += 1
            print('%s: %d built-ins undefined: %s' % (tag, len(missing), ' '.join(missing)))
        else:
            print('%s: every built-in defined (%d host symbols left)' % (tag, len([u for u in undef if u != 'U'])))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
