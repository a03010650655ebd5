#!/usr/bin/python3
"""Holds libzeil.so to its export list (layer/api/libzeil.map).

    check_exports.py SOURCE_DIR LIBZEIL SHIM [IMPORTER...]

1. The map's public node (ZEIL_0.1) lists exactly the functions
   include/zeil/zeil.h declares, and its private node (ZEIL_PRIVATE_SHIM)
   exactly the zeil_shim_* functions layer/entry/shim_abi.h declares.
2. LIBZEIL's dynamic symbol table defines exactly the names of the map, each
   with the version of its node: a stray export (an internal function that
   lost its static, a generated symbol) fails here.
3. SHIM imports from libzeil.so only names of the private node, and every
   IMPORTER (libzeil_interop.so, ...) only names of the public node.
"""
import re
import subprocess
import sys

PUBLIC = "ZEIL_0.1"
PRIVATE = "ZEIL_PRIVATE_SHIM"


def fail(message):
    print(f"check_exports: {message}", file=sys.stderr)
    sys.exit(1)


def without_comments(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)


def map_nodes(path):
    """{node name: set of global names} of a version script."""
    text = without_comments(open(path).read())
    nodes = {}
    for m in re.finditer(r"([A-Za-z_][\w.]*)\s*\{(.*?)\}\s*[\w.]*\s*;", text, re.S):
        names = set()
        section = None
        for item in m.group(2).split(";"):
            item = item.strip()
            label = re.match(r"(global|local)\s*:\s*(.*)", item, re.S)
            if label:
                section, item = label.group(1), label.group(2).strip()
            if item and section == "global":
                if "*" in item or "?" in item:
                    fail(f"{path}: node {m.group(1)} exports by pattern ({item}), not by name")
                names.add(item)
        nodes[m.group(1)] = names
    return nodes


def declared_functions(path, pattern):
    text = without_comments(open(path).read())
    return set(re.findall(r"\b(" + pattern + r")\s*\(", text))


def dynamic_symbols(library):
    """(defined {name: version}, undefined {name}) of library's .dynsym."""
    out = subprocess.run(["readelf", "--dyn-syms", "--wide", library], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    defined, undefined = {}, set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 8 or not fields[0].rstrip(":").isdigit():
            continue
        ndx, name = fields[6], fields[7]
        base, _, version = name.partition("@")
        version = version.lstrip("@")
        if ndx == "UND":
            undefined.add(base)
        elif fields[4] in ("GLOBAL", "WEAK") and not (ndx == "ABS" and base in (PUBLIC, PRIVATE)):
            defined[base] = version  # (the ABS symbols are the version nodes themselves)
    return defined, undefined


def main():
    if len(sys.argv) < 4:
        fail("usage: check_exports.py SOURCE_DIR LIBZEIL SHIM [IMPORTER...]")
    source, libzeil, shim, importers = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    nodes = map_nodes(f"{source}/layer/api/libzeil.map")
    if set(nodes) != {PUBLIC, PRIVATE}:
        fail(f"layer/api/libzeil.map has nodes {sorted(nodes)}, expected {PUBLIC} and {PRIVATE}")

    header = declared_functions(f"{source}/include/zeil/zeil.h", r"zeil_\w+")
    contract = declared_functions(f"{source}/layer/entry/shim_abi.h", r"zeil_shim_\w+")
    for node, declared, where in ((PUBLIC, header, "include/zeil/zeil.h"),
                                  (PRIVATE, contract, "layer/entry/shim_abi.h")):
        if nodes[node] - declared:
            fail(f"{node} exports what {where} does not declare: {sorted(nodes[node] - declared)}")
        if declared - nodes[node]:
            fail(f"{where} declares what {node} does not export: {sorted(declared - nodes[node])}")

    wanted = {name: node for node, names in nodes.items() for name in names}
    exported, _ = dynamic_symbols(libzeil)
    stray = sorted(set(exported) - set(wanted))
    if stray:
        fail(f"{libzeil} exports names not in layer/api/libzeil.map: {stray}")
    missing = sorted(set(wanted) - set(exported))
    if missing:
        fail(f"{libzeil} does not export: {missing}")
    misversioned = sorted(f"{n}@{exported[n]} (map: {wanted[n]})"
                          for n in wanted if exported[n] != wanted[n])
    if misversioned:
        fail(f"{libzeil} exports names under the wrong version: {misversioned}")

    for library, allowed, node in [(shim, nodes[PRIVATE], PRIVATE)] + \
            [(lib, nodes[PUBLIC], PUBLIC) for lib in importers]:
        _, imported = dynamic_symbols(library)
        outside = sorted(n for n in imported if n in wanted and n not in allowed)
        if outside:
            fail(f"{library} imports from libzeil.so names outside {node}: {outside}")
        if not imported & allowed:
            fail(f"{library} imports nothing of {node}: is it linked against libzeil.so?")

    print(f"ok: {len(nodes[PUBLIC])} names in {PUBLIC}, {len(nodes[PRIVATE])} in {PRIVATE}, "
          f"nothing else exported; {1 + len(importers)} importers checked")


main()
