#!/usr/bin/python3
"""zeil_ranks: four processes of one job under zeil-run, merged.

    test_ranks.py SOURCE_DIR BUILD_DIR WORKDIR

Starts zeil_demo_net four times at once, ranks 0-3 given by each of the
launchers' variables (PMI_RANK, OMPI_COMM_WORLD_RANK, SLURM_PROCID), with
output paths using %r and %p; checks that every process wrote its own files,
then joins the traces and the summaries with zeil-report merge.
"""
import collections
import glob
import json
import os
import subprocess
import sys

ITERATIONS = 2
RANK_VARIABLES = ["PMI_RANK", "PMI_RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID"]


def fail(message):
    print(f"test_ranks: FAIL: {message}")
    sys.exit(1)


def main(source, build, work):
    os.makedirs(work, exist_ok=True)
    for old in glob.glob(os.path.join(work, "*.json")) + glob.glob(os.path.join(work, "*.txt")):
        os.remove(old)
    zeil_run = os.path.join(source, "scripts", "zeil-run")
    report_tool = os.path.join(source, "scripts", "zeil-report")
    driver = os.path.join(build, "tests", "refdriver", "libze_zeil_cpu.so.1")
    program = os.path.join(build, "tests", "sample", "zeil_demo_net")
    env = {k: v for k, v in os.environ.items()
           if k not in ("PMI_RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID")}
    env["ZEIL_LIBRARY"] = os.path.join(build, "layer", "libzeil.so")
    running = []
    for rank, variable in enumerate(RANK_VARIABLES):
        process_env = dict(env, **{variable: str(rank)})
        running.append(subprocess.Popen(
            [zeil_run, "--driver", driver, "--timing",
             "--trace", os.path.join(work, "trace.%r.json"),
             "--summary", os.path.join(work, "summary.%r.json"),
             "--report", os.path.join(work, "report.%p.txt"), "--", program, str(ITERATIONS)],
            env=process_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
    pids = []
    for p in running:
        _, err = p.communicate(timeout=300)
        if p.returncode != 0:
            fail(f"a rank exited {p.returncode}: {err}")
        pids.append(p.pid)  # zeil-run execs the program: the same process

    # %p and %r: each process its own files.
    for rank, pid in enumerate(pids):
        for name in (f"trace.{rank}.json", f"summary.{rank}.json", f"report.{pid}.txt"):
            if not os.path.isfile(os.path.join(work, name)):
                fail(f"{name} is missing: {sorted(os.listdir(work))}")
        with open(os.path.join(work, f"summary.{rank}.json")) as f:
            doc = json.load(f)
        if doc["rank"] != rank or doc["pid"] != pid:
            fail(f"summary.{rank}.json says rank {doc['rank']} pid {doc['pid']}, "
                 f"expected rank {rank} pid {pid}")

    # Traces: one host and one device process per rank, clocks aligned.
    traces = [os.path.join(work, f"trace.{rank}.json") for rank in range(4)]
    merged_path = os.path.join(work, "merged.json")
    r = subprocess.run([report_tool, "merge", "-o", merged_path] + traces[::-1],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        fail(f"zeil-report merge (traces): {r.stderr}")
    with open(merged_path) as f:
        merged = json.load(f)
    names = {e["pid"]: e["args"]["name"] for e in merged
             if e["ph"] == "M" and e["name"] == "process_name"}
    expected = {}
    for rank, pid in enumerate(pids):
        expected[2 * rank + 1] = f"rank {rank} host (pid {pid})"
        expected[2 * rank + 2] = f"rank {rank} device"
    if names != expected:
        fail(f"merged processes {names}, expected {expected}")
    originals = []
    for path in traces:
        with open(path) as f:
            originals.append(json.load(f))
    realtime = [next(e["args"]["realtime_ns"] for e in t if e.get("name") == "zeil_process")
                for t in originals]
    for rank, events in enumerate(originals):
        mine = [e for e in events if e["ph"] == "X"]
        theirs = [e for e in merged if e["ph"] == "X" and e["pid"] in (2 * rank + 1, 2 * rank + 2)]
        if len(mine) != len(theirs):
            fail(f"rank {rank}: {len(mine)} spans in its trace, {len(theirs)} merged")
        shift = (realtime[rank] - min(realtime)) / 1000
        if any(abs(b["ts"] - a["ts"] - shift) > 0.002 for a, b in zip(mine, theirs)):
            fail(f"rank {rank}: spans not shifted by its clock offset {shift} us")
    starts = [e for e in merged if e["ph"] == "s"]
    if len({(e["name"], e["id"]) for e in starts}) != len(starts):
        fail("flow ids of different ranks collide in the merged trace")
    if sum(1 for t in originals for e in t if e["ph"] == "s") != len(starts):
        fail("arrows lost in the merge")
    for rank in range(4):
        if f'rank {rank}: "A: conv+relu": stream 1 on' not in r.stdout:
            fail(f"the merged tables lack rank {rank}'s stream A:\n{r.stdout}")

    # Summaries: a table per rank and the totals.
    summaries = [os.path.join(work, f"summary.{rank}.json") for rank in range(4)]
    r = subprocess.run([report_tool, "merge", "-o", os.path.join(work, "merged_summary.json")]
                       + summaries, capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        fail(f"zeil-report merge (summaries): {r.stderr}")
    heads = [line for line in r.stdout.splitlines() if line.startswith("== ")]
    if heads != [f"== rank {rank} (pid {pid})" for rank, pid in enumerate(pids)] \
            + ["== all 4 ranks"]:
        fail(f"merged summary sections: {heads}")
    with open(os.path.join(work, "merged_summary.json")) as f:
        totals = json.load(f)["totals"]
    launches = collections.Counter()
    for k in totals["kernels"]:
        launches[k["primitive"]] += k["launches"]
    if launches != {"convolution": 4 * ITERATIONS, "eltwise": 4 * ITERATIONS,
                    "inner_product": 4 * ITERATIONS}:
        fail(f"total launches over the ranks: {dict(launches)}")
    print(f"ok: 4 ranks (pids {pids}), {len(merged)} merged events, totals {dict(launches)}")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    main(*sys.argv[1:])
