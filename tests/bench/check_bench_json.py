#!/usr/bin/env python3
"""Runs zeil_bench --quick and checks the JSON it wrote (build/bench.json keys).

Only the shape is checked (every key, every value a number or, where the
figure was not measured, null); never a timing: a smoke test must not fail
because the machine is busy.

usage: check_bench_json.py ZEIL_BENCH OUTPUT.json
"""
import json
import math
import subprocess
import sys

CALL_FIGURES = ("launch_append_ns", "alloc_free_ns", "event_ns",
                "launch_added_ns", "alloc_free_added_ns", "event_added_ns")
CONFIGS = ("driver", "zeil", "zeil_trace", "stock_validation", "stock_tracing")


def fail(message):
    print("check_bench_json: " + message, file=sys.stderr)
    sys.exit(1)


def measured(where, value, nullable=False):
    if value is None and nullable:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        fail("%s is %r, not a number" % (where, value))


def keys_exactly(where, obj, keys):
    if not isinstance(obj, dict) or set(obj) != set(keys):
        fail("%s has keys %r, expected %r" % (where, sorted(obj) if isinstance(obj, dict) else obj,
                                              sorted(keys)))


def main():
    if len(sys.argv) != 3:
        fail(__doc__)
    bench, out = sys.argv[1], sys.argv[2]
    run = subprocess.run([bench, "--quick", "--json", out], stdout=subprocess.PIPE,
                         universal_newlines=True)
    print(run.stdout)
    if run.returncode != 0:
        fail("zeil_bench --quick exited with %d" % run.returncode)
    with open(out) as f:
        data = json.load(f)
    for figure in CALL_FIGURES:
        keys_exactly(figure, data.get(figure), CONFIGS)
        for config in CONFIGS:
            measured("%s.%s" % (figure, config), data[figure][config])
    keys_exactly("pointer_lookup_ns", data.get("pointer_lookup_ns"), ("1000", "100000", "1000000"))
    for size, value in data["pointer_lookup_ns"].items():
        measured("pointer_lookup_ns." + size, value)
    keys_exactly("execute_overhead_us", data.get("execute_overhead_us"), ("direct", "interop"))
    interop = [("execute_overhead_us." + k, v) for k, v in data["execute_overhead_us"].items()]
    interop.append(("matmul_ratio", data.get("matmul_ratio")))
    for where, value in interop:
        measured(where, value)
    measured("rss_growth_mb", data.get("rss_growth_mb"))
    keys_exactly("two_stream_added_ns", data.get("two_stream_added_ns"), ("zeil", "zeil_hazards"))
    for config, value in data["two_stream_added_ns"].items():
        measured("two_stream_added_ns." + config, value)
    measured("hazard_overhead_ns", data.get("hazard_overhead_ns"))
    scaling = data.get("launch_scaling")
    keys_exactly("launch_scaling", scaling, ("threads", "driver_ns", "zeil_ns", "cores"))
    cores = scaling["cores"]
    if not isinstance(cores, int) or cores < 1:
        fail("launch_scaling.cores is %r" % cores)
    threads = scaling["threads"]
    if not threads or threads[0] != 1 or threads[-1] != cores or threads != sorted(set(threads)):
        fail("launch_scaling.threads is %r with %d cores" % (threads, cores))
    for side in ("driver_ns", "zeil_ns"):
        if not isinstance(scaling[side], list) or len(scaling[side]) != len(threads):
            fail("launch_scaling.%s is %r for threads %r" % (side, scaling[side], threads))
        for i, value in enumerate(scaling[side]):
            measured("launch_scaling.%s[%d]" % (side, i), value)
    if data.get("rounds") != 3:
        fail("rounds is %r, --quick runs 3" % data.get("rounds"))
    if not isinstance(data.get("machine"), str) or not data["machine"]:
        fail("machine is %r" % data.get("machine"))
    if "\"failed:" in run.stdout or "failed: no measurement" in run.stdout:
        fail("the table reports a failed measurement")
    print("check_bench_json: %s is well-formed" % out)


main()
