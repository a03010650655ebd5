"""zcl_types.py: OpenCL C type names taken apart: 'float4' -> ('float', 4);
properties of scalar types for the generators."""
import re

INTS = ['char', 'uchar', 'short', 'ushort', 'int', 'uint', 'long', 'ulong']
FLOATS = ['half', 'float', 'double']
SCALARS = INTS + FLOATS
BITS = {'char': 8, 'uchar': 8, 'short': 16, 'ushort': 16, 'int': 32, 'uint': 32, 'long': 64, 'ulong': 64,
        'half': 16, 'float': 32, 'double': 64}
WIDTHS = [1, 2, 3, 4, 8, 16]
LANES = ['s0', 's1', 's2', 's3', 's4', 's5', 's6', 's7', 's8', 's9', 'sa', 'sb', 'sc', 'sd', 'se', 'sf']


def split(t):
    """'float4' -> ('float', 4); 'uint' -> ('uint', 1); other types -> (t, 0)."""
    m = re.match(r'^(char|uchar|short|ushort|int|uint|long|ulong|half|float|double)(\d*)$', t)
    if not m:
        return t, 0
    return m.group(1), int(m.group(2) or 1)


def is_signed(s):
    return s in ('char', 'short', 'int', 'long')


def is_float(s):
    return s in FLOATS


def unsigned_of(s):
    return s if not is_signed(s) else 'u' + s


def int_min(s):
    if not is_signed(s):
        return '0'
    return {'char': 'CHAR_MIN', 'short': 'SHRT_MIN', 'int': 'INT_MIN', 'long': 'LONG_MIN'}[s]


def int_max(s):
    return {'char': 'CHAR_MAX', 'uchar': 'UCHAR_MAX', 'short': 'SHRT_MAX', 'ushort': 'USHRT_MAX',
            'int': 'INT_MAX', 'uint': 'UINT_MAX', 'long': 'LONG_MAX', 'ulong': 'ULONG_MAX'}[s]


def vec(s, w):
    return s if w == 1 else '%s%d' % (s, w)


def params_sig(params):
    return ', '.join('%s a%d' % (p, i) if not p.endswith('*') else '%s a%d' % (p, i) for i, p in enumerate(params))
