"""zcl_misc.py: the remaining built-ins a kernel commonly calls, every
declared overload: geometric (dot, cross, length, distance, normalize and
their fast_ forms), select, bitselect, any, all, shuffle, shuffle2, nan,
the extended bit operations (bit_reverse, bitfield_*), async work-group
copies (each work-item copies its share; wait_group_events is a barrier)
and prefetch (nothing to do)."""
import re

from zcl_types import split, is_float, is_signed, BITS, LANES


def lanes(t):
    return LANES[:split(t)[1]]


def geometric(d):
    name = re.sub(r'^fast_', '', d.name)
    s, w = split(d.params[0])
    if not is_float(s):
        return None
    acc = 'double' if s != 'double' else 'double'
    ls = lanes(d.params[0])

    def el(v, c):
        return '(double)%s.%s' % (v, c) if w > 1 else '(double)%s' % v
    if name == 'dot':
        return '    return (%s)(%s);\n' % (d.ret, ' + '.join('%s * %s' % (el('a0', c), el('a1', c)) for c in ls))
    if name == 'cross':
        t = d.ret
        r = '(%s)(a0.y * a1.z - a0.z * a1.y, a0.z * a1.x - a0.x * a1.z, a0.x * a1.y - a0.y * a1.x%s)' % (
            t, ', 0' if w == 4 else '')
        return '    return %s;\n' % r
    # length, distance, normalize: scaled by the largest magnitude (no overflow, no underflow)
    if name in ('length', 'distance'):
        v = ['(%s - %s)' % (el('a0', c), el('a1', c)) for c in ls] if name == 'distance' else [el('a0', c) for c in ls]
        return ('    double v[%d] = {%s};\n    double m = 0;\n    for (int i = 0; i < %d; i++)\n'
                '        m = __builtin_fmax(m, __builtin_fabs(v[i]));\n'
                '    if (m == 0 || __builtin_isinf(m))\n        return (%s)m;\n    double s = 0;\n'
                '    for (int i = 0; i < %d; i++)\n        s += (v[i] / m) * (v[i] / m);\n'
                '    return (%s)(m * __builtin_sqrt(s));\n') % (len(v), ', '.join(v), len(v), d.ret, len(v), d.ret)
    if name == 'normalize':
        v = [el('a0', c) for c in ls]
        body = ('    double v[%d] = {%s};\n    double m = 0;\n    for (int i = 0; i < %d; i++)\n'
                '        m = __builtin_fmax(m, __builtin_fabs(v[i]));\n'
                '    if (m == 0 || m != m)\n        return a0;\n    double s = 0;\n'
                '    for (int i = 0; i < %d; i++) {\n'
                '        v[i] = __builtin_isinf(m) ? (__builtin_isinf(v[i]) ? __builtin_copysign(1.0, v[i]) : '
                '__builtin_copysign(0.0, v[i])) : v[i] / m;\n'
                '        s += v[i] * v[i];\n    }\n    double l = __builtin_sqrt(s);\n') % (len(v), ', '.join(v), len(v), len(v))
        if w == 1:
            return body + '    return (%s)(v[0] / l);\n' % d.ret
        return body + '    return (%s)(%s);\n' % (d.ret, ', '.join('(%s)(v[%d] / l)' % (s, i) for i in range(len(v))))
    return None


def relational(d):
    name, ps = d.name, d.params
    s, w = split(ps[0])
    if name in ('any', 'all'):
        msb = ['(%s < 0)' % ('a0.%s' % c if w > 1 else 'a0') for c in lanes(ps[0])]
        return '    return %s;\n' % (' || ' if name == 'any' else ' && ').join(msb)
    if name == 'bitselect':
        if is_float(s):
            it = {'half': 'ushort', 'float': 'uint', 'double': 'ulong'}[s] + ('' if w == 1 else str(w))
            return '    return as_%s((%s)((as_%s(a0) & ~as_%s(a2)) | (as_%s(a1) & as_%s(a2))));\n' % (
                ps[0], it, it, it, it, it)
        return '    return (a0 & ~a2) | (a1 & a2);\n'
    if name == 'select':
        if w == 1:
            return '    return a2 ? a1 : a0;\n'
        return '    %s r;\n%s    return r;\n' % (d.ret, ''.join(
            '    r.%s = a2.%s < 0 ? a1.%s : a0.%s;\n' % (c, c, c, c) for c in lanes(ps[0])))
    return None


def shuffle(d):
    rw = split(d.ret)[1]
    if d.name == 'shuffle':
        n = split(d.params[0])[1]
        return '    %s r;\n%s    return r;\n' % (d.ret, ''.join(
            '    r.%s = a0[a1.%s %% %d];\n' % (LANES[j], LANES[j], n) for j in range(rw)))
    if d.name == 'shuffle2':
        n = split(d.params[0])[1]
        return '    %s r;\n%s    return r;\n' % (d.ret, ''.join(
            '    { uint k = a2.%s %% %d; r.%s = k < %d ? a0[k] : a1[k - %d]; }\n' % (LANES[j], 2 * n, LANES[j], n, n)
            for j in range(rw)))
    return None


def nan(d):
    s, w = split(d.ret)
    bits = {'half': ('ushort', '0x7e00'), 'float': ('uint', '0x7fc00000'), 'double': ('ulong', '0x7ff8000000000000UL')}
    it, q = bits[s]
    mask = {'half': '0x1ff', 'float': '0x3fffff', 'double': '0x7ffffffffffffUL'}[s]
    vt = it + ('' if w == 1 else str(w))
    return '    return as_%s((%s)(((%s)%s) | (a0 & ((%s)%s))));\n' % (d.ret, vt, vt, q, vt, mask)


def bitops(d):
    s, w = split(d.ret)
    if w != 1:
        return None
    b = BITS[s]
    u = s if not is_signed(s) else 'u' + s
    if d.name == 'bit_reverse':
        return ('    %s x = (%s)a0, r = 0;\n    for (int i = 0; i < %d; i++)\n        r |= ((x >> i) & 1) << (%d - i);\n'
                '    return (%s)r;\n') % (u, u, b, b - 1, s)
    if d.name == 'bitfield_insert':
        return ('    if (a3 == 0)\n        return a0;\n    %s m = (a3 >= %d ? (%s)~(%s)0 : (((%s)1 << a3) - 1)) << a2;\n'
                '    return (%s)(((%s)a0 & ~m) | (((%s)a1 << a2) & m));\n') % (u, b, u, u, u, s, u, u)
    if d.name in ('bitfield_extract_signed', 'bitfield_extract_unsigned'):
        src = split(d.params[0])[0]
        su = src if not is_signed(src) else 'u' + src
        sb = BITS[src]
        if d.name.endswith('unsigned'):
            return ('    if (a2 == 0)\n        return 0;\n    %s x = (%s)a0 >> a1;\n'
                    '    return (%s)(a2 >= %d ? x : x & (((%s)1 << a2) - 1));\n') % (su, su, s, sb, su)
        ss = su[1:]
        return ('    if (a2 == 0)\n        return 0;\n    %s x = (%s)((%s)a0 << (%d - a1 - a2));\n'
                '    return (%s)(x >> (%d - a2));\n') % (ss, ss, su, sb, s, sb)
    return None


def async_copy(d):
    if d.name == 'async_work_group_copy':
        return ('    size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);\n'
                '    for (size_t i = get_local_linear_id(); i < a2; i += n)\n        a0[i] = a1[i];\n    return a3;\n')
    if d.name == 'async_work_group_strided_copy':
        # to local: dst[i] = src[i * stride]; to global: dst[i * stride] = src[i]
        local_dst = '__local' in d.params[0]
        idx = ('a0[i] = a1[i * a3]' if local_dst else 'a0[i * a3] = a1[i]')
        return ('    size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);\n'
                '    for (size_t i = get_local_linear_id(); i < a2; i += n)\n        %s;\n    return a4;\n') % idx
    if d.name == 'wait_group_events':
        return '    (void)a0; (void)a1;\n    __zeil_wg_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n'
    if d.name == 'prefetch':
        return '    (void)a0; (void)a1;\n'
    return None


def body(d):
    n = d.name
    if n in ('dot', 'cross', 'length', 'distance', 'normalize', 'fast_length', 'fast_distance', 'fast_normalize'):
        return geometric(d)
    if n in ('any', 'all', 'bitselect', 'select'):
        return relational(d)
    if n in ('shuffle', 'shuffle2'):
        return shuffle(d)
    if n == 'nan':
        return nan(d)
    if n in ('bit_reverse', 'bitfield_insert', 'bitfield_extract_signed', 'bitfield_extract_unsigned'):
        return bitops(d)
    if n in ('async_work_group_copy', 'async_work_group_strided_copy', 'wait_group_events', 'prefetch'):
        return async_copy(d)
    return None


def vector_of_scalar(d):
    """bit_reverse and bitfield_* on vectors: element by element."""
    rw = split(d.ret)[1]
    if d.name not in ('bit_reverse', 'bitfield_insert', 'bitfield_extract_signed', 'bitfield_extract_unsigned') \
            or rw < 2:
        return None
    lines = []
    for j in range(rw):
        args = ['a%d.%s' % (i, LANES[j]) if split(p)[1] > 1 else 'a%d' % i for i, p in enumerate(d.params)]
        lines.append('    r.%s = %s(%s);\n' % (LANES[j], d.name, ', '.join(args)))
    return '    %s r;\n%s    return r;\n' % (d.ret, ''.join(lines))


def generate(decls, out):
    import zcl_pointer
    out.write('#include "zcl_rt.h"\n\n')
    n = 0
    wanted = [d for d in decls if d.name in ('async_work_group_copy', 'async_work_group_strided_copy',
                                               'wait_group_events', 'prefetch')]
    for d in [d for d in decls if d not in wanted] + zcl_pointer.expand(wanted):
        if any('image' in p for p in d.params):
            continue
        b = body(d) or vector_of_scalar(d)
        if b is None:
            continue
        sig = ', '.join('%s a%d' % (p, i) for i, p in enumerate(d.params))
        out.write('ZCL_OVL %s %s(%s)\n{\n%s}\n\n' % (d.ret, d.name, sig, b))
        n += 1
    return n
