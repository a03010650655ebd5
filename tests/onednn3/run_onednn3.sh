#!/usr/bin/env bash
# Runs a program of the oneDNN 3.13 Level Zero build on the reference driver
# presented as a GPU, alone or under zeil, and judges it.
#   run_onednn3.sh alone|zeil|zeil-misuse ONEDNN3_DIR REPORT -- program args...
# alone: the program's exit status. zeil: also zeil's exit report (written to
# REPORT) must say 0 errors. zeil-misuse: under zeil, for programs that make
# zeil refuse calls on purpose and check that themselves. A missing or other oneDNN build: one message,
# exit 77 (ctest: skipped), or 1 in CI (CI=true), which never skips.
set -euo pipefail
mode=$1 onednn3=$2 report=$3
shift 3
[ "${1:-}" = "--" ] && shift
top=$(cd "$(dirname "$0")/../.." && pwd)

if ! why=$("$top/scripts/setup-onednn3" --check "$onednn3" 2>&1); then
  echo "oneDNN 3 test: $why (scripts/setup-onednn3 makes one; cmake -DZEIL_ONEDNN3_DIR=... names another)" >&2
  [ "${CI:-}" = "true" ] && exit 1
  exit 77
fi
export ZEIL_ONEDNN3_DIR=$onednn3
case "$mode" in
  alone)
    # zeil-run's --as-gpu settings without zeil itself.
    export ZEIL_CPU_AS_GPU=1 OCL_ICD_VENDORS=$ZEIL_BUILD_DIR/tests/refdriver/icd/vendors
    export ZE_ENABLE_ALT_DRIVERS=$ZEIL_BUILD_DIR/tests/refdriver/libze_zeil_cpu.so.1
    export LD_LIBRARY_PATH="$onednn3/loader/lib:$onednn3/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    exec "$@" ;;
  zeil|zeil-misuse)
    rm -f "$report"
    status=0
    "$top/scripts/zeil-run" --as-gpu --report "$report" -- "$@" || status=$?
    cat "$report"
    [ "$mode" = zeil-misuse ] || grep -q "errors and warnings: 0 errors" "$report" ||
      { echo "zeil reported errors" >&2; exit 1; }
    exit $status ;;
  *) echo "run_onednn3.sh: mode alone or zeil, not $mode" >&2; exit 2 ;;
esac
