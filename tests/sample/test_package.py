#!/usr/bin/python3
"""zeil_package: the Debian package holds a working zeil.

    test_package.py SOURCE_DIR BUILD_DIR WORKDIR

Builds the .deb with cpack -G DEB, unpacks it with dpkg -x into a scratch
root, checks what it holds, builds and runs an application against the
package's pkg-config files, then runs the README's examples with `scripts`
and `build` leading into the unpacked package instead of the source and
build trees (those that need a program the package does not ship, or the
build tree itself, are named and left out).
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_readme  # noqa: E402  (its example runner and output matcher)

SHIPPED = ["usr/bin/zeil-run", "usr/bin/zeil-report", "usr/include/zeil/zeil.h",
           "usr/include/zeil/dnnl_ze.h", "usr/include/zeil/dnnl_ze.hpp",
           "usr/lib/libzeil.so", "usr/lib/libzeil_layer.so", "usr/lib/libzeil_interop.so",
           "usr/lib/libze_zeil_cpu.so.1", "usr/lib/cmake/zeil/zeilConfig.cmake",
           "usr/lib/pkgconfig/zeil.pc", "usr/lib/pkgconfig/zeil-interop.pc",
           "usr/include/oneapi/dnnl/dnnl_ze.hpp",
           "usr/libexec/zeil/zeil_demo_net"]
# README examples that need what a package does not hold: a program it does
# not ship, the install tree that `cmake --install` makes from a build, or
# oneDNN 3 on the reference driver (setup-onednn3 and the OpenCL ICD are
# development tools of the source tree).
NOT_FROM_PACKAGE = ("zeil_cpu_sample", "cmake --install", "zeil-install", "setup-onednn3")


def fail(message):
    print(f"test_package: FAIL: {message}")
    sys.exit(1)


def run(command, **kw):
    r = subprocess.run(command, capture_output=True, text=True, timeout=600, **kw)
    if r.returncode != 0:
        fail(f"{' '.join(command)} exited {r.returncode}:\n{r.stdout}{r.stderr}")
    return r.stdout


def link(target, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.symlink(target, path)


def main(source, build, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    run(["cpack", "-G", "DEB", "--config", os.path.join(build, "CPackConfig.cmake"),
         "-B", work], cwd=work)
    debs = glob.glob(os.path.join(work, "zeil_*.deb"))
    if len(debs) != 1:
        fail(f"cpack made {debs}")
    info = run(["dpkg-deb", "--field", debs[0], "Package", "Version", "Depends"])
    root = os.path.join(work, "root")
    run(["dpkg", "-x", debs[0], root])
    missing = [f for f in SHIPPED if not os.path.exists(os.path.join(root, f))]
    if missing:
        fail(f"the package lacks {missing}")
    lib = os.path.join(root, "usr", "lib")
    driver = os.path.join(lib, "libze_zeil_cpu.so.1")
    env = dict(test_readme.clean_environment(), LD_LIBRARY_PATH=lib)

    # An application built against the package alone (its pkg-config files
    # find their prefix from where they are).
    app = os.path.join(work, "consumer")
    flags = run(["pkg-config", "--cflags", "--libs", "zeil-interop"],
                env=dict(env, PKG_CONFIG_PATH=os.path.join(lib, "pkgconfig"))).split()
    if not any(f.startswith("-I" + root) for f in flags):
        fail(f"pkg-config points outside the package: {flags}")
    run(["cc", "-o", app, os.path.join(source, "tests/sample/install_consumer/consumer.c")]
        + flags)
    out = run([app], env=dict(env, ZE_ENABLE_LAYERS="zeil", ZE_ENABLE_ALT_DRIVERS=driver))
    if "engine created" not in out:
        fail(f"the consumer built against the package: {out}")

    # The README's examples, on the package's files.
    with open(os.path.join(source, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    ran, left_out = 0, []
    with tempfile.TemporaryDirectory(prefix="zeil_package.") as scratch:
        link(os.path.join(root, "usr/bin/zeil-run"), os.path.join(scratch, "scripts/zeil-run"))
        link(os.path.join(root, "usr/bin/zeil-report"),
             os.path.join(scratch, "scripts/zeil-report"))
        link(os.path.join(lib, "libzeil.so"), os.path.join(scratch, "build/layer/libzeil.so"))
        link(driver, os.path.join(scratch, "build/tests/refdriver/libze_zeil_cpu.so.1"))
        link(os.path.join(root, "usr/libexec/zeil/zeil_demo_net"),
             os.path.join(scratch, "build/tests/sample/zeil_demo_net"))
        link(os.path.join(source, "tests"), os.path.join(scratch, "tests"))
        for line_number, script, shown in test_readme.examples(readme):
            if any(word in script for word in NOT_FROM_PACKAGE):
                left_out.append(line_number)
                continue
            r = subprocess.run(["/bin/bash", "-euo", "pipefail", "-c", script], cwd=scratch,
                               env=dict(env, PWD=scratch), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=300)
            if r.returncode != 0:
                fail(f"README line {line_number} on the package: exit status {r.returncode}:\n"
                     f"{script}\n{r.stdout}")
            if shown:
                test_readme.check_output(line_number, shown, r.stdout)
            ran += 1
    if ran < 3:
        fail(f"only {ran} README examples ran on the package")
    print(f"ok: {os.path.basename(debs[0])} ({' '.join(info.split())}), {len(SHIPPED)} files "
          f"checked, consumer built with its pkg-config, {ran} README examples ran on it "
          f"(left out, needing the build tree: lines {left_out})")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    main(*sys.argv[1:])
