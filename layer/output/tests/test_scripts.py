#!/usr/bin/python3
"""Tests of scripts/zeil-report and scripts/zeil-run (run by ctest).

    test_scripts.py SCRIPTS_DIR PRELOAD_LIBRARY

PRELOAD_LIBRARY: any loadable shared library, standing in for libzeil.so so
that zeil-run's own behaviour (environment, exit status) is tested alone.
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest

SCRIPTS = sys.argv.pop(1) if __name__ == "__main__" else None
PRELOAD = sys.argv.pop(1) if __name__ == "__main__" else None

SUMMARY = {
    "zeil_version": "0.1.0",
    "streams": [
        {"stream": "0x10", "list": "0x1000", "kernels": [
            {"kernel": "relu_fwd", "primitive": "eltwise", "impl": "ref:any", "launches": 10,
             "total_device_ns": 500000, "max_device_ns": 90000, "timed_launches": 10},
            {"kernel": "conv_fwd", "primitive": "convolution", "impl": "jit:gemm",
             "launches": 10, "total_device_ns": 12345678, "max_device_ns": 2000000,
             "timed_launches": 10}]},
        {"stream": None, "list": "0x2000", "kernels": [
            {"kernel": "copy_kernel", "primitive": None, "impl": None, "launches": 3,
             "total_device_ns": 0, "max_device_ns": 0, "timed_launches": 0}]}],
    "rules": [{"rule": "ZEIL-E012", "severity": "error", "count": 2,
               "summary": "USM double free"}],
    "leaks": {"handles": {"command_list": 1, "event": 2}, "allocations": 3,
              "allocation_bytes": 12288},
    "errors": 2, "warnings": 0, "dropped_records": 0, "status": "exit"}

SUMMARY_REPORT = """\
zeil report (summary of zeil 0.1.0, status: exit)

stream 0x10 (list 0x1000)
  kernel    primitive    implementation  launches  total ms  mean us
  conv_fwd  convolution  jit:gemm              10    12.346   1234.6
  relu_fwd  eltwise      ref:any               10     0.500     50.0

list 0x2000 (no stream)
  kernel       primitive  implementation  launches  total ms  mean us
  copy_kernel  -          -                      3         -        -

errors and warnings: 2 errors, 0 warnings
  rule       severity  count  summary
  ZEIL-E012  error         2  USM double free

leaks: 1 command list, 2 events; 3 USM allocations (12288 bytes)
"""


def trace_events():
    meta = [
        {"ph": "M", "pid": 1, "tid": 0, "name": "process_name", "args": {"name": "host"}},
        {"ph": "M", "pid": 2, "tid": 0, "name": "process_name", "args": {"name": "device"}},
        {"ph": "M", "pid": 2, "tid": 1, "name": "thread_name",
         "args": {"name": "stream 0x10 (list 0x100)"}},
        {"ph": "M", "pid": 2, "tid": 2, "name": "thread_name", "args": {"name": "list 0x200"}},
    ]
    spans = []
    for i in range(6):
        prim = "convolution" if i % 2 == 0 else "eltwise"
        spans.append({"ph": "X", "cat": "kernel", "name": "conv" if i % 2 == 0 else "relu",
                      "pid": 2, "tid": 1, "ts": 10.0 * i, "dur": 8.0,
                      "args": {"seq": i + 1, "primitive": prim, "impl": "ref",
                               "timing": "device"}})
    spans.append({"ph": "X", "cat": "kernel", "name": "copy", "pid": 2, "tid": 2, "ts": 70.0,
                  "dur": 10.0, "args": {"seq": 7, "kind": "copy",
                                          "timing": "nominal: submission order"}})
    spans.append({"ph": "X", "cat": "api", "name": "zeInit", "pid": 1, "tid": 1, "ts": 0,
                  "dur": 1})
    end = [{"ph": "M", "pid": 1, "tid": 0, "name": "zeil_trace_end",
            "args": {"reason": "exit", "signal": 0, "dropped_records": 0}}]
    return meta + spans, end


def write_trace(path, events, close=True):
    text = "[" + ",\n".join(json.dumps(e) for e in events)
    with open(path, "w") as f:
        f.write(text + ("\n]\n" if close else ""))
    return text


class ZeilReport(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)

    def path(self, name):
        return os.path.join(self.dir, name)

    def run_report(self, *args):
        return subprocess.run([os.path.join(SCRIPTS, "zeil-report"), *args],
                              capture_output=True, text=True, timeout=120)

    def assert_clean_failure(self, result, message):
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertEqual(result.stdout, "")
        self.assertEqual(result.stderr.count("\n"), 1, result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        self.assertIn(message, result.stderr)

    def test_summary_gives_the_exit_report_tables(self):
        with open(self.path("s.json"), "w") as f:
            json.dump(SUMMARY, f, indent=2)
        r = self.run_report(self.path("s.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, SUMMARY_REPORT)

    def test_summary_of_a_starved_run_shows_what_zeil_dropped(self):
        starved = dict(SUMMARY, streams=[], rules=[], incomplete="out of memory",
                       out_of_memory={"objects": 3, "allocations": 1, "records": 40,
                                      "other": 0, "unchecked": 2})
        with open(self.path("s.json"), "w") as f:
            json.dump(starved, f)
        r = self.run_report(self.path("s.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("status: exit, incomplete: out of memory)", r.stdout)
        self.assertIn("\nout of memory: zeil dropped 3 objects, 1 USM allocations, "
                      "40 submission records, 0 other items; 2 calls passed unchecked\n",
                      r.stdout)

    def test_complete_trace_gives_per_track_tables(self):
        events, end = trace_events()
        write_trace(self.path("t.json"), events + end)
        r = self.run_report(self.path("t.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("ended by exit, 0 records dropped", r.stdout)
        self.assertIn("stream 0x10 (list 0x100)\n"
                      "  kernel  primitive    implementation  launches  total ms  mean us\n"
                      "  conv    convolution  ref                    3     0.024      8.0\n"
                      "  relu    eltwise      ref                    3     0.024      8.0\n",
                      r.stdout)
        self.assertIn("list 0x200\n  no kernel launches\n  also: 1 copy\n", r.stdout)

    def test_trace_cut_by_kill_is_read_to_its_last_complete_event(self):
        events, _ = trace_events()
        text = write_trace(self.path("cut.json"), events, close=False)
        with open(self.path("cut.json"), "w") as f:
            f.write(text + ',\n{"ph":"X","cat":"kernel","name":"conv","pid":2,"tid":1,"ts":9')
        r = self.run_report(self.path("cut.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("cut short", r.stdout)
        self.assertIn("  conv    convolution  ref                    3", r.stdout)

    def test_png_timeline_is_drawn(self):
        events, end = trace_events()
        write_trace(self.path("t.json"), events + end)
        r = self.run_report(self.path("t.json"), "--png", self.path("t.png"))
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.path("t.png"), "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_png_from_a_summary_is_refused(self):
        with open(self.path("s.json"), "w") as f:
            json.dump(SUMMARY, f)
        r = self.run_report(self.path("s.json"), "--png", self.path("x.png"))
        self.assert_clean_failure(r, "--png needs a trace")

    def test_bad_files_get_one_line_and_status_1(self):
        cases = {
            "empty.json": (b"", "the file is empty"),
            "blank.json": (b" \n\n", "the file is empty"),
            "corrupt.json": (b'{"streams": [1, 2', "corrupt JSON at line 1"),
            "garbage.json": (b"\x7fELF\x02\x01\xff\xfe", "not UTF-8 text"),
            "text.json": (b"hello", "not JSON"),
            "other.json": (b'{"foo": 1}', "neither a zeil summary nor a trace"),
            "bracket.json": (b"[", "a trace without one complete event"),
            "numbers.json": (b"[1, 2, 3]", "a trace event is not an object"),
            "badsummary.json": (b'{"streams": [{"stream": 1}]}', "not a zeil trace or summary"),
            "badspan.json": (b'[{"ph":"X","cat":"kernel","pid":2,"tid":1,"ts":"x","dur":1}]',
                             "not a zeil trace or summary"),
        }
        for name, (content, message) in cases.items():
            with self.subTest(name=name):
                with open(self.path(name), "wb") as f:
                    f.write(content)
                self.assert_clean_failure(self.run_report(self.path(name)), message)
        self.assert_clean_failure(self.run_report(self.path("missing.json")), "cannot read it")

    def test_any_cut_or_damaged_trace_gives_a_table_or_one_line(self):
        events, end = trace_events()
        text = write_trace(self.path("t.json"), events + end)
        data = text.encode()
        rng = random.Random(5)
        damaged = [data[:n] for n in sorted(rng.sample(range(1, len(data)), 30))]
        for _ in range(20):
            b = bytearray(data)
            for _ in range(3):
                b[rng.randrange(len(b))] = rng.choice(b'{}[]",:0a\x00\xff')
            damaged.append(bytes(b))
        for i, content in enumerate(damaged):
            with self.subTest(case=i):
                with open(self.path("d.json"), "wb") as f:
                    f.write(content)
                r = self.run_report(self.path("d.json"))
                self.assertIn(r.returncode, (0, 1), r.stderr)
                self.assertNotIn("Traceback", r.stderr)
                if r.returncode == 1:
                    self.assertEqual(r.stderr.count("\n"), 1, r.stderr)
                    self.assertEqual(r.stdout, "")

    def ranked_trace(self, name, rank, realtime_ns):
        events, end = trace_events()
        info = {"ph": "M", "pid": 1, "tid": 0, "name": "zeil_process",
                "args": {"pid": 100 + rank, "rank": rank, "realtime_ns": realtime_ns}}
        flows = [{"ph": "s", "pid": 2, "tid": 1, "cat": "submission", "name": "event", "id": 17,
                  "ts": 0.0},
                 {"ph": "f", "pid": 2, "tid": 1, "cat": "submission", "name": "event", "id": 17,
                  "ts": 10.0, "bp": "e"}]
        write_trace(self.path(name), [info] + events + flows + end)
        return self.path(name)

    def test_merge_joins_ranks_with_aligned_clocks(self):
        later = self.ranked_trace("t1.json", 1, 1_000_005_000)
        first = self.ranked_trace("t0.json", 0, 1_000_000_000)
        r = self.run_report("merge", "-o", self.path("job.json"), later, first)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.path("job.json")) as f:
            merged = json.load(f)
        names = {e["pid"]: e["args"]["name"] for e in merged if e.get("name") == "process_name"}
        self.assertEqual(names, {1: "rank 0 host (pid 100)", 2: "rank 0 device",
                                 3: "rank 1 host (pid 101)", 4: "rank 1 device"})
        first_conv = {pid: min(e["ts"] for e in merged
                               if e.get("name") == "conv" and e["pid"] == pid) for pid in (2, 4)}
        self.assertEqual(first_conv, {2: 0.0, 4: 5.0})  # rank 1's clock started 5 us later
        ids = sorted(e["id"] for e in merged if e["ph"] == "s")
        self.assertEqual(len(set(ids)), 2)
        self.assertIn("rank 0: stream 0x10 (list 0x100)", r.stdout)
        self.assertIn("rank 1: list 0x200", r.stdout)

    def test_merge_of_summaries_has_a_table_per_rank_and_totals(self):
        for rank in (1, 0):
            with open(self.path(f"s{rank}.json"), "w") as f:
                json.dump(dict(SUMMARY, pid=200 + rank, rank=rank), f)
        r = self.run_report("merge", self.path("s1.json"), self.path("s0.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        heads = [line for line in r.stdout.splitlines() if line.startswith("== ")]
        self.assertEqual(heads, ["== rank 0 (pid 200)", "== rank 1 (pid 201)", "== all 2 ranks"])
        totals = r.stdout.split("== all 2 ranks")[1]
        self.assertRegex(totals, r"conv_fwd +convolution +jit:gemm +20 +24\.691 +1234\.6")
        self.assertIn("errors and warnings: 4 errors, 0 warnings", totals)

    def test_merge_refuses_what_it_cannot_join(self):
        events, end = trace_events()
        write_trace(self.path("plain.json"), events + end)
        ranked = self.ranked_trace("r.json", 0, 1)
        with open(self.path("s.json"), "w") as f:
            json.dump(SUMMARY, f)
        self.assert_clean_failure(self.run_report("merge", "-o", self.path("o.json"),
                                                  self.path("plain.json")), "zeil_process")
        self.assert_clean_failure(self.run_report("merge", "-o", self.path("o.json"), ranked,
                                                  self.path("s.json")), "a summary among traces")
        self.assert_clean_failure(self.run_report("merge", ranked), "needs -o")
        self.assertEqual(self.run_report("merge").returncode, 2)
        self.assertEqual(self.run_report("merge", "--bogus", ranked).returncode, 2)

    def test_usage_errors_exit_2(self):
        self.assertEqual(self.run_report().returncode, 2)
        self.assertEqual(self.run_report("a.json", "--png").returncode, 2)
        self.assertEqual(self.run_report("a.json", "--bogus").returncode, 2)
        self.assertEqual(self.run_report("--help").returncode, 0)


class ZeilRun(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("ZEIL_", "ZE_")) and k != "LD_PRELOAD"}

    def run_zeil(self, *args, env=None, script=None):
        return subprocess.run([script or os.path.join(SCRIPTS, "zeil-run"), *args],
                              capture_output=True, text=True, env=env or self.env, timeout=60)

    def test_help_explains_every_option_and_variable(self):
        r = self.run_zeil("--help")
        self.assertEqual(r.returncode, 0)
        for word in ["--trace", "--log", "--log-file", "--timing", "--report", "--no-report",
                     "--summary", "--driver", "--help", "ZEIL_TRACE", "ZEIL_LOG", "ZEIL_LOG_FILE",
                     "ZEIL_TIMING", "ZEIL_REPORT", "ZEIL_SUMMARY", "ZEIL_DRIVERS",
                     "ZE_ENABLE_ALT_DRIVERS", "ZE_ENABLE_LAYERS", "LD_PRELOAD", "ZEIL_LIBRARY"]:
            self.assertIn(word, r.stdout)

    def test_missing_library_is_a_clear_error(self):
        alone = os.path.join(self.dir, "bin")
        os.mkdir(alone)
        shutil.copy(os.path.join(SCRIPTS, "zeil-run"), alone)
        r = self.run_zeil("--", "true", script=os.path.join(alone, "zeil-run"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("cannot find libzeil.so", r.stderr)
        env = dict(self.env, ZEIL_LIBRARY=os.path.join(self.dir, "nope.so"))
        r = self.run_zeil("--", "true", env=env)
        self.assertEqual(r.returncode, 2)
        self.assertIn("no such file", r.stderr)

    def test_exit_status_is_the_commands(self):
        env = dict(self.env, ZEIL_LIBRARY=PRELOAD)
        for status in (0, 1, 7, 42):
            with self.subTest(status=status):
                r = self.run_zeil("--", "sh", "-c", f"exit {status}", env=env)
                self.assertEqual(r.returncode, status, r.stderr)
        r = self.run_zeil("--", "sh", "-c", "kill -TERM $$", env=env)
        self.assertEqual(r.returncode, -15)

    def test_options_set_the_environment(self):
        env = dict(self.env, ZEIL_LIBRARY=PRELOAD, ZE_ENABLE_LAYERS="tracing",
                   LD_PRELOAD="libm.so.6")
        r = self.run_zeil("--trace", "t.json", "--log", "calls", "--log-file", "z.log",
                          "--timing", "--report", "r.txt", "--summary", "s.json",
                          "--driver", "/x/libdrv.so", "--driver", "libze_intel_gpu.so.1",
                          "--", "env", env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        got = dict(line.split("=", 1) for line in r.stdout.splitlines() if "=" in line)
        self.assertEqual(got["ZE_ENABLE_LAYERS"], "tracing,zeil")
        self.assertEqual(got["LD_PRELOAD"], os.path.realpath(PRELOAD) + ":libm.so.6")
        self.assertEqual(got["ZEIL_TRACE"], "t.json")
        self.assertEqual(got["ZEIL_LOG"], "calls")
        self.assertEqual(got["ZEIL_LOG_FILE"], "z.log")
        self.assertEqual(got["ZEIL_TIMING"], "1")
        self.assertEqual(got["ZEIL_REPORT"], "r.txt")
        self.assertEqual(got["ZEIL_SUMMARY"], "s.json")
        self.assertEqual(got["ZEIL_DRIVERS"], "/x/libdrv.so,libze_intel_gpu.so.1")
        self.assertEqual(got["ZE_ENABLE_ALT_DRIVERS"], "/x/libdrv.so,libze_intel_gpu.so.1")

    def test_zeil_already_enabled_is_not_added_twice(self):
        env = dict(self.env, ZEIL_LIBRARY=PRELOAD, ZE_ENABLE_LAYERS="zeil")
        r = self.run_zeil("--no-report", "env", env=env)
        got = dict(line.split("=", 1) for line in r.stdout.splitlines() if "=" in line)
        self.assertEqual(got["ZE_ENABLE_LAYERS"], "zeil")
        self.assertEqual(got["ZEIL_REPORT"], "0")
        self.assertNotIn("ZEIL_TRACE", got)

    def test_bad_usage_exits_2(self):
        env = dict(self.env, ZEIL_LIBRARY=PRELOAD)
        for args in (["--bogus", "--", "true"], ["--log", "loud", "--", "true"], ["--trace"], []):
            with self.subTest(args=args):
                r = self.run_zeil(*args, env=env)
                self.assertEqual(r.returncode, 2)
                self.assertTrue(r.stderr.startswith("zeil-run: "), r.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=1)
