#!/bin/sh
# run_without_diagnostics.sh LOG EXPECTED COMMAND...: runs COMMAND with zeil
# writing to LOG (ZEIL_LOG_FILE); fails when COMMAND fails or zeil wrote any
# line other than findings of the rule IDs in EXPECTED (a comma list, "-" for
# none): a suite that misuses the API on purpose must get exactly those.
log=$1
expected=$2
shift 2
rm -f "$log"
ZEIL_LOG_FILE=$log "$@"
rc=$?
[ -f "$log" ] || exit $rc
unexpected=$(grep -v -E "\[($(echo "$expected" | tr ',' '|'))\]" "$log")
if [ -n "$unexpected" ]; then
    echo "zeil wrote unexpected diagnostics:" >&2
    echo "$unexpected" >&2
    exit 1
fi
for id in $(echo "$expected" | tr ',' ' '); do
    [ "$id" = "-" ] && continue
    if ! grep -q "\[$id\]" "$log"; then
        echo "zeil did not report $id, which this suite provokes" >&2
        exit 1
    fi
done
exit $rc
