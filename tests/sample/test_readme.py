#!/usr/bin/python3
"""Keeps README.md true.

    test_readme.py SOURCE_DIR BUILD_DIR

1. Every ```sh block preceded by the line `<!-- test -->` runs, in order, in
   one scratch directory where `scripts`, `tests` and `build` lead to the
   source tree and the build tree, so the examples read as they do from the
   top of a source tree. Each must exit 0. When the block is followed by an
   `<!-- output -->` ```text block, its non-blank lines must appear in that
   order in the block's output (stdout and stderr together); whitespace runs
   count as one space, and `…` stands for any text.
2. Every environment variable the code reads (getenv, in layer/, interop/,
   tests/refdriver/ and scripts/) appears in the README.
(The rule table has its own test: scripts/codegen/gen-rule-table --check.)
"""
import os
import re
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.S | re.M)


def fail(message):
    print(f"test_readme: {message}", file=sys.stderr)
    sys.exit(1)


def examples(readme):
    """[(line number, script, [shown lines] or None)]."""
    found = []
    for m in FENCE.finditer(readme):
        before = readme[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        if m.group(1) == "sh" and before.strip() == "<!-- test -->":
            found.append([readme.count("\n", 0, m.start()) + 1, m.group(2), None])
        elif m.group(1) == "text" and before.strip() == "<!-- output -->" and found \
                and found[-1][2] is None:
            found[-1][2] = [line for line in m.group(2).splitlines() if line.strip()]
    return found


def squeeze(line):
    return " ".join(line.split())


def pattern(shown):
    return re.compile(".*".join(re.escape(part) for part in squeeze(shown).split("…")))


def check_output(line_number, shown, output):
    lines = [squeeze(line) for line in output.splitlines()]
    at = 0
    for expected in shown:
        p = pattern(expected)
        while at < len(lines) and not p.fullmatch(lines[at]):
            at += 1
        if at == len(lines):
            fail(f"README line {line_number}: the output lacks (in order) {expected!r}:\n"
                 f"{output}")
        at += 1


def clean_environment():
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ZE_", "ZEIL_", "ZEL_")) and k not in ("LD_PRELOAD",
                                                                       "PKG_CONFIG_PATH")}
    env["PATH"] = "/usr/local/bin:/usr/bin:/bin:" + env.get("PATH", "")
    return env


def run_examples(source, build, readme):
    found = examples(readme)
    if not found:
        fail("no <!-- test --> examples in README.md")
    with tempfile.TemporaryDirectory(prefix="zeil_readme.") as work:
        os.symlink(os.path.join(source, "scripts"), os.path.join(work, "scripts"))
        os.symlink(os.path.join(source, "tests"), os.path.join(work, "tests"))
        os.symlink(build, os.path.join(work, "build"))
        for line_number, script, shown in found:
            r = subprocess.run(["/bin/bash", "-euo", "pipefail", "-c", script], cwd=work,
                               env=dict(clean_environment(), PWD=work), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=300)
            if r.returncode != 0:
                fail(f"README line {line_number}: exit status {r.returncode}:\n{script}\n"
                     f"{r.stdout}")
            if shown:
                check_output(line_number, shown, r.stdout)
    return len(found)


def check_variables(source, readme):
    read = set()
    for folder in ("layer", "interop", "tests/refdriver", "scripts"):
        for root, dirs, files in os.walk(os.path.join(source, folder)):
            dirs[:] = [d for d in dirs if d != "tests"]  # test programs' own variables
            for name in files:
                with open(os.path.join(root, name), errors="replace") as f:
                    read.update(re.findall(r'getenv\("([A-Z_][A-Z0-9_]*)"\)', f.read()))
    missing = sorted(v for v in read if f"`{v}`" not in readme)
    if missing:
        fail(f"environment variables the code reads but README.md does not document: {missing}")
    return len(read)


def main():
    source, build = sys.argv[1:]
    with open(os.path.join(source, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    count = run_examples(source, build, readme)
    variables = check_variables(source, readme)
    print(f"ok: {count} examples ran, {variables} environment variables documented")


if __name__ == "__main__":
    main()
