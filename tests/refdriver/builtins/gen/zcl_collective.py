"""zcl_collective.py: sub-group and work-group collectives, one definition
per declared overload (cl_khr_subgroups and its extensions,
cl_intel_subgroups and its _short, _char, _long additions, OpenCL 2.0 work-group
functions). Sub-group values travel through the sub-group's exchange area
(rd_workitem.h: write this lane's slot, __zeil_sg_barrier, read, flip the
parity); block reads and writes need no exchange, the pointer being the same
in every lane. Non-uniform variants are the uniform ones: every lane of the
sub-group must reach them."""
import re

from zcl_types import split, is_float, is_signed, int_min, int_max, LANES, vec

OPS = ['add', 'mul', 'min', 'max', 'and', 'or', 'xor', 'logical_and', 'logical_or', 'logical_xor']


def combine(op, s, a, b):
    if op == 'add':
        return '(%s + %s)' % (a, b)
    if op == 'mul':
        return '(%s * %s)' % (a, b)
    if op == 'min':
        return ('((%s != %s || %s < %s) ? %s : %s)' % (b, b, a, b, a, b)) if is_float(s) else \
            '(%s < %s ? %s : %s)' % (a, b, a, b)
    if op == 'max':
        return ('((%s != %s || %s > %s) ? %s : %s)' % (b, b, a, b, a, b)) if is_float(s) else \
            '(%s > %s ? %s : %s)' % (a, b, a, b)
    if op in ('and', 'or', 'xor'):
        return '(%s %s %s)' % (a, {'and': '&', 'or': '|', 'xor': '^'}[op], b)
    c = {'logical_and': '&&', 'logical_or': '||', 'logical_xor': '!='}[op]
    if op == 'logical_xor':
        return '(%s)((%s != 0) != (%s != 0))' % (s, a, b)
    return '(%s)(%s %s %s)' % (s, a, c, b)


def identity(op, s):
    if op in ('add', 'or', 'xor', 'logical_or', 'logical_xor'):
        return '(%s)0' % s
    if op in ('mul', 'logical_and'):
        return '(%s)1' % s
    if op == 'and':
        return '(%s)~(%s)0' % (s, s)
    if op == 'min':
        return '(%s)INFINITY' % s if is_float(s) else '(%s)%s' % (s, int_max(s))
    return '(%s)-INFINITY' % s if is_float(s) else '(%s)%s' % (s, int_min(s))


SG_HEAD = '    __global rd_wi_state_t *st = ZCL_ST;\n' \
          '    __global uchar *area = zcl_sg_area(st);\n' \
          '    uint me = st->sg_local_id, n = st->sg_size;\n' \
          '    (void)me; (void)n;\n'
SG_TAIL = '    st->xchg_parity ^= 1;\n'


def slot(t, lane):
    return '(*(__global %s *)(area + (size_t)((%s) & (RD_SG_MAX - 1)) * RD_XCHG_SLOT_BYTES))' % (t, lane)


def sg_exchange(t, value, body):
    """Publish value, wait for the sub-group, then body reads slots."""
    return SG_HEAD + '    %s = %s;\n    __zeil_sg_barrier();\n' % (slot(t, 'me'), value) + body + SG_TAIL


def sg_fold(s, op, upto, incl_me):
    """r = op over lanes [0, upto) (upto an expression), identity first."""
    return '    %s r = %s;\n    for (uint i = 0; i < %s; i++)\n        r = %s;\n' % (
        s, identity(op, s), upto, combine(op, s, 'r', slot(s, 'i')))


def gen_sg(d):
    name, ret, ps = d.name, d.ret, d.params
    s, w = split(ret)
    m = re.match(r'^(?:intel_)?sub_group_(?:non_uniform_)?(reduce|scan_inclusive|scan_exclusive)_(\w+)$', name)
    if m and len(ps) == 1:
        kind, op = m.group(1), m.group(2)
        upto = {'reduce': 'n', 'scan_inclusive': 'me + 1', 'scan_exclusive': 'me'}[kind]
        return sg_exchange(s, 'a0', sg_fold(s, op, upto, True) + '    %s out = r;\n' % s) + '    return out;\n'
    m = re.match(r'^sub_group_clustered_reduce_(\w+)$', name)
    if m and len(ps) == 2:
        op = m.group(1)
        body = '    uint c0 = me / a1 * a1;\n    %s r = %s;\n    for (uint i = c0; i < c0 + a1 && i < n; i++)\n' \
               '        r = %s;\n    %s out = r;\n' % (s, identity(op, s), combine(op, s, 'r', slot(s, 'i')), s)
        return sg_exchange(s, 'a0', body) + '    return out;\n'
    lane = {
        'sub_group_broadcast': 'a1', 'intel_sub_group_broadcast': 'a1', 'sub_group_non_uniform_broadcast': 'a1',
        'sub_group_broadcast_first': '0', 'intel_sub_group_shuffle': 'a1', 'sub_group_shuffle': 'a1',
        'intel_sub_group_shuffle_xor': 'me ^ a1', 'sub_group_shuffle_xor': 'me ^ a1',
        'sub_group_shuffle_up': 'me - a1', 'sub_group_shuffle_down': 'me + a1',
        'sub_group_rotate': '(me + (uint)a1) % n',
    }.get(name)
    if lane is not None and ps and ps[0] == ret:
        return sg_exchange(ret, 'a0', '    %s out = %s;\n' % (ret, slot(ret, lane))) + '    return out;\n'
    if name == 'sub_group_clustered_rotate':
        body = '    uint c0 = me / a2 * a2;\n    %s out = %s;\n' % (ret, slot(ret, 'c0 + (me - c0 + (uint)a1) % a2'))
        return sg_exchange(ret, 'a0', body) + '    return out;\n'
    if name in ('intel_sub_group_shuffle_down', 'intel_sub_group_shuffle_up'):
        # down(cur, next, d): lane me + d of cur, past the end from next;
        # up(prev, cur, d): lane me - d of cur, before the start from prev.
        if name.endswith('down'):
            first = 'a0'
            sel = '    uint j = me + a2;\n    %s out = j < n ? %s : %s;\n'
            read = lambda: sel % (ret, slot(ret, 'j'), slot(ret, 'j - n'))
        else:
            sel = '    int j = (int)me - (int)a2;\n    %s out = j >= 0 ? %s : %s;\n'
            read = lambda: sel % (ret, slot(ret, 'j'), slot(ret, 'j + (int)n'))
        # two exchanges: the slots hold one value each
        if name.endswith('down'):
            return (sg_exchange(ret, 'a0', '    %s c = %s;\n' % (ret, slot(ret, 'me + a2'))) +
                    '    area = zcl_sg_area(st);\n' +
                    '    %s = a1;\n    __zeil_sg_barrier();\n' % slot(ret, 'me') +
                    '    %s nx = %s;\n' % (ret, slot(ret, 'me + a2 - n')) + SG_TAIL +
                    '    return me + a2 < n ? c : nx;\n')
        return (sg_exchange(ret, 'a1', '    %s c = %s;\n' % (ret, slot(ret, 'me - a2'))) +
                '    area = zcl_sg_area(st);\n' +
                '    %s = a0;\n    __zeil_sg_barrier();\n' % slot(ret, 'me') +
                '    %s pv = %s;\n' % (ret, slot(ret, 'me + n - a2')) + SG_TAIL +
                '    return me >= a2 ? c : pv;\n')
    if name in ('sub_group_all', 'sub_group_non_uniform_all'):
        return sg_exchange('int', 'a0 != 0', '    int r = 1;\n    for (uint i = 0; i < n; i++)\n        r &= %s;\n'
                           % slot('int', 'i')) + '    return r;\n'
    if name in ('sub_group_any', 'sub_group_non_uniform_any'):
        return sg_exchange('int', 'a0 != 0', '    int r = 0;\n    for (uint i = 0; i < n; i++)\n        r |= %s;\n'
                           % slot('int', 'i')) + '    return r;\n'
    if name == 'sub_group_non_uniform_all_equal':
        t = ps[0]
        return sg_exchange(t, 'a0', '    int r = 1;\n    for (uint i = 0; i < n; i++)\n        r &= %s == a0;\n'
                           % slot(t, 'i')) + '    return r;\n'
    if name == 'sub_group_elect' and not ps:
        return '    return get_sub_group_local_id() == 0;\n'
    if name == 'sub_group_ballot':
        body = '    uint4 r = (uint4)(0);\n    for (uint i = 0; i < n; i++)\n' \
               '        if (%s)\n            r[i / 32] |= 1u << (i %% 32);\n' % slot('int', 'i')
        return sg_exchange('int', 'a0 != 0', body) + '    return r;\n'
    return gen_ballot(d)


def gen_ballot(d):
    """Ballot bit functions and the lane masks: no exchange (the ballot is already uniform)."""
    name = d.name
    me = '    uint me = get_sub_group_local_id(), n = get_sub_group_size();\n    (void)me; (void)n;\n'
    bit = lambda i: '((a0[%s / 32] >> (%s %% 32)) & 1u)' % (i, i)
    if name == 'sub_group_inverse_ballot':
        return me + '    return %s != 0;\n' % (bit('me'))
    if name == 'sub_group_ballot_bit_extract':
        return '    return a1 < 128 && %s != 0;\n' % (bit('a1'))
    count = me + '    uint c = 0;\n    for (uint i = 0; i < %s; i++)\n        c += %s;\n    return c;\n'
    if name == 'sub_group_ballot_bit_count':
        return count % ('n', bit('i'))
    if name == 'sub_group_ballot_inclusive_scan':
        return count % ('me + 1', bit('i'))
    if name == 'sub_group_ballot_exclusive_scan':
        return count % ('me', bit('i'))
    if name == 'sub_group_ballot_find_lsb':
        return me + '    for (uint i = 0; i < n; i++)\n        if (%s)\n            return i;\n    return ~0u;\n' % (
            bit('i'))
    if name == 'sub_group_ballot_find_msb':
        return me + '    for (uint i = n; i-- > 0;)\n        if (%s)\n            return i;\n    return ~0u;\n' % (
            bit('i'))
    m = re.match(r'^get_sub_group_(eq|ge|gt|le|lt)_mask$', name)
    if m:
        cmp = {'eq': '==', 'ge': '>=', 'gt': '>', 'le': '<=', 'lt': '<'}[m.group(1)]
        return me + '    uint4 r = (uint4)(0);\n    for (uint i = 0; i < n; i++)\n' \
                    '        if (i %s me)\n            r[i / 32] |= 1u << (i %% 32);\n    return r;\n' % cmp
    return None


def gen_block(d):
    name, ret, ps = d.name, d.ret, d.params
    m = re.match(r'^intel_sub_group_block_(read|write)(_u[icsl])?(\d*)$', name)
    if not m or not ps or not ps[0].endswith('*') or 'image' in ps[0]:
        return None
    w = int(m.group(3) or 1)
    head = '    uint me = get_sub_group_local_id(), n = get_sub_group_size();\n    (void)n;\n'
    if m.group(1) == 'read':
        if w == 1:
            return head + '    return a0[me];\n'
        return head + '    return (%s)(%s);\n' % (ret, ', '.join('a0[me + %d * n]' % j for j in range(w)))
    if w == 1:
        return head + '    a0[me] = a1;\n'
    return head + ''.join('    a0[me + %d * n] = a1.%s;\n' % (j, LANES[j]) for j in range(w))


WG_PROLOGUE = '    __global rd_wi_state_t *st = ZCL_ST;\n' \
              '    __global ulong *area = (__global ulong *)st->wg_xchg;\n' \
              '    uint me = st->local_linear_id, n = st->local_linear_size;\n    (void)me; (void)n;\n'


def wg_slot(s, i):
    return '(*(__global %s *)&area[%s])' % (s, i)


def gen_wg(d):
    name, ret, ps = d.name, d.ret, d.params
    s, w = split(ret)
    m = re.match(r'^work_group_(reduce|scan_inclusive|scan_exclusive)_(\w+)$', name)
    if m and len(ps) == 1 and w == 1:
        kind, op = m.group(1), m.group(2)
        # publish; one work-item folds (in place for scans); read; the second
        # barrier keeps the next collective's writes after everyone's reads.
        if kind == 'reduce':
            fold = '    if (me == 0) {\n        %s r = %s;\n        for (uint i = 0; i < n; i++)\n' \
                   '            r = %s;\n        %s = r;\n    }\n' % (
                       s, identity(op, s), combine(op, s, 'r', wg_slot(s, 'i')), wg_slot(s, '1024'))
            read = '    %s out = %s;\n' % (s, wg_slot(s, '1024'))
        else:
            incl = kind == 'scan_inclusive'
            fold = '    if (me == 0) {\n        %s r = %s;\n        for (uint i = 0; i < n; i++) {\n' \
                   '            %s v = %s;\n            r = %s;\n            %s = %s;\n        }\n    }\n' % (
                       s, identity(op, s), s, wg_slot(s, 'i'), combine(op, s, 'r', 'v'), wg_slot(s, 'i'),
                       'r' if incl else '(r == r ? r : r)')
            if not incl:
                fold = '    if (me == 0) {\n        %s r = %s;\n        for (uint i = 0; i < n; i++) {\n' \
                       '            %s v = %s;\n            %s = r;\n            r = %s;\n        }\n    }\n' % (
                           s, identity(op, s), s, wg_slot(s, 'i'), wg_slot(s, 'i'), combine(op, s, 'r', 'v'))
            read = '    %s out = %s;\n' % (s, wg_slot(s, 'me'))
        return (WG_PROLOGUE + '    %s = a0;\n    __zeil_wg_barrier(CLK_LOCAL_MEM_FENCE);\n' % wg_slot(s, 'me') +
                fold + '    __zeil_wg_barrier(CLK_LOCAL_MEM_FENCE);\n' + read +
                '    __zeil_wg_barrier(CLK_LOCAL_MEM_FENCE);\n    return out;\n')
    if name == 'work_group_broadcast' and w == 1:
        if len(ps) == 2:
            src = 'a1'
        elif len(ps) == 3:
            src = 'a2 * st->local_size[0] + a1'
        else:
            src = '(a3 * st->local_size[1] + a2) * st->local_size[0] + a1'
        return (WG_PROLOGUE + '    if (me == (uint)(%s))\n        %s = a0;\n' % (src, wg_slot(s, '1024')) +
                '    __zeil_wg_barrier(CLK_LOCAL_MEM_FENCE);\n    %s out = %s;\n' % (s, wg_slot(s, '1024')) +
                '    __zeil_wg_barrier(CLK_LOCAL_MEM_FENCE);\n    return out;\n')
    if name in ('work_group_all', 'work_group_any'):
        fold = 'r &= ' if name.endswith('all') else 'r |= '
        init = '1' if name.endswith('all') else '0'
        return (WG_PROLOGUE + '    %s = a0 != 0;\n    __zeil_wg_barrier(CLK_LOCAL_MEM_FENCE);\n' % wg_slot('int', 'me') +
                '    int r = %s;\n    for (uint i = 0; i < n; i++)\n        %s%s;\n' % (init, fold, wg_slot('int', 'i')) +
                '    __zeil_wg_barrier(CLK_LOCAL_MEM_FENCE);\n    return r;\n')
    return None


def generate(decls, out):
    out.write('#include "zcl_rt.h"\n\n')
    out.write('static __global uchar *zcl_sg_area(__global rd_wi_state_t *st)\n{\n'
              '    return (__global uchar *)st->sg_xchg + st->xchg_parity * (RD_SG_MAX * RD_XCHG_SLOT_BYTES);\n}\n\n')
    done = 0
    for d in decls:
        if not ('sub_group' in d.name or d.name.startswith('work_group_')) or \
                (d.name.startswith('get_') and not d.name.endswith('_mask')):
            continue
        if 'avc' in d.name or any('image' in p for p in d.params):
            continue
        body = gen_block(d) or gen_sg(d) or gen_wg(d)
        if body is None:
            continue
        sig = ', '.join('%s a%d' % (p, i) for i, p in enumerate(d.params)) or 'void'
        out.write('ZCL_OVL %s %s(%s)\n{\n%s}\n\n' % (d.ret, d.name, sig, body))
        done += 1
    return done
