#!/usr/bin/python3
"""Holds a library to one dependency direction between its stages, read from
the built objects' symbol tables (nm): an object that uses a symbol another
object defines depends on it.

    check_layering.py layer|interop SOURCE_DIR OBJECT...   (or OBJECT;OBJECT;...)

layer: each object belongs to the stage of its folder (layer/README.md); a
stage may use itself and the stages listed for it in LAYER_USES, nothing
else. The generated intercepts (build/generated/zeil_wrappers.c) belong to
intercept/, the generated result names to output/.

interop: each object belongs to the group INTEROP_GROUPS names for it; the
same rule, with INTEROP_USES.

Fails on any edge against the direction, naming both files and the symbol;
prints the largest knot (objects that all depend on each other) either way.
"""
import os
import re
import subprocess
import sys

# What each stage of layer/ may use besides itself (layer/README.md).
LAYER_USES = {
    "entry": {"api", "intercept", "checks", "hazards", "records", "registry", "usm", "common",
              "output"},
    "api": {"checks", "hazards", "records", "registry", "usm", "common", "output"},
    "intercept": {"checks", "hazards", "records", "registry", "usm", "common", "output"},
    "hazards": {"checks", "records", "registry", "usm", "common", "output"},
    "checks": {"records", "registry", "usm", "common", "output"},
    "records": {"registry", "usm", "common", "output"},
    "registry": {"usm", "common", "output"},
    "usm": {"common"},
    "common": {"output"},
    "output": set(),
}
GENERATED_STAGE = {"zeil_wrappers.c": "intercept", "zo_result_name.c": "output"}

# The interop library (interop/README.md): the oneDNN functions it interposes
# call the objects' code, which finds oneDNN's own functions through real_dnnl.c.
INTEROP_GROUPS = {
    "interpose.c": "interposed",
    "real_dnnl.c": "real",
}
INTEROP_USES = {
    "interposed": {"objects", "real", "support"},
    "objects": {"real", "support"},
    "real": {"support"},
    "support": set(),
}
INTEROP_OBJECTS = {"engine.c", "stream.c", "memory.c", "execute.c", "event_ring.c",
                   "engine_cache_blob.c", "forward.c"}


def fail(message):
    print(f"check_layering: {message}", file=sys.stderr)
    sys.exit(1)


def source_of(obj):
    """The source path an object was compiled from, as CMake names objects
    (<target>.dir/<path under the target's folder>.o)."""
    m = re.search(r"/([^/]+)\.dir/(.*)\.o(bj)?$", obj)
    if not m:
        fail(f"{obj}: not an object file of a CMake target")
    source = m.group(2).replace("__/", "")
    if os.path.basename(source) in GENERATED_STAGE:
        return "generated/" + os.path.basename(source)
    return ("output/" if m.group(1) == "zeil_output" else "") + source


def layer_stage(obj):
    source = source_of(obj)
    name = os.path.basename(source)
    if name in GENERATED_STAGE:
        return GENERATED_STAGE[name]
    parts = source.split("/")
    if parts[:2] == ["registry", "usm"]:
        return "usm"
    if len(parts) < 2 or parts[0] not in LAYER_USES:
        fail(f"{source}: in no stage folder of layer/ (layer/README.md)")
    return parts[0]


def interop_group(obj):
    name = os.path.basename(source_of(obj))
    if name in INTEROP_GROUPS:
        return INTEROP_GROUPS[name]
    return "objects" if name in INTEROP_OBJECTS else "support"


def symbols(obj):
    """(defined, undefined) global symbols of an object."""
    out = subprocess.run(["nm", obj], check=True, stdout=subprocess.PIPE, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 2 and fields[0] == "U":
            undefined.add(fields[1])
        elif len(fields) == 3 and fields[1] in "TDBRVWGSu":
            defined.add(fields[2])
    return defined, undefined


def edges_of(objects):
    """{(user, used): sorted symbols} between distinct objects."""
    tables = {o: symbols(o) for o in objects}
    owner = {}
    for o, (defined, _) in tables.items():
        for s in defined:
            owner[s] = o
    edges = {}
    for o, (_, undefined) in tables.items():
        for s in undefined:
            if s in owner and owner[s] != o:
                edges.setdefault((o, owner[s]), []).append(s)
    return {k: sorted(v) for k, v in edges.items()}


def largest_knot(objects, edges):
    """The largest strongly connected set of objects (Tarjan, iterative)."""
    succ = {o: [] for o in objects}
    for (a, b) in edges:
        succ[a].append(b)
    index, low, on_stack, stack, best = {}, {}, set(), [], []
    counter = 0
    for root in objects:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on_stack.add(v)
            if i < len(succ[v]):
                work.append((v, i + 1))
                w = succ[v][i]
                if w not in index:
                    work.append((w, 0))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                knot = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    knot.append(w)
                    if w == v:
                        break
                if len(knot) > len(best):
                    best = knot
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return best


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("layer", "interop"):
        fail("usage: check_layering.py layer|interop SOURCE_DIR OBJECT...")
    library, source_dir = sys.argv[1], sys.argv[2]
    # CMake's $<TARGET_OBJECTS:...> arrives as one ;-separated argument.
    objects = [o for arg in sys.argv[3:] for o in arg.split(";") if o]
    group, uses, top = ((layer_stage, LAYER_USES, "layer") if library == "layer"
                        else (interop_group, INTEROP_USES, "interop"))
    edges = edges_of(objects)
    against = []
    for (a, b), syms in sorted(edges.items()):
        ga, gb = group(a), group(b)
        if ga != gb and gb not in uses[ga]:
            against.append(f"{top}/{source_of(a)} ({ga}) uses {top}/{source_of(b)} ({gb}): "
                           f"{', '.join(syms)}")
    knot = largest_knot(objects, edges)
    print(f"{library}: {len(objects)} objects, {len(edges)} edges, {len(against)} against the "
          f"direction; largest knot {len(knot) if len(knot) > 1 else 0} objects"
          + (f" ({', '.join(sorted(os.path.basename(source_of(o)) for o in knot))})"
             if len(knot) > 1 else ""))
    if against:
        fail(f"{len(against)} edges against the direction ({source_dir}/{top}/README.md):\n  "
             + "\n  ".join(against))


if __name__ == "__main__":
    main()
