/*
 * intercepted_kinds.h: what zeil intercepts of the API version the loader asked for:
 * the versions the loader asked and the drivers report, and the entries
 * newer than zeil's installed headers that pass through unchecked. Read by
 * the exit report (zeil_get_coverage) and listed at exit under ZEIL_LOG=info.
 */
#ifndef ZEIL_INTERCEPTED_KINDS_H
#define ZEIL_INTERCEPTED_KINDS_H

#include "shim_abi.h"

#include <zeil/zeil.h>

/* A shim attached its next driver: its tables count from now on. runtime:
 * every generated intercept; hooked: the entries with hooks (the creators
 * zeil registers what they make through). */
void intercepted_kinds_note_next(const zeil_next_t *next, const zeil_intercepts_t *runtime,
                                 const zeil_intercepts_t *hooked);
/* What a driver of that shim says it implements (zeDriverGetApiVersion). */
void intercepted_kinds_note_driver_version(const zeil_next_t *next, ze_api_version_t version);
/* At exit: ZEIL-W082 per table with entries passed through unchecked. */
void intercepted_kinds_list_unchecked(void);

/* 1 when zeil intercepts every function that creates handles of this kind at
 * the API version the loader asked for (or no loader asked yet): then a
 * handle of that kind zeil never saw is misuse (E001). 0 when some creator
 * passes through (a newer entry zeil does not intercept): such a handle may
 * be valid, and zeil registers it at first sight (first_sight.c). */
int intercepted_kinds_all_creators(zeil_kind_t kind);
/* The one wrapped driver's tables, or null when there are several or none
 * (a handle zeil never saw cannot be told apart by driver). */
const zeil_next_t *intercepted_kinds_only_next(void);

#endif
