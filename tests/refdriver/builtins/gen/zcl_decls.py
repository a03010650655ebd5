"""zcl_decls.py: the built-in declarations a kernel sees, read from clang's
own preprocessor output of opencl-c.h plus zeil_cl_ext.h (CL3.0, every
extension the spir64 target enables), so that the library defines exactly
the overloads a kernel's calls name."""
import re
import subprocess

DECL = re.compile(
    r'(?:^|[{}\n])\s*((?:const\s+)?[A-Za-z_]\w*)\s+((?:__attribute__\(\(\w+\)\)\s*)+)([A-Za-z_]\w*)\s*\(([^()]*)\)\s*$')


class Decl:
    def __init__(self, ret, name, params, attrs):
        self.ret = ret
        self.name = name
        self.params = params
        self.attrs = attrs

    def key(self):
        """What the mangled name depends on: typedefs resolved (uintptr_t is ulong on spir64)."""
        return (self.name, tuple(canonical(p) for p in self.params))


TYPEDEFS = [('atomic_uintptr_t', 'atomic_ulong'), ('atomic_intptr_t', 'atomic_long'),
            ('atomic_size_t', 'atomic_ulong'), ('atomic_ptrdiff_t', 'atomic_long'),
            ('uintptr_t', 'ulong'), ('intptr_t', 'long'), ('size_t', 'ulong'), ('ptrdiff_t', 'long')]


def canonical(p):
    for a, b in TYPEDEFS:
        p = re.sub(r'\b%s\b' % a, b, p)
    return p


def param_type(p):
    """A parameter's type without its name: 'const __global uint* p' -> 'const __global uint*'."""
    p = ' '.join(p.replace('*', ' * ').split())
    words = p.split(' ')
    if len(words) > 1 and words[-1] != '*' and re.match(r'^[a-z_]\w*$', words[-1]) and not is_type_word(words[-1], words):
        words = words[:-1]
    return ' '.join(words).replace(' *', '*')


TYPE_WORDS = {'const', 'volatile', '__global', '__local', '__private', '__constant', '__generic', 'unsigned',
              'signed', 'restrict'}


def is_type_word(w, words):
    # a lone type ('uint') is its own type; a last word after another type word is a name
    return len(words) == 1 or (len(words) >= 2 and all(x in TYPE_WORDS for x in words[:-1]))


def read(clang, ext_header):
    cmd = [clang, '-cc1', '-triple', 'spir64-unknown-unknown', '-x', 'cl', '-cl-std=CL3.0',
           '-finclude-default-header', '-include', ext_header, '-E', '-P', '-o', '-', '/dev/null']
    text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    decls, seen = [], set()
    for piece in text.split(';'):
        m = DECL.search(piece)
        if not m:
            continue
        ret, attrs, name, params = m.group(1), m.group(2), m.group(3), m.group(4)
        if 'overloadable' not in attrs:
            continue
        ps = [param_type(p) for p in params.split(',')] if params.strip() not in ('', 'void') else []
        d = Decl(ret.strip(), name, ps, attrs)
        if d.key() not in seen:
            seen.add(d.key())
            decls.append(d)
    return decls
