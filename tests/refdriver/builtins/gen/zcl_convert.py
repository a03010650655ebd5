"""zcl_convert.py: the conversions convert_T[_sat][_rte|_rtz|_rtp|_rtn], every
declared overload, scalar and vector (zcl_elementwise.py writes them; a
category of their own so the two halves compile in parallel)."""
import zcl_elementwise


def generate(decls, out):
    return zcl_elementwise.generate(decls, out, True)
