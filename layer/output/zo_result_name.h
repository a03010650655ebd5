/* zo_result_name.h: names of Level Zero result codes for log lines
 * (zo_result_name.c is generated at build time by scripts/codegen/gen-result-names). */
#ifndef ZO_RESULT_NAME_H
#define ZO_RESULT_NAME_H

#include <level_zero/ze_api.h>

/* The enumerator's name, or null for a value the headers do not name. */
const char *zo_result_name(ze_result_t result);

#endif
