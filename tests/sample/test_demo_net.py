#!/usr/bin/python3
"""zeil_demo_net under zeil-run on the reference driver: exit 0, its result
line, and a summary and trace that show exactly the network it ran.

    test_demo_net.py ZEIL_RUN LIBZEIL DRIVER PROGRAM ITERATIONS [--timing]

Stream A must hold ITERATIONS convolutions and ReLUs (eltwise), stream B
ITERATIONS inner products, nothing else launched, no rule fired, no leak; the
trace must parse, end normally, carry the same launches per track, and show
an event arrow into every inner product (it waits on A's ReLU).
"""
import collections
import json
import os
import subprocess
import sys
import tempfile

KERNEL = "zeil_dnnl_primitive_execute"


def fail(message):
    print(f"test_demo_net: {message}", file=sys.stderr)
    sys.exit(1)


def check_summary(doc, iterations, timing):
    if doc["status"] != "exit":
        fail(f"summary status {doc['status']!r}")
    if doc["errors"] or doc["warnings"] or doc["rules"]:
        fail(f"rules fired: {doc['rules']}")
    leaks = doc["leaks"]
    if leaks["handles"] or leaks["allocations"]:
        fail(f"leaks: {leaks}")
    streams = doc["streams"]
    if len(streams) != 2 or not all(s["stream"] for s in streams):
        fail(f"expected two oneDNN streams, got {[(s['stream'], s['list']) for s in streams]}")
    seen = []
    for s in streams:
        rows = {}
        for k in s["kernels"]:
            if k["kernel"] != KERNEL or not k["impl"]:
                fail(f"unexpected kernel row {k}")
            if timing and k["timed_launches"] != k["launches"]:
                fail(f"not every launch was timed: {k}")
            rows[k["primitive"]] = k["launches"]
        seen.append(rows)
    want = [{"convolution": iterations, "eltwise": iterations}, {"inner_product": iterations}]
    if sorted(seen, key=len, reverse=True) != want:
        fail(f"streams hold {seen}, expected {want}")
    return {s["list"]: s for s in streams}


def check_trace(events, by_list, iterations):
    ends = [e for e in events if e.get("name") == "zeil_trace_end"]
    if len(ends) != 1 or ends[0]["args"]["reason"] != "exit":
        fail(f"trace end marker: {ends}")
    names = {e["tid"]: e["args"]["name"] for e in events
             if e["ph"] == "M" and e["name"] == "thread_name" and e["pid"] == 2}
    launches = collections.Counter()
    arrows_into_ip = 0
    for e in events:
        if e["ph"] == "X" and e["pid"] == 2 and e["args"]["kind"] == "launch":
            launches[(names[e["tid"]], e["args"]["primitive"])] += 1
    for e in events:
        if e["ph"] == "f" and e["name"] == "event":
            arrows_into_ip += 1
    expected = collections.Counter()
    for lst, s in by_list.items():
        track = [n for n in names.values() if f"list {lst}" in n]
        if len(track) != 1:
            fail(f"no single trace track for list {lst}: {sorted(names.values())}")
        for k in s["kernels"]:
            expected[(track[0], k["primitive"])] += k["launches"]
    if launches != expected:
        fail(f"trace and summary disagree:\n trace   {dict(launches)}\n summary {dict(expected)}")
    # Arrows end in A's first convolution (the upload event), in each inner
    # product (A's ReLU) and in the read-back copy (B's last inner product).
    if arrows_into_ip != iterations + 2:
        fail(f"{arrows_into_ip} event arrows, expected {iterations + 2}")


def main():
    zeil_run, libzeil, driver, program, iterations, *options = sys.argv[1:]
    iterations = int(iterations)
    timing = "--timing" in options
    work = tempfile.mkdtemp(prefix="zeil_demo_net.")
    trace, summary, report = (os.path.join(work, n) for n in ("t.json", "s.json", "r.txt"))
    env = dict(os.environ, ZEIL_LIBRARY=libzeil)
    command = [zeil_run, "--driver", driver, "--trace", trace, "--summary", summary,
               "--report", report] + (["--timing"] if timing else []) + \
              ["--", program, str(iterations)]
    run = subprocess.run(command, env=env, capture_output=True, text=True, timeout=240)
    if run.returncode != 0:
        fail(f"exit status {run.returncode}:\n{run.stdout}{run.stderr}")
    if f"zeil_demo_net: {iterations} iterations of" not in run.stdout or \
            not run.stdout.rstrip().endswith(": ok"):
        fail(f"no result line: {run.stdout!r}")
    if run.stderr.strip():
        fail(f"unexpected output on stderr: {run.stderr!r}")
    with open(summary) as f:
        by_list = check_summary(json.load(f), iterations, timing)
    with open(trace) as f:
        check_trace(json.load(f), by_list, iterations)
    with open(report) as f:
        text = f.read()
    if not text.startswith("zeil report\n") or "leaks: none" not in text:
        fail(f"report:\n{text}")
    print(f"ok: {iterations} iterations, 2 streams, {3 * iterations} launches")


main()
