"""zcl_elementwise.py: the element-wise built-ins (math, common, integer,
relational, conversions): a scalar definition per declared scalar overload,
an element-by-element one per vector overload. Floating-point math calls
LLVM's intrinsics or the host's libm (declared by clang's __builtin_*, so the
module resolves them against libm when it is loaded); half computes in
float, and float in double where the float libm function is not exact enough
for OpenCL's bounds. Only overloads without pointers are here (zcl_pointer.py
has the others)."""
import re

from zcl_types import split, is_float, is_signed, int_min, int_max, BITS, LANES

SUFFIX = {'float': 'f', 'double': '', 'half': 'f'}


def fcall(fn, s, *args):
    """The host libm / LLVM function fn on scalar type s."""
    if s == 'half':
        return '(half)__builtin_%sf(%s)' % (fn, ', '.join('(float)(%s)' % a for a in args))
    return '__builtin_%s%s(%s)' % (fn, SUFFIX[s], ', '.join(args))


def dcall(fn, s, *args):
    """fn computed in double, rounded to s (float and half; double as is)."""
    if s == 'double':
        return '__builtin_%s(%s)' % (fn, ', '.join(args))
    return '(%s)__builtin_%s(%s)' % (s, fn, ', '.join('(double)(%s)' % a for a in args))


LIBM1 = ['acos', 'acosh', 'asin', 'asinh', 'atan', 'atanh', 'cbrt', 'ceil', 'cos', 'cosh', 'erf', 'erfc', 'exp',
         'exp2', 'expm1', 'fabs', 'floor', 'lgamma', 'log', 'log2', 'log10', 'log1p', 'logb', 'rint', 'round',
         'sin', 'sinh', 'sqrt', 'tan', 'tanh', 'tgamma', 'trunc']
LIBM2 = ['atan2', 'copysign', 'fdim', 'fmod', 'hypot', 'nextafter', 'pow', 'remainder']


def pi_fn(fn, s, x):
    if fn in ('sinpi', 'cospi', 'tanpi'):
        # reduce exactly to [-1, 1] first, then one rounding in double
        r = '((double)(%s) - 2.0 * __builtin_rint((double)(%s) * 0.5))' % (x, x)
        return '(%s)__builtin_%s(M_PI * %s)' % (s, fn[:-2], r)
    return '(%s)(__builtin_%s((double)(%s)) / M_PI)' % (s, fn[:-2], x)


def math(name, s, a):
    base = re.sub(r'^(half_|native_)', '', name)
    if not is_float(s):
        return None
    if base in LIBM1 and len(a) == 1:
        if base in ('sqrt',) and s != 'half':
            return fcall(base, s, *a)
        return dcall(base, s, *a) if s != 'double' else fcall(base, s, *a)
    if base == 'nextafter' and s == 'half':
        return 'zcl_nextafter_half(%s, %s)' % (a[0], a[1])
    if base in LIBM2 and len(a) == 2:
        return dcall(base, s, *a) if base not in ('copysign', 'nextafter', 'fdim', 'fmod') else fcall(base, s, *a)
    if base in ('fmin', 'fmax') and len(a) == 2:
        return fcall(base, s, *a)
    if base == 'fma' or base == 'mad':
        # half: the product is exact in double, the sum nearly always; one rounding to half
        return fcall('fma', s, *a) if s != 'half' else '(half)__builtin_fma((double)%s, (double)%s, (double)%s)' % tuple(a)
    if base in ('sinpi', 'cospi', 'tanpi', 'asinpi', 'acospi', 'atanpi') and len(a) == 1:
        return pi_fn(base, s, a[0])
    if base == 'atan2pi':
        return '(%s)(__builtin_atan2((double)(%s), (double)(%s)) / M_PI)' % (s, a[0], a[1])
    if base == 'exp10':
        return '(%s)__builtin_pow(10.0, (double)(%s))' % (s, a[0])
    if base == 'rsqrt':
        return '(%s)(1.0 / __builtin_sqrt((double)(%s)))' % (s, a[0])
    if base == 'recip':
        return '(%s)(1.0 / (double)(%s))' % (s, a[0])
    if base == 'divide':
        return '(%s)((%s) / (%s))' % (s, a[0], a[1])
    if base == 'powr' or base == 'pown':
        return '(%s)__builtin_pow((double)(%s), (double)(%s))' % (s, a[0], a[1])
    if base == 'rootn':
        return '(%s)zcl_rootn((double)(%s), %s)' % (s, a[0], a[1])
    if base == 'ldexp':
        return fcall('ldexp', s, a[0], a[1]) if s != 'half' else '(half)__builtin_ldexpf((float)%s, %s)' % (a[0], a[1])
    if base == 'ilogb':
        return '__builtin_ilogb%s(%s)' % (SUFFIX[s], a[0] if s != 'half' else '(float)' + a[0])
    if base == 'maxmag':
        return '(__builtin_fabs((double)%s) > __builtin_fabs((double)%s) ? %s : __builtin_fabs((double)%s) < ' \
               '__builtin_fabs((double)%s) ? %s : %s)' % (a[0], a[1], a[0], a[0], a[1], a[1], fcall('fmax', s, *a))
    if base == 'minmag':
        return '(__builtin_fabs((double)%s) < __builtin_fabs((double)%s) ? %s : __builtin_fabs((double)%s) > ' \
               '__builtin_fabs((double)%s) ? %s : %s)' % (a[0], a[1], a[0], a[0], a[1], a[1], fcall('fmin', s, *a))
    return None


def common(name, s, a):
    f = is_float(s)
    if name == 'clamp':
        if f:
            return fcall('fmin', s, fcall('fmax', s, a[0], a[1]), a[2])
        return '(%s < %s ? %s : %s > %s ? %s : %s)' % (a[0], a[1], a[1], a[0], a[2], a[2], a[0])
    if name in ('max', 'min'):
        if f:
            return fcall('f' + name, s, *a)
        return '(%s %s %s ? %s : %s)' % (a[0], '>' if name == 'max' else '<', a[1], a[0], a[1])
    if not f:
        return None
    if name == 'degrees':
        return '(%s)((%s) * (180.0 / M_PI))' % (s, a[0])
    if name == 'radians':
        return '(%s)((%s) * (M_PI / 180.0))' % (s, a[0])
    if name == 'mix':
        return '(%s + (%s - %s) * %s)' % (a[0], a[1], a[0], a[2])
    if name == 'step':
        return '(%s < %s ? (%s)0 : (%s)1)' % (a[1], a[0], s, s)
    if name == 'smoothstep':
        t = 'zcl_sat_%s((%s - %s) / (%s - %s))' % (s, a[2], a[0], a[1], a[0])
        return '({ %s t = %s; t * t * ((%s)3 - (%s)2 * t); })' % (s, t, s, s)
    if name == 'sign':
        return '(%s != %s ? (%s)0 : %s > 0 ? (%s)1 : %s < 0 ? (%s)-1 : %s)' % (
            a[0], a[0], s, a[0], s, a[0], s, a[0])
    return None


def integer(name, s, a, ret):
    if is_float(s):
        return None
    u = s if not is_signed(s) else 'u' + s
    b = BITS[s]
    wide = {8: 'short', 16: 'int', 32: 'long'}.get(b)
    if name == 'abs':
        return '(%s)(%s < 0 ? -(%s)%s : (%s)%s)' % (u, a[0], u, a[0], u, a[0]) if is_signed(s) else a[0]
    if name == 'abs_diff':
        return '(%s)(%s > %s ? (%s)%s - (%s)%s : (%s)%s - (%s)%s)' % (u, a[0], a[1], u, a[0], u, a[1], u, a[1], u, a[0])
    if name in ('add_sat', 'sub_sat') and b < 32:
        # clang-15 promotes narrow scalars in __builtin_elementwise_*: saturate in int
        return '({ int t = (int)%s %s (int)%s; (%s)(t < %s ? %s : t > %s ? %s : t); })' % (
            a[0], '+' if name == 'add_sat' else '-', a[1], s, int_min(s), int_min(s), int_max(s), int_max(s))
    if name in ('add_sat', 'sub_sat'):
        return '__builtin_elementwise_%s(%s, %s)' % (name, a[0], a[1])
    if name == 'hadd':
        return '(%s)((%s >> 1) + (%s >> 1) + (%s & %s & 1))' % (s, a[0], a[1], a[0], a[1])
    if name == 'rhadd':
        return '(%s)((%s >> 1) + (%s >> 1) + ((%s | %s) & 1))' % (s, a[0], a[1], a[0], a[1])
    if name == 'clz':
        return '(%s)(%s == 0 ? %d : __builtin_clzl((ulong)(%s)%s) - %d)' % (s, a[0], b, u, a[0], 64 - b)
    if name == 'ctz':
        return '(%s)(%s == 0 ? %d : __builtin_ctzl((ulong)(%s)%s))' % (s, a[0], b, u, a[0])
    if name == 'popcount':
        return '(%s)__builtin_popcountl((ulong)(%s)%s)' % (s, u, a[0])
    if name == 'rotate':
        return '(%s)(((%s)%s << ((%s)%s & %d)) | ((%s)%s >> ((%d - ((%s)%s & %d)) & %d)))' % (
            s, u, a[0], u, a[1], b - 1, u, a[0], b, u, a[1], b - 1, b - 1)
    if name == 'mul_hi':
        if wide:
            w = wide if is_signed(s) else 'u' + wide
            return '(%s)(((%s)%s * (%s)%s) >> %d)' % (s, w, a[0], w, a[1], b)
        return 'zcl_mul_hi_%s(%s, %s)' % (s, a[0], a[1])
    if name == 'mad_hi':
        return '(%s)(mul_hi(%s, %s) + %s)' % (s, a[0], a[1], a[2])
    if name == 'mad_sat':
        if wide:
            w = wide if is_signed(s) else 'u' + wide
            lo, hi = int_min(s), int_max(s)
            return '({ %s t = (%s)%s * (%s)%s + (%s)%s; (%s)(t < (%s)%s ? (%s)%s : t > (%s)%s ? (%s)%s : t); })' % (
                w, w, a[0], w, a[1], w, a[2], s, w, lo, w, lo, w, hi, w, hi)
        return 'zcl_mad_sat_%s(%s, %s, %s)' % (s, a[0], a[1], a[2])
    if name in ('mad24', 'mul24'):
        e = '(%s * %s)' % (a[0], a[1])
        return '(%s)(%s%s)' % (s, e, ' + ' + a[2] if name == 'mad24' else '')
    if name == 'upsample':
        r, _ = split(ret)
        return '(%s)(((%s)%s << %d) | (%s)%s)' % (r, r, a[0], b, r, a[1])
    return None


def relational(name, s, a, vector):
    ops = {'isequal': '==', 'isnotequal': '!=', 'isgreater': '>', 'isgreaterequal': '>=', 'isless': '<',
           'islessequal': '<='}
    t = '-' if vector else ''
    if name in ops and is_float(s):
        return '(%s(%s %s %s))' % (t, a[0], ops[name], a[1])
    f = {'isfinite': '__builtin_isfinite(%s)', 'isinf': '__builtin_isinf(%s)', 'isnan': '(%s != %s)',
         'isnormal': '__builtin_isnormal(%s)', 'signbit': '__builtin_signbit(%s)'}
    if name in f and is_float(s):
        x = a[0] if s != 'half' else '(float)' + a[0]
        e = f[name] % ((x, x) if name == 'isnan' else (x,))
        return '(%s(%s != 0))' % (t, e)
    if name == 'islessgreater' and is_float(s):
        return '(%s((%s < %s) || (%s > %s)))' % (t, a[0], a[1], a[0], a[1])
    if name == 'isordered' and is_float(s):
        return '(%s((%s == %s) && (%s == %s)))' % (t, a[0], a[0], a[1], a[1])
    if name == 'isunordered' and is_float(s):
        return '(%s((%s != %s) || (%s != %s)))' % (t, a[0], a[0], a[1], a[1])
    return None


ROUND = {'rte': 'rint', 'rtz': 'trunc', 'rtp': 'ceil', 'rtn': 'floor'}


def float_max(d):
    return {'half': '65504.0', 'float': 'FLT_MAX', 'double': 'DBL_MAX'}[d]


def convert(name, s, a):
    m = re.match(r'^convert_([a-z]+?)(\d*)(_sat)?(?:_(rte|rtz|rtp|rtn))?$', name)
    if not m:
        return None
    d, sat, mode = m.group(1), bool(m.group(3)), m.group(4)
    x = a[0]
    if not is_float(d) and not is_float(s):
        if not sat:
            return '(%s)%s' % (d, x)
        conds = []
        if is_signed(s) and (not is_signed(d) or BITS[d] < BITS[s]):
            conds.append('%s < (%s)%s ? (%s)%s' % (x, s, int_min(d), d, int_min(d)))
        smax_gt = (BITS[s] - is_signed(s)) > (BITS[d] - is_signed(d))
        if smax_gt:
            conds.append('%s > (%s)%s ? (%s)%s' % (x, s, int_max(d), d, int_max(d)))
        return '(%s)' % ' : '.join(conds + ['(%s)%s' % (d, x)])
    if not is_float(d):
        # float to integer: round as asked (default toward zero), then saturate
        r = '__builtin_%s(%s)' % (ROUND[mode or 'rtz'], '(double)' + x if s != 'double' else x)
        if not sat:
            return '(%s)%s' % (d, r)
        lo = '-0x1p%d' % (BITS[d] - 1) if is_signed(d) else '0.0'
        hi = '0x1p%d' % (BITS[d] - is_signed(d))
        return '({ double r = %s; (%s)(r != r ? (%s)0 : r < %s ? (%s)%s : r >= %s ? (%s)%s : (%s)r); })' % (
            r, d, d, lo, d, int_min(d), hi, d, int_max(d), d)
    # to floating point: round to nearest, then step toward the mode's side
    if mode in (None, 'rte') or (is_float(s) and BITS[s] <= BITS[d]) or (not is_float(s) and BITS[s] < 24 and d != 'half') \
            or (not is_float(s) and BITS[s] <= 32 and d == 'double'):
        return '(%s)%s' % (d, x)
    return 'zcl_round_%s_%s_%s(%s)' % (s, d, mode, x)


def scalar_body(d, ps, ret, a):
    s, w = split(ps[0]) if ps else (None, 0)
    rs, _ = split(ret)
    name = d.name
    for fn in (lambda: convert(name, s, a) if name.startswith('convert_') else None,
               lambda: math(name, s, a),
               lambda: common(name, s, a),
               lambda: integer(name, s, a, ret),
               lambda: relational(name, s, a, False)):
        e = fn()
        if e is not None:
            return '    return %s;\n' % e
    return None


def vector_body(d, ret, ps):
    """Element by element, through the scalar overloads; relational ones give -1 for true."""
    rs, w = split(ret)
    lanes = []
    for j in range(w):
        args = []
        for i, p in enumerate(ps):
            _, pw = split(p)
            args.append('a%d.%s' % (i, LANES[j]) if pw > 1 else 'a%d' % i)
        fn = re.sub(r'^(convert_[a-z]+)\d+', r'\1', d.name)
        call = '%s(%s)' % (fn, ', '.join(args))
        if d.name.startswith('is') or d.name == 'signbit':
            call = '-%s' % call
        lanes.append('    r.%s = %s;\n' % (LANES[j], call))
    return '    %s r;\n%s    return r;\n' % (ret, ''.join(lanes))


def wanted(d):
    if any('*' in p for p in d.params) or not d.params:
        return False
    if d.name.startswith(('get_', 'sub_group', 'work_group', 'intel_', 'atom', 'vload', 'vstore', 'read_',
                          'write_', 'async_', 'prefetch', 'nan', 'shuffle', 'select', 'bitselect', 'any', 'all',
                          'dot', 'cross', 'length', 'distance', 'normalize', 'fast_', 'as_', 'to_',
                          'native_divide', 'native_recip', 'native_powr')):
        return d.name in ('native_divide', 'native_recip', 'native_powr')
    return all(split(p)[1] > 0 for p in d.params) and split(d.ret)[1] > 0


HELPERS = '''
/* The next half after x toward y, on the bits (float's nextafter would round back). */
static half zcl_nextafter_half(half x, half y)
{
    if (x != x || y != y)
        return x + y;
    if (x == y)
        return y;
    ushort b = as_ushort(x);
    if ((b & 0x7fff) == 0)
        return as_half((ushort)((as_ushort(y) & 0x8000) | 1));
    b = (x < y) == (x > 0) ? (ushort)(b + 1) : (ushort)(b - 1);
    return as_half(b);
}
static float zcl_sat_float(float x) { return __builtin_fminf(__builtin_fmaxf(x, 0.0f), 1.0f); }
static double zcl_sat_double(double x) { return __builtin_fmin(__builtin_fmax(x, 0.0), 1.0); }
static half zcl_sat_half(half x) { return (half)zcl_sat_float((float)x); }
static double zcl_rootn(double x, int n)
{
    if (n == 0)
        return __builtin_nan("");
    if (x < 0 && (n & 1))
        return -__builtin_pow(-x, 1.0 / n);
    return __builtin_pow(x, 1.0 / n);
}
static ulong zcl_mul_hi_ulong(ulong a, ulong b)
{
    ulong al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    ulong m1 = ah * bl + ((al * bl) >> 32);
    ulong m2 = al * bh + (m1 & 0xffffffffu);
    return ah * bh + (m1 >> 32) + (m2 >> 32);
}
static long zcl_mul_hi_long(long a, long b)
{
    ulong h = zcl_mul_hi_ulong((ulong)a, (ulong)b);
    return (long)(h - (a < 0 ? (ulong)b : 0) - (b < 0 ? (ulong)a : 0));
}
static long zcl_mad_sat_long(long a, long b, long c)
{
    long p;
    if (__builtin_mul_overflow(a, b, &p))
        return (a < 0) != (b < 0) ? LONG_MIN : LONG_MAX;
    return __builtin_elementwise_add_sat(p, c);
}
static ulong zcl_mad_sat_ulong(ulong a, ulong b, ulong c)
{
    ulong p;
    if (__builtin_mul_overflow(a, b, &p))
        return ULONG_MAX;
    return __builtin_elementwise_add_sat(p, c);
}
'''

ROUNDERS_SRC = [('float', 'half'), ('double', 'half'), ('double', 'float'), ('int', 'float'), ('uint', 'float'),
                ('long', 'float'), ('ulong', 'float'), ('long', 'double'), ('ulong', 'double'),
                ('char', 'half'), ('uchar', 'half'), ('short', 'half'), ('ushort', 'half'), ('int', 'half'),
                ('uint', 'half'), ('long', 'half'), ('ulong', 'half')]


def rounders():
    """zcl_round_S_D_MODE: S to D rounded toward the mode, from the nearest value and a comparison made exact in a
    wider type."""
    out = []
    for s, d in ROUNDERS_SRC:
        wide = 'double' if s in ('float', 'double', 'int', 'uint', 'char', 'uchar', 'short', 'ushort') else None
        for mode in ('rtz', 'rtp', 'rtn'):
            body = ['    %s r = (%s)x;' % (d, d)]
            if wide:
                body.append('    double e = (double)x, g = (double)r;')
            else:
                # long to float/double/half: compare as long double is not there; compare through the bits
                body.append('    double g = (double)r;')
                body.append('    double e = (double)x;')
                body.append('    if (g == e) {')
                body.append('        %s back = g >= 0x1p%d ? 0 : (%s)g;' % (s, 63 if s == 'long' else 64, s))
                body.append('        e = g >= 0x1p%d ? __builtin_nextafter(g, 0.0) : back == x ? g : (back < x ? '
                            '__builtin_nextafter(g, __builtin_inf()) : __builtin_nextafter(g, -__builtin_inf()));'
                            % (63 if s == 'long' else 64))
                body.append('    }')
            inf = '(%s)INFINITY' % d
            if mode == 'rtz':
                body.append('    if (__builtin_fabs(g) > __builtin_fabs(e)) r = nextafter(r, (%s)0);' % d)
            elif mode == 'rtp':
                body.append('    if (g < e) r = nextafter(r, %s);' % inf)
            else:
                body.append('    if (g > e) r = nextafter(r, -%s);' % inf)
            body.append('    return r;')
            out.append('static %s zcl_round_%s_%s_%s(%s x)\n{\n%s\n}\n' % (d, s, d, mode, s, '\n'.join(body)))
    return '\n'.join(out)


def generate(decls, out, conversions):
    out.write('#include "zcl_rt.h"\n')
    out.write(HELPERS if not conversions else rounders())
    n = 0
    for d in decls:
        if not wanted(d) or d.name.startswith('convert_') != conversions:
            continue
        a = ['a%d' % i for i in range(len(d.params))]
        _, w = split(d.ret)
        pw = max(split(p)[1] for p in d.params)
        body = scalar_body(d, d.params, d.ret, a) if pw == 1 and w == 1 else None
        if body is None and (w > 1 or pw > 1):
            s0 = split(d.params[0])[0]
            probe = scalar_body(d, [s0] + [split(p)[0] for p in d.params[1:]], split(d.ret)[0], a)
            body = vector_body(d, d.ret, d.params) if probe is not None and w > 1 else None
        if body is None:
            continue
        sig = ', '.join('%s a%d' % (p, i) for i, p in enumerate(d.params))
        out.write('ZCL_OVL %s %s(%s)\n{\n%s}\n\n' % (d.ret, d.name, sig, body))
        n += 1
    return n
