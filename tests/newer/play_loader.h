/*
 * play_loader.h: every Level Zero function zeil knows the type of, as the
 * play loader (play_loader.c) exports it: the installed headers' and the
 * newer ones compat/ze_compat.h declares, for programs that call entries
 * newer than the installed headers through it.
 */
#ifndef ZEIL_TESTS_PLAY_LOADER_H
#define ZEIL_TESTS_PLAY_LOADER_H

#include "zeil_ddi.h"

#define PLAY_DECLARE(table, member, pfn, api, params, args) \
    ZE_DLLEXPORT ze_result_t ZE_APICALL api params;
ZEIL_DDI_ENTRIES(PLAY_DECLARE)
#undef PLAY_DECLARE

#endif
