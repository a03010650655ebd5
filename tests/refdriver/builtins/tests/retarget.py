#!/usr/bin/env python3
"""retarget.py: a stand-in for the driver's compiler in the built-in
library's tests. Rewrites a linked spir64 module (LLVM 15 text IR, opaque
pointers) into x86_64 code a C harness links: the host's triple and data
layout, the C calling convention, every address space folded into the
default one (address space casts become bitcasts, intrinsic names lose their
address-space suffixes).

Usage: retarget.py in.ll out.ll
"""
import re
import sys

X86_LAYOUT = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"


def retarget(text):
    text = re.sub(r'^target datalayout = ".*"$', 'target datalayout = "%s"' % X86_LAYOUT, text, flags=re.M)
    text = re.sub(r'^target triple = ".*"$', 'target triple = "x86_64-unknown-linux-gnu"', text, flags=re.M)
    text = re.sub(r'\bspir_(func|kernel) ', '', text)
    text = re.sub(r' addrspace\(\d+\)', '', text)
    text = text.replace('addrspacecast', 'bitcast')
    # llvm.memcpy.p1.p0.i64 -> llvm.memcpy.p0.p0.i64
    text = re.sub(r'(@llvm\.[\w.]*)', lambda m: re.sub(r'\.p\d+', '.p0', m.group(1)), text)
    return text


def main():
    with open(sys.argv[1]) as f:
        text = f.read()
    with open(sys.argv[2], 'w') as f:
        f.write(retarget(text))


if __name__ == '__main__':
    main()
