#!/usr/bin/python3
"""Test helper: loads a zeil trace and prints a canonical description of it.

    check_trace.py TRACE.json [--recover] [--spans]

Strict mode needs the whole file to be valid JSON (json.load). --recover
accepts what a killed process leaves: the array without its closing bracket,
possibly cut inside the last event. Prints sorted lines:
    name PID TID NAME          process (TID -) and thread names
    X CAT PID TID COUNT        complete events per category and track (pid 2:
                               device spans)
    FLOW PH NAME PID TID COUNT flow events per phase, name and track
    timing VALUE COUNT         device spans by their "timing" argument
    end REASON SIGNAL DROPPED  the end marker, or "end missing"
--spans adds, in file order, one line per device span:
    span TID NAME SEQ +START DUR TIMING   (START in us from the first span)
Exit status 1 with a message on stderr when the file does not load.
"""
import collections
import json
import sys


def load(path, recover):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if not recover:
        return json.loads(text)
    decoder = json.JSONDecoder()
    pos = text.index("[") + 1
    events = []
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or text[pos] == "]":
            return events
        try:
            event, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError:
            return events
        events.append(event)


def main():
    path = sys.argv[1]
    try:
        events = load(path, "--recover" in sys.argv[2:])
    except (OSError, ValueError) as e:
        print(f"check_trace: {path}: {e}", file=sys.stderr)
        return 1
    lines = []
    counts = collections.Counter()
    end = "end missing"
    for e in events:
        ph, pid, tid = e["ph"], e["pid"], e["tid"]
        if ph == "M" and e["name"] == "process_name":
            lines.append(f"name {pid} - {e['args']['name']}")
        elif ph == "M" and e["name"] == "thread_name":
            lines.append(f"name {pid} {tid} {e['args']['name']}")
        elif ph == "M" and e["name"] == "zeil_trace_end":
            a = e["args"]
            end = f"end {a['reason']} {a['signal']} {a['dropped_records']}"
        elif ph == "X":
            counts[f"X {e['cat']} {pid} {tid}"] += 1
            if pid == 2:
                counts[f"timing {e['args']['timing'].split(':')[0]}"] += 1
        elif ph in "sf":
            counts[f"FLOW {ph} {e['name']} {pid} {tid}"] += 1
    lines += [f"{k} {v}" for k, v in counts.items()]
    lines.append(end)
    lines.sort()
    if "--spans" in sys.argv[2:]:
        spans = [e for e in events if e["ph"] == "X" and e["pid"] == 2]
        first = min((e["ts"] for e in spans), default=0)
        for e in spans:
            a = e["args"]
            lines.append(f"span {e['tid']} {e['name']} {a['seq']} +{e['ts'] - first:.3f} "
                         f"{e['dur']:.3f} {a['timing'].split(':')[0]}")
    print("\n".join(lines))
    return 0


sys.exit(main())
