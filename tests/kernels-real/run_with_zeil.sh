#!/bin/sh
# run_with_zeil.sh SUMMARY KERNELS COMMAND...: runs a real-kernel suite with
# zeil on (the caller preloads it and sets ZE_ENABLE_LAYERS) in one process
# (CK_FORK=no, so that one summary holds every launch), and fails unless
# the suite passes and zeil's summary records launches of every kernel
# named in KERNELS (a comma list) by that name.
summary=$1
kernels=$2
shift 2
rm -f "$summary"
CK_FORK=no ZEIL_SUMMARY=$summary "$@" || exit 1
[ -f "$summary" ] || { echo "zeil wrote no summary ($summary)" >&2; exit 1; }
for k in $(echo "$kernels" | tr ',' ' '); do
    if ! grep -q "\"kernel\": \"$k\", .*\"launches\": [1-9]" "$summary"; then
        echo "zeil's summary records no launch of kernel $k" >&2
        exit 1
    fi
done
exit 0
