/*
 * report_snapshot.h: the runtime's counters, copied for the output side's
 * report and summary (zeil_output.h, zo_snapshot_source_t): the zeil.h
 * counters, read here so that output/ never calls back into the runtime.
 */
#ifndef ZEIL_REPORT_SNAPSHOT_H
#define ZEIL_REPORT_SNAPSHOT_H

#include "zeil_output.h"

/* What the bootstrap hands to zo_init. */
extern const zo_snapshot_source_t report_snapshot_source;

#endif
