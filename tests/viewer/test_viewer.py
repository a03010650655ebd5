#!/usr/bin/python3
"""zeil_viewer: the demo's trace as the DevTools Performance panel sees it.

    test_viewer.py ZEIL_RUN DRIVER PROGRAM LIBRARY WORKDIR

Runs zeil_demo_net (3 iterations, device times on) under zeil-run, loads its
trace with the DevTools trace engine (npm @paulirish/trace_engine, pinned by
package-lock.json; load_in_devtools.mjs) and checks the tracks (names, order,
spans per track) and that the engine binds every arrow zeil wrote, which
must be the arrows the demo's dependencies imply. Exit status 77 (skipped)
when Node.js or the package is missing and the npm registry cannot be
reached: never a failure for want of the network.
"""
import collections
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ITERATIONS = 3
SKIP = 77


def fail(message):
    print(f"test_viewer: FAIL: {message}")
    sys.exit(1)


def skip(message):
    print(f"test_viewer: SKIPPED: {message}")
    sys.exit(SKIP)


def engine_dir(workdir):
    """A folder with load_in_devtools.mjs next to node_modules holding the
    engine: the source tree's (scripts/setup installs it), else one made
    with npm ci from the committed lock file."""
    if shutil.which("node") is None:
        skip("Node.js is not installed (scripts/setup installs Debian's nodejs)")
    if os.path.isdir(os.path.join(HERE, "node_modules", "@paulirish", "trace_engine")):
        return HERE
    target = os.path.join(workdir, "viewer")
    os.makedirs(target, exist_ok=True)
    for name in ("package.json", "package-lock.json", "load_in_devtools.mjs"):
        shutil.copy(os.path.join(HERE, name), target)
    if os.path.isdir(os.path.join(target, "node_modules", "@paulirish", "trace_engine")):
        return target
    if shutil.which("npm") is None:
        skip("npm is not installed (scripts/setup installs Debian's npm)")
    try:
        r = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--fetch-retries=1",
                            "--fetch-timeout=30000"], cwd=target,
                           capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        skip("npm ci timed out: the npm registry is unreachable")
    if r.returncode != 0:
        errors = [line for line in r.stderr.splitlines() if "error" in line.lower()]
        skip("npm ci failed (the npm registry is unreachable?): "
             + (errors[0] if errors else "no message"))
    return target


def run_demo(zeil_run, driver, program, library, workdir):
    trace = os.path.join(workdir, "viewer_trace.json")
    env = dict(os.environ, ZEIL_LIBRARY=library)
    r = subprocess.run([zeil_run, "--driver", driver, "--timing", "--no-report", "--trace", trace,
                        "--", program, str(ITERATIONS)], env=env, capture_output=True, text=True,
                       timeout=300)
    if r.returncode != 0:
        fail(f"zeil_demo_net under zeil-run exited {r.returncode}: {r.stderr}")
    return trace


def main(zeil_run, driver, program, library, workdir):
    os.makedirs(workdir, exist_ok=True)
    where = engine_dir(workdir)
    trace = run_demo(zeil_run, driver, program, library, workdir)
    r = subprocess.run(["node", os.path.join(where, "load_in_devtools.mjs"), trace],
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        fail(f"the DevTools trace engine could not load the trace: {r.stderr}")
    seen = json.loads(r.stdout)
    with open(trace, encoding="utf-8") as f:
        events = json.load(f)

    # Tracks: streams first in creation order, then the copy list, each named
    # by the demo's name, number and device, with the handle values.
    device = [t for t in seen["threads"] if t["pid"] == 2]
    expected_titles = ['"A: conv+relu": stream 1 on "', '"B: inner product": stream 2 on "',
                       '"copies": list #3 on "']
    names = [t["name"] or "" for t in device]
    if len(device) != 3 or not all(n.startswith(e) for n, e in zip(names, expected_titles)):
        fail(f"device tracks in the panel: {names}")
    if not all(", list 0x" in n or "(list 0x" in n for n in names):
        fail(f"handle values missing from the track names: {names}")

    # Spans per track, as the panel counts them and as zeil wrote them.
    written = collections.Counter((e["pid"], e["tid"]) for e in events if e["ph"] == "X")
    for t in seen["threads"]:
        if len(t["spans"]) != written[(t["pid"], t["tid"])]:
            fail(f"track {t['name']}: {len(t['spans'])} spans in the panel, "
                 f"{written[(t['pid'], t['tid'])]} in the file")
    a, b, copies = (collections.Counter(s.split(" (")[0] for s in t["spans"]) for t in device)
    if a != {"convolution": ITERATIONS, "eltwise": ITERATIONS}:
        fail(f"stream A's spans: {dict(a)}")
    if b != {"inner_product": ITERATIONS}:
        fail(f"stream B's spans: {dict(b)}")
    if set(copies) != {"copy [nominal]"}:
        fail(f"the copy list's spans: {dict(copies)}")
    if not all(s.endswith(")") and "(" in s for t in device[:2] for s in t["spans"]):
        fail("launch spans are not named 'primitive (implementation)'")

    # Every arrow zeil wrote, by the spans at its two ends.
    spans = {(e["pid"], e["tid"], e["ts"]): e for e in events if e["ph"] == "X"}
    pairs = collections.defaultdict(dict)
    for e in events:
        if e["ph"] in "sf":
            pairs[(e["name"], e["id"])][e["ph"]] = e
    meant = {}
    for key, p in pairs.items():
        ends = [spans.get((p[ph]["pid"], p[ph]["tid"], p[ph]["ts"])) for ph in "sf"]
        if None in ends:
            fail(f"arrow {key} does not start at a span: {p}")
        meant[frozenset((e["pid"], e["tid"], e["ts"]) for e in ends)] = (key[0], ends)
    found = {frozenset((e["pid"], e["tid"], e["ts"]) for e in flow) for flow in seen["flows"]}
    missing = [meant[k] for k in meant if k not in found]
    if missing:
        fail(f"{len(missing)} of {len(meant)} arrows not drawn, e.g. "
             f"{[(n, [e['name'] for e in ends]) for n, ends in missing[:3]]}")
    if len(found) != len(meant):
        fail(f"the panel drew {len(found)} arrows, zeil meant {len(meant)}")

    # The arrows are the demo's dependencies: a host append to each device
    # span; the upload into the first convolution, A's ReLU into each inner
    # product, the last inner product into the read-back copy.
    kinds = collections.Counter(name for name, _ in meant.values())
    device_spans = sum(written[(2, t["tid"])] for t in device)
    if kinds["submit"] != device_spans:
        fail(f"{kinds['submit']} host-to-device arrows for {device_spans} device spans")
    if kinds["event"] != ITERATIONS + 2:
        fail(f"{kinds['event']} event arrows, expected {ITERATIONS + 2}")
    relu_to_ip = sum(1 for name, (src, dst) in meant.values() if name == "event"
                     and src["name"].startswith("eltwise (")
                     and dst["name"].startswith("inner_product ("))
    if relu_to_ip != ITERATIONS:
        fail(f"{relu_to_ip} arrows from eltwise to inner_product, expected {ITERATIONS}")
    if not all(src["name"].startswith("zeCommandListAppend")
               for name, (src, _) in meant.values() if name == "submit"):
        fail("a host-to-device arrow does not start at an append")
    print(f"ok: {len(device)} device tracks, {device_spans} device spans, "
          f"{len(meant)} arrows ({kinds['submit']} submit, {kinds['event']} event) "
          "all drawn by the DevTools trace engine")


if __name__ == "__main__":
    if len(sys.argv) != 6:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    main(*sys.argv[1:])
