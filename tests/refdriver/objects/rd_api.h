/*
 * rd_api.h: the reference driver's entry points.
 *
 * The driver implements a Level Zero API function zeXxx by defining
 * rd_zeXxx with exactly the DDI signature declared here (generated from the
 * installed headers, so a wrong signature does not compile). Every entry it
 * does not define is filled with a stub returning
 * ZE_RESULT_ERROR_UNSUPPORTED_FEATURE (rd_ddi.c).
 */
#ifndef ZEIL_RD_API_H
#define ZEIL_RD_API_H

#include "zeil_ddi.h"

#define RD_DECLARE(table, member, pfn, api, params, args) \
    ze_result_t ZE_APICALL rd_##api params __attribute__((weak, visibility("hidden")));
ZEIL_DDI_ENTRIES(RD_DECLARE)
#undef RD_DECLARE

#endif
