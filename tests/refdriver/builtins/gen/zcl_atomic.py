"""zcl_atomic.py: OpenCL's atomics, every declared overload: the 1.2 names
(atomic_add, atom_add, ...), the C11-style ones (atomic_fetch_add[_explicit],
atomic_load, atomic_compare_exchange_strong, atomic_flag_*, ...) with memory
order and scope, and the floating-point ones of cl_ext_float_atomics. Each
calls the x86_64 helper of rd_rt_atomic.c for its width (the spir64 target
has no lock-free atomics), with the address as an integer."""
import re

from zcl_decls import Decl

SUFFIX = {'int': 'i32', 'uint': 'u32', 'long': 'i64', 'ulong': 'u64', 'float': 'f32', 'double': 'f64',
          'intptr_t': 'i64', 'uintptr_t': 'u64', 'size_t': 'u64', 'ptrdiff_t': 'i64', 'flag': 'i32'}
CTYPE = {'i32': 'int', 'u32': 'uint', 'i64': 'long', 'u64': 'ulong', 'f32': 'float', 'f64': 'double'}
SEQ = '5'  # memory_order_seq_cst
OPS12 = {'add': 'add', 'sub': 'sub', 'xchg': 'xchg', 'min': 'min', 'max': 'max', 'and': 'and', 'or': 'or',
         'xor': 'xor', 'inc': 'add', 'dec': 'sub', 'cmpxchg': 'cmpxchg'}


def suffix_of(ptr):
    m = re.search(r'(?:atomic_)?(\w+)\*$', ptr.replace(' ', ''))
    base = m.group(1) if m else ''
    base = re.sub(r'^(volatile|const)?(__global|__local|__private|__generic)?', '', base)
    base = base.replace('atomic_', '')
    return SUFFIX.get(base)


def body(d):
    name, ps = d.name, d.params
    if not ps or not ps[0].endswith('*'):
        return None
    s = suffix_of(ps[0])
    if s is None:
        return None
    t = CTYPE[s]
    addr = '(ulong)a0'
    m = re.match(r'^atom(?:ic)?_(add|sub|xchg|min|max|and|or|xor|inc|dec|cmpxchg)$', name)
    if m and 'atomic_' not in ps[0]:
        op = OPS12[m.group(1)]
        if op == 'cmpxchg':
            return '    %s e = a1;\n    __zeil_atomic_cmpxchg_%s(%s, (ulong)&e, a2, 0, %s, %s);\n    return e;\n' % (
                t, s, addr, SEQ, SEQ)
        v = '(%s)1' % t if m.group(1) in ('inc', 'dec') else 'a1'
        return '    return __zeil_atomic_%s_%s(%s, %s, %s);\n' % (op, s, addr, v, SEQ)
    m = re.match(r'^atomic_fetch_(add|sub|or|xor|and|min|max)(_explicit)?$', name)
    if m:
        o = 'a2' if len(ps) > 2 else SEQ
        return '    return (%s)__zeil_atomic_%s_%s(%s, (%s)a1, %s);\n' % (d.ret, m.group(1), s, addr, t, o)
    m = re.match(r'^atomic_(store|load|exchange|init)(_explicit)?$', name)
    if m:
        op = m.group(1)
        if op == 'load':
            return '    return __zeil_atomic_load_%s(%s, %s);\n' % (s, addr, 'a1' if len(ps) > 1 else SEQ)
        if op == 'exchange':
            return '    return __zeil_atomic_xchg_%s(%s, a1, %s);\n' % (s, addr, 'a2' if len(ps) > 2 else SEQ)
        o = '0' if op == 'init' else ('a2' if len(ps) > 2 else SEQ)
        return '    __zeil_atomic_store_%s(%s, a1, %s);\n' % (s, addr, o)
    m = re.match(r'^atomic_compare_exchange_(strong|weak)(_explicit)?$', name)
    if m:
        weak = '1' if m.group(1) == 'weak' else '0'
        os_, of = ('a3', 'a4') if len(ps) > 4 else (SEQ, SEQ)
        return ('    %s e = *a1;\n    int r = __zeil_atomic_cmpxchg_%s(%s, (ulong)&e, a2, %s, %s, %s);\n'
                '    *a1 = e;\n    return r;\n') % (t, s, addr, weak, os_, of)
    m = re.match(r'^atomic_flag_(test_and_set|clear)(_explicit)?$', name)
    if m:
        o = 'a1' if len(ps) > 1 else SEQ
        if m.group(1) == 'clear':
            return '    __zeil_atomic_store_i32(%s, 0, %s);\n' % (addr, o)
        return '    return __zeil_atomic_xchg_i32(%s, 1, %s) != 0;\n' % (addr, o)
    return None


def helpers():
    out = []
    for s, t in CTYPE.items():
        for op in ('add', 'sub', 'min', 'max', 'xchg') + (('and', 'or', 'xor') if s[0] != 'f' else ()):
            out.append('%s __zeil_atomic_%s_%s(ulong a, %s v, int o);' % (t, op, s, t))
        out.append('%s __zeil_atomic_load_%s(ulong a, int o);' % (t, s))
        out.append('void __zeil_atomic_store_%s(ulong a, %s v, int o);' % (s, t))
        out.append('int __zeil_atomic_cmpxchg_%s(ulong a, ulong expected, %s desired, int weak, int os, int of);'
                   % (s, t))
    return '\n'.join(out) + '\n\n'


def with_generic(decls):
    """The 1.2 names also on generic pointers: SPIR-V read back by llvm-spirv names C11 atomics of generic
    pointers so (atomic_add(volatile __generic int *, int))."""
    out, seen = [], set()
    for d in decls:
        vs = [d]
        if re.match(r'^atom(ic)?_(add|sub|xchg|min|max|and|or|xor|inc|dec|cmpxchg)$', d.name) and \
                '__global' in d.params[0]:
            vs.append(Decl(d.ret, d.name, [d.params[0].replace('__global ', '')] + d.params[1:], d.attrs))
        for v in vs:
            if v.key() not in seen:
                seen.add(v.key())
                out.append(v)
    # llvm-spirv reads SPIR-V's floating-point atomics back as these 1.2 names
    for name in ('atomic_add', 'atomic_sub', 'atomic_min', 'atomic_max'):
        for t in ('float', 'double'):
            for sp in ('__global ', '__local ', ''):
                v = Decl(t, name, ['volatile %s%s*' % (sp, t), t], '')
                if v.key() not in seen:
                    seen.add(v.key())
                    out.append(v)
    return out


def generate(decls, out):
    out.write('#include "zcl_rt.h"\n\n/* rd_rt_atomic.c */\n')
    out.write(helpers())
    n = 0
    for d in with_generic([d for d in decls if d.name.startswith('atom')]):
        b = body(d)
        if b is None:
            continue
        sig = ', '.join('%s a%d' % (p, i) for i, p in enumerate(d.params))
        out.write('ZCL_OVL %s %s(%s)\n{\n%s}\n\n' % (d.ret, d.name, sig, b))
        n += 1
    return n
