#!/bin/sh
# run_without_hazards.sh LOG COMMAND...: runs COMMAND with zeil's hazard
# checks on (ZEIL_CHECKS=hazards unless the environment says otherwise) and
# its log in LOG; fails when COMMAND fails or zeil reported a hazard
# (ZEIL-E09x / ZEIL-W09x): the program is a correct one.
log=$1
shift
rm -f "$log"
ZEIL_CHECKS=${ZEIL_CHECKS:-hazards} ZEIL_LOG_FILE=$log "$@"
rc=$?
if [ -f "$log" ] && grep -E "\[ZEIL-[EW]09[0-9]\]" "$log" >&2; then
    echo "zeil reported hazards in a correct program (above)" >&2
    exit 1
fi
exit $rc
