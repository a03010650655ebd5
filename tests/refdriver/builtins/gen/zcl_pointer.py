"""zcl_pointer.py: the built-ins with pointer arguments, every declared
overload plus the address-space variants OpenCL 1.2 code calls (a generic
pointer of the declaration becomes __global, __local and __private, and
__constant for a read-only one): vloadN/vstoreN, vload_half/vstore_half with
their rounding modes and the aligned vloada_half/vstorea_half, and frexp,
modf, fract, sincos, remquo, lgamma_r."""
import re

from zcl_decls import Decl
from zcl_types import split, LANES

SPACES = ['__global', '__local', '__private']


def is_generic(p):
    return p.endswith('*') and not re.search(r'__(global|local|private|constant|generic)\b', p)


def with_space(p, sp):
    words = p[:-1].split(' ')
    quals = [w for w in words if w in ('const', 'volatile')]
    rest = [w for w in words if w not in ('const', 'volatile')]
    return ' '.join(quals + [sp] + rest) + '*'


def expand(decls):
    """Each declaration, then its named address-space variants (deduplicated)."""
    out, seen = [], set()
    for d in decls:
        variants = [d]
        gi = [i for i, p in enumerate(d.params) if is_generic(p)]
        if gi:
            i = gi[0]
            spaces = SPACES + (['__constant'] if d.params[i].startswith('const ') else [])
            for sp in spaces:
                ps = list(d.params)
                ps[i] = with_space(ps[i], sp)
                variants.append(Decl(d.ret, d.name, ps, d.attrs))
        for v in variants:
            if v.key() not in seen:
                seen.add(v.key())
                out.append(v)
    return out


def vload(d):
    m = re.match(r'^vload(a?)(_half)?(\d*)$', d.name)
    if not m:
        return None
    aligned, half, n = m.group(1), m.group(2), int(m.group(3) or 1)
    stride = 4 if aligned and n == 3 else n
    elems = ['a1[a0 * %d + %d]' % (stride, j) for j in range(n)]
    if half:
        elems = ['(float)' + e for e in elems]
    if n == 1:
        return '    return %s;\n' % elems[0]
    return '    return (%s)(%s);\n' % (d.ret, ', '.join(elems))


def vstore(d):
    m = re.match(r'^vstore(a?)(_half)?(\d*)(_rte|_rtz|_rtp|_rtn)?$', d.name)
    if not m:
        return None
    aligned, half, n, mode = m.group(1), m.group(2), int(m.group(3) or 1), m.group(4) or ''
    stride = 4 if aligned and n == 3 else n
    out = []
    for j in range(n):
        v = 'a0' if n == 1 else 'a0.%s' % LANES[j]
        if half:
            v = 'convert_half%s(%s)' % (mode or '_rte', v)
        out.append('    a2[a1 * %d + %d] = %s;\n' % (stride, j, v))
    return ''.join(out)


def float_builtin(fn, s):
    return '__builtin_%s%s' % (fn, 'f' if s in ('float', 'half') else '')


def scalar_out(d, s):
    """Scalar body of the math functions with an output pointer."""
    wide = 'float' if s == 'half' else s
    x = '(%s)a0' % wide
    if d.name == 'frexp':
        return '    int e;\n    %s r = (%s)%s(%s, &e);\n    *a1 = e;\n    return r;\n' % (
            s, s, float_builtin('frexp', s), x)
    if d.name == 'modf':
        return '    %s i;\n    %s r = %s(%s, &i);\n    *a1 = (%s)i;\n    return (%s)r;\n' % (
            wide, wide, float_builtin('modf', s), x, s, s)
    if d.name == 'fract':
        fl = '%s(%s)' % (float_builtin('floor', s), x)
        lim = {'float': '0x1.fffffep-1f', 'half': '0x1.ffcp-1f', 'double': '0x1.fffffffffffffp-1'}[s]
        return ('    %s f = %s;\n    *a1 = (%s)f;\n    if (a0 != a0)\n        return a0;\n'
                '    if (__builtin_isinf(%s))\n        return (%s)%s(0, %s);\n'
                '    return (%s)%s(%s - f, %s);\n') % (
            wide, fl, s, x, s, float_builtin('copysign', s), x, s, float_builtin('fmin', s), x, lim)
    if d.name == 'sincos':
        return '    *a1 = (%s)%s((double)a0);\n    return (%s)%s((double)a0);\n' % (
            s, '__builtin_cos', s, '__builtin_sin')
    if d.name == 'remquo':
        return '    int q;\n    %s r = (%s)%s(%s, (%s)a1, &q);\n    *a2 = q;\n    return r;\n' % (
            s, s, float_builtin('remquo', s), x, wide)
    if d.name == 'lgamma_r':
        return ('    double v = (double)a0, f = __builtin_floor(v);\n'
                '    *a1 = v > 0 ? 1 : v == f ? 0 : ((long)f & 1) ? -1 : 1;\n'
                '    return (%s)__builtin_lgamma(v);\n') % s
    return None


def vector_out(d, n):
    """Element by element through the scalar overload: the outputs gather in private vectors."""
    ptr_i = [i for i, p in enumerate(d.params) if p.endswith('*')][0]
    pt = re.sub(r'\b(const|volatile|__global|__local|__private|__constant|__generic)\b', '', d.params[ptr_i])
    pt = pt.replace('*', '').strip()
    ps, _ = split(pt)
    lines = ['    %s r;\n    %s o;\n' % (d.ret, pt)]
    for j in range(n):
        args = []
        for i, p in enumerate(d.params):
            if i == ptr_i:
                args.append('&t')
            else:
                args.append('a%d.%s' % (i, LANES[j]) if split(p)[1] > 1 else 'a%d' % i)
        lines.append('    { %s t; r.%s = %s(%s); o.%s = t; }\n' % (ps, LANES[j], d.name, ', '.join(args), LANES[j]))
    lines.append('    *a%d = o;\n    return r;\n' % ptr_i)
    return ''.join(lines)


OUT_FNS = ('frexp', 'modf', 'fract', 'sincos', 'remquo', 'lgamma_r')


def body(d):
    if d.name.startswith('vload'):
        return vload(d)
    if d.name.startswith('vstore'):
        return vstore(d)
    if d.name in OUT_FNS:
        s, n = split(d.ret)
        if n == 1:
            return scalar_out(d, s)
        return vector_out(d, n)
    return None


def generate(decls, out):
    out.write('#include "zcl_rt.h"\n\n')
    n = 0
    for d in expand([d for d in decls if d.name.startswith(('vload', 'vstore')) or d.name in OUT_FNS]):
        if any('image' in p for p in d.params):
            continue
        b = body(d)
        if b is None:
            continue
        sig = ', '.join('%s a%d' % (p, i) for i, p in enumerate(d.params))
        out.write('ZCL_OVL %s %s(%s)\n{\n%s}\n\n' % (d.ret, d.name, sig, b))
        n += 1
    return n
