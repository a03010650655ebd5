#!/usr/bin/python3
"""Each component reads the environment in one file.

    check_env_reads.py SOURCE_DIR

The layer (layer/, its output/ and hazards/ folders) reads it only in
layer/common/env.c, the interop library only in interop/env.c: a getenv or
secure_getenv anywhere else in their sources fails here. (Their tests are
not part of the component.)
"""
import os
import re
import sys

READ = re.compile(r"\b(secure_)?getenv\s*\(")
ALLOWED = {"layer": "layer/common/env.c", "interop": "interop/env.c"}


def main():
    source = sys.argv[1]
    stray = []
    for component, allowed in ALLOWED.items():
        for folder, dirs, files in os.walk(os.path.join(source, component)):
            dirs[:] = [d for d in dirs if d != "tests"]
            for name in files:
                if not name.endswith((".c", ".h")):
                    continue
                path = os.path.join(folder, name)
                relative = os.path.relpath(path, source)
                text = re.sub(r"/\*.*?\*/", " ", open(path).read(), flags=re.S)
                if relative != allowed and READ.search(text):
                    stray.append(f"{relative} (only {allowed} reads the environment)")
    if stray:
        print("check_env_reads: " + "; ".join(stray), file=sys.stderr)
        sys.exit(1)
    print("ok: layer/common/env.c and interop/env.c are the only readers of the environment")


main()
