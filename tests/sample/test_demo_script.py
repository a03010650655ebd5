#!/usr/bin/python3
"""scripts/demo --no-build against this build tree, as CI runs it: exit 0,
the exit report on the terminal, and the three files, each what it claims to
be. Then the same against a build tree without the demo: a clear failure.

    test_demo_script.py SOURCE_DIR BUILD_DIR
"""
import json
import os
import subprocess
import sys
import tempfile


def fail(message):
    print(f"test_demo_script: {message}", file=sys.stderr)
    sys.exit(1)


def demo(source, build):
    return subprocess.run([os.path.join(source, "scripts", "demo"), "--no-build", "--build-dir",
                           build], capture_output=True, text=True, timeout=240)


def main():
    source, build = sys.argv[1:]
    run = demo(source, build)
    if run.returncode != 0:
        fail(f"scripts/demo exited with {run.returncode}:\n{run.stdout}{run.stderr}")
    for shown in ("zeil report", "errors and warnings: 0 errors, 0 warnings", "leaks: none"):
        if shown not in run.stderr:
            fail(f"the exit report lacks {shown!r}:\n{run.stderr}")
    if "vs. the C reference: ok" not in run.stdout:
        fail(f"no result line:\n{run.stdout}")
    out = os.path.join(build, "demo")
    for name in ("trace.json", "summary.json", "timeline.png"):
        path = os.path.join(out, name)
        if not os.path.isfile(path) or os.path.getsize(path) == 0:
            fail(f"{path} was not written")
        if path not in run.stdout:
            fail(f"the demo does not say where {name} is:\n{run.stdout}")
    with open(os.path.join(out, "trace.json")) as f:
        json.load(f)
    with open(os.path.join(out, "summary.json")) as f:
        if json.load(f)["status"] != "exit":
            fail("summary status is not exit")
    with open(os.path.join(out, "timeline.png"), "rb") as f:
        if f.read(8) != b"\x89PNG\r\n\x1a\n":
            fail("timeline.png is not a PNG")

    with tempfile.TemporaryDirectory() as empty:
        broken = demo(source, empty)
        if broken.returncode == 0 or "is missing: build first" not in broken.stderr:
            fail(f"an empty build tree: status {broken.returncode}, {broken.stderr!r}")
    print("ok: scripts/demo ran and left trace.json, summary.json, timeline.png")


main()
