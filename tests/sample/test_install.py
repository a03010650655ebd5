#!/usr/bin/python3
"""cmake --install into a temporary prefix, then a tiny application built
against it twice, with find_package(zeil) and with pkg-config zeil-interop,
run on the reference driver: linked (ZE_ENABLE_LAYERS=zeil) and through the
installed zeil-run. zeil must be active in every run. The oneDNN-style
sample (onednn_ze_sample.cpp: oneDNN's header names only) is built the same
two ways, unchanged, and must run clean.

    test_install.py BUILD_DIR CONSUMER_SOURCE_DIR DRIVER CC CXX
"""
import os
import subprocess
import sys
import tempfile


def fail(message):
    print(f"test_install: {message}", file=sys.stderr)
    sys.exit(1)


def run(command, **kwargs):
    r = subprocess.run(command, capture_output=True, text=True, timeout=600, **kwargs)
    if r.returncode != 0:
        fail(f"{' '.join(command)} exited with {r.returncode}:\n{r.stdout}{r.stderr}")
    return r


def expect_active(result, how):
    if "consumer: engine created, zeil 0.1.0, active 1" not in result.stdout:
        fail(f"{how}: zeil not active:\n{result.stdout}{result.stderr}")
    if "leaks: none" not in result.stderr:
        fail(f"{how}: no exit report:\n{result.stderr}")


def expect_sample_clean(result, how):
    if "onednn_ze_sample: ok" not in result.stdout or "zeil: " in result.stderr:
        fail(f"{how}: the oneDNN-style sample did not run clean:\n{result.stdout}{result.stderr}")


def main():
    build, consumer, driver, cc, cxx = sys.argv[1:]
    sample = os.path.join(os.path.dirname(os.path.abspath(consumer)), "onednn_ze_sample.cpp")
    with tempfile.TemporaryDirectory(prefix="zeil_install.") as work:
        prefix = os.path.join(work, "prefix")
        run(["cmake", "--install", build, "--prefix", prefix])
        for relative in ("bin/zeil-run", "bin/zeil-report", "include/zeil/dnnl_ze.h",
                         "include/zeil/dnnl_ze.hpp", "include/zeil/zeil.h",
                         "include/oneapi/dnnl/dnnl_ze.h", "include/oneapi/dnnl/dnnl_ze.hpp",
                         "lib/libzeil.so", "lib/libzeil_interop.so", "lib/libzeil_layer.so",
                         "lib/cmake/zeil/zeilConfig.cmake", "lib/pkgconfig/zeil.pc",
                         "lib/pkgconfig/zeil-interop.pc"):
            if not os.path.exists(os.path.join(prefix, relative)):
                fail(f"{relative} was not installed")

        linked = dict(os.environ, ZE_ENABLE_LAYERS="zeil", ZE_ENABLE_ALT_DRIVERS=driver)
        with_cmake = os.path.join(work, "with-cmake")
        run(["cmake", "-S", consumer, "-B", with_cmake, f"-DCMAKE_PREFIX_PATH={prefix}",
             f"-DCMAKE_C_COMPILER={cc}", f"-DCMAKE_CXX_COMPILER={cxx}",
             f"-DONEDNN_ZE_SAMPLE={sample}"])
        run(["cmake", "--build", with_cmake])
        program = os.path.join(with_cmake, "consumer")
        expect_active(run([program], env=linked), "find_package(zeil), linked")
        zeil_run = os.path.join(prefix, "bin", "zeil-run")
        expect_active(run([zeil_run, "--driver", driver, "--", program]),
                      "find_package(zeil), installed zeil-run")
        expect_sample_clean(run([os.path.join(with_cmake, "onednn_ze_sample")], env=linked),
                            "find_package(zeil)")

        pc_env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(prefix, "lib", "pkgconfig"))
        flags = run(["pkg-config", "--cflags", "--libs", "zeil-interop"], env=pc_env).stdout
        if prefix not in flags:
            fail(f"pkg-config flags do not point into the prefix: {flags}")
        with_pc = os.path.join(work, "consumer-pc")
        run([cc, "-o", with_pc, os.path.join(consumer, "consumer.c"), *flags.split()])
        linked["LD_LIBRARY_PATH"] = os.path.join(prefix, "lib")
        expect_active(run([with_pc], env=linked), "pkg-config zeil-interop, linked")
        sample_pc = os.path.join(work, "onednn-ze-sample-pc")
        run([cxx, "-o", sample_pc, sample, *flags.split()])
        expect_sample_clean(run([sample_pc], env=linked), "pkg-config zeil-interop")
    print("ok: installed; find_package(zeil) and pkg-config consumers ran with zeil active")


main()
