/*
 * coverage.h: what zeil covers of the API version the loader asked for:
 * the versions the loader asked and the drivers report, and the entries
 * newer than zeil's installed headers that pass through unchecked. Read by
 * the exit report (zeil_get_coverage) and listed at exit under ZEIL_LOG=info.
 */
#ifndef ZEIL_COVERAGE_H
#define ZEIL_COVERAGE_H

#include "shim_abi.h"

/* A shim attached its next driver: its tables count from now on. */
void coverage_note_next(const zeil_next_t *next);
/* What a driver of that shim says it implements (zeDriverGetApiVersion). */
void coverage_note_driver_version(const zeil_next_t *next, ze_api_version_t version);
/* At exit: ZEIL-W082 per table with entries passed through unchecked. */
void coverage_list_unchecked(void);

#endif
