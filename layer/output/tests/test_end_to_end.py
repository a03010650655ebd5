#!/usr/bin/python3
"""End to end (full build only): a real program under zeil-run with the
layer (libzeil.so) on the reference driver; the trace and the summary must
load, and agree with each other launch for launch.

    test_end_to_end.py SCRIPTS_DIR LIBZEIL DRIVER PROGRAM [ARGS...]
"""
import collections
import json
import os
import subprocess
import sys
import tempfile


def fail(message):
    print(f"test_end_to_end: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    scripts, libzeil, driver, *program = sys.argv[1:]
    work = tempfile.mkdtemp()
    trace, summary, report = (os.path.join(work, n) for n in ("t.json", "s.json", "r.txt"))
    env = dict(os.environ, ZEIL_LIBRARY=libzeil, ZE_ENABLE_ALT_DRIVERS=driver)
    run = subprocess.run([os.path.join(scripts, "zeil-run"), "--trace", trace, "--summary",
                          summary, "--report", report, "--", *program],
                         env=env, capture_output=True, text=True, timeout=240)
    if run.returncode != 0:
        fail(f"the program failed under zeil-run ({run.returncode}): {run.stderr}{run.stdout}")
    with open(trace) as f:
        events = json.load(f)  # strict: a normal exit completes the file
    with open(summary) as f:
        doc = json.load(f)
    if doc["status"] != "exit":
        fail(f"summary status {doc['status']}")
    ends = [e for e in events if e.get("name") == "zeil_trace_end"]
    if len(ends) != 1 or ends[0]["args"]["reason"] != "exit":
        fail(f"trace end marker: {ends}")
    with open(report) as f:
        if not f.readline() == "zeil report\n":
            fail("the report does not start with its title")

    names = {e["tid"]: e["args"]["name"] for e in events
             if e["ph"] == "M" and e["name"] == "thread_name" and e["pid"] == 2}
    in_trace = collections.Counter()
    for e in events:
        if e["ph"] == "X" and e["pid"] == 2 and e["args"]["kind"] == "launch":
            in_trace[(names[e["tid"]], e["args"]["kernel"])] += 1
    in_summary = collections.Counter()
    for s in doc["streams"]:
        track = [n for n in names.values() if f"list {s['list']}" in n]
        if len(track) != 1:
            fail(f"no single trace track for list {s['list']}: {sorted(names.values())}")
        for k in s["kernels"]:
            in_summary[(track[0], k["kernel"])] += k["launches"]
    if not in_summary:
        fail("the summary has no kernel launches")
    if in_trace != in_summary:
        fail(f"trace and summary disagree:\n trace   {dict(in_trace)}\n summary {dict(in_summary)}")
    for path in (trace, summary):
        r = subprocess.run([os.path.join(scripts, "zeil-report"), path], capture_output=True,
                           text=True, timeout=120)
        if r.returncode != 0:
            fail(f"zeil-report {path}: {r.stderr}")
    print(f"ok: {sum(in_trace.values())} launches on {len(names)} tracks agree")


main()
