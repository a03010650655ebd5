/*
 * zo_report_coverage.h: the coverage line of the report and the "coverage"
 * member of the summary (zeil_get_coverage).
 */
#ifndef ZO_REPORT_COVERAGE_H
#define ZO_REPORT_COVERAGE_H

#include "zo_buf.h"

#include <zeil/zeil.h>

/* "coverage: the loader asked for API 1.17, ..." and a newline; nothing when
 * no loader asked for tables (no driver wrapped). */
void zo_coverage_line(zo_buf_t *b, const zeil_coverage_t *c);
/* `  "coverage": {...},` and a newline; versions "0.0" when not known. */
void zo_coverage_json(zo_buf_t *b, const zeil_coverage_t *c);

#endif
