/*
 * ddi_layout.h: every DDI table and entry zeil knows, with the API version
 * that introduced it (from the generated zeil_ddi.h), for tests that size
 * tables exactly as a loader of some version would.
 */
#ifndef ZEIL_TESTS_DDI_LAYOUT_H
#define ZEIL_TESTS_DDI_LAYOUT_H

#include "zeil_ddi.h"

#include <stddef.h>

typedef struct ddi_table_info {
    const char *getter;
    const char *table;
    size_t first; /* its entries are ddi_entries[first .. first + count - 1] */
    size_t count;
} ddi_table_info_t;

typedef struct ddi_entry_info {
    const char *table;
    const char *member;
    const char *api;
    ze_api_version_t version;
    size_t index;
} ddi_entry_info_t;

extern const ddi_table_info_t ddi_tables[ZEIL_DDI_ALL_TABLE_COUNT];
extern const ddi_entry_info_t ddi_entries[ZEIL_DDI_LAYOUT_COUNT];

/* Table numbers: DDI_TABLE_<table>. */
enum {
#define DDI_TABLE_NO(getter, table, prefix, first, count, type) DDI_TABLE_##table,
    ZEIL_DDI_ALL_TABLES(DDI_TABLE_NO)
#undef DDI_TABLE_NO
};

/* How many entries a table of that version has (every known one when the
 * version is newer than zeil knows). */
size_t ddi_entries_at(size_t table, ze_api_version_t version);

#endif
