"""zcl_math.py: math, common, integer and relational built-ins without
pointer arguments, every declared overload (zcl_elementwise.py writes them)."""
import zcl_elementwise


def generate(decls, out):
    return zcl_elementwise.generate(decls, out, False)
