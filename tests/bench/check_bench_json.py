#!/usr/bin/env python3
"""Runs zeil_bench --quick and checks the JSON it wrote (build/bench.json keys).

Only the shape is checked (every key, every value a number or, where the
figure was not measured, null); never a timing: a smoke test must not fail
because the machine is busy.

usage: check_bench_json.py ZEIL_BENCH OUTPUT.json [--callgrind]
  --callgrind also counts instructions (needs valgrind): the callgrind
  figures must then be there.
"""
import json
import math
import subprocess
import sys

CALL_FIGURES = ("launch_append_ns", "alloc_free_ns", "event_ns",
                "launch_added_ns", "alloc_free_added_ns", "event_added_ns",
                "launch_alternating_added_ns")
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


def callgrind_pairs(where, pairs):
    """detail.callgrind's alloc_free and events: driver and zeil per pair."""
    if pairs is None:
        return
    keys_exactly(where, pairs, ("pairs", "driver", "zeil", "added_per_pair"))
    if not isinstance(pairs["pairs"], list) or len(pairs["pairs"]) != 2:
        fail("%s.pairs is %r" % (where, pairs["pairs"]))
    for side in ("driver", "zeil"):
        keys_exactly("%s.%s" % (where, side), pairs[side], ("totals", "per_pair"))
        for i, total in enumerate(pairs[side]["totals"]):
            measured("%s.%s.totals[%d]" % (where, side, i), total)
        measured("%s.%s.per_pair" % (where, side), pairs[side]["per_pair"])
    measured(where + ".added_per_pair", pairs["added_per_pair"])


def callgrind_figures(data):
    """The instruction counts: null unless --callgrind ran (--quick alone does not)."""
    for key in ("callgrind_instructions_per_launch", "callgrind_instructions_per_event"):
        if key not in data:
            fail("no %s" % key)
        measured(key, data[key], nullable=True)
    detail = data.get("detail", {}).get("callgrind", "missing")
    if detail == "missing":
        fail("no detail.callgrind")
    if detail is None:
        return
    for key in ("alloc_free", "events"):
        if key not in detail:
            fail("detail.callgrind has no %s" % key)
        callgrind_pairs("detail.callgrind." + key, detail[key])
    if detail["events"] is not None and data["callgrind_instructions_per_event"] is None:
        fail("callgrind_instructions_per_event is null though detail.callgrind.events is not")


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[3:] not in ([], ["--callgrind"]):
        fail(__doc__)
    bench, out, callgrind = sys.argv[1], sys.argv[2], sys.argv[3:]
    run = subprocess.run([bench, "--quick", "--json", out] + callgrind, stdout=subprocess.PIPE,
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
    measured("compile_cold_s", data.get("compile_cold_s"))
    measured("compile_warm_ms", data.get("compile_warm_ms"))
    keys_exactly("two_stream_added_ns", data.get("two_stream_added_ns"), ("zeil", "zeil_hazards"))
    for config, value in data["two_stream_added_ns"].items():
        measured("two_stream_added_ns." + config, value)
    measured("hazard_overhead_ns", data.get("hazard_overhead_ns"))
    keys_exactly("hazard_scaling_added_ns", data.get("hazard_scaling_added_ns"), ("8x4",))
    measured("hazard_scaling_added_ns.8x4", data["hazard_scaling_added_ns"]["8x4"])
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
    added = data.get("launch_scaling_zeil_added_ns")
    if not isinstance(added, list) or len(added) != len(threads):
        fail("launch_scaling_zeil_added_ns is %r for threads %r" % (added, threads))
    for i, value in enumerate(added):
        measured("launch_scaling_zeil_added_ns[%d]" % i, value)
    for key in ("workitem_ns", "workitem_barrier_ns", "elementwise_vs_c_ratio"):
        measured(key, data.get(key))
    if data.get("kernels_source") not in ("stand-in", "compiled"):
        fail("kernels_source is %r" % data.get("kernels_source"))
    callgrind_figures(data)
    if callgrind and (data["callgrind_instructions_per_event"] is None or
                      data["callgrind_instructions_per_launch"] is None):
        fail("--callgrind ran, yet its figures are null")
    if data.get("rounds") != 3:
        fail("rounds is %r, --quick runs 3" % data.get("rounds"))
    if not isinstance(data.get("machine"), str) or not data["machine"]:
        fail("machine is %r" % data.get("machine"))
    if "\"failed:" in run.stdout or "failed: no measurement" in run.stdout:
        fail("the table reports a failed measurement")
    print("check_bench_json: %s is well-formed" % out)


main()
