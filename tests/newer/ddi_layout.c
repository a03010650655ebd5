/* The generated layout as data (ddi_layout.h). */
#include "ddi_layout.h"

const ddi_table_info_t ddi_tables[ZEIL_DDI_ALL_TABLE_COUNT] = {
#define TABLE(getter, table, prefix, first, count, type) {#getter, #table, first, count},
    ZEIL_DDI_ALL_TABLES(TABLE)
#undef TABLE
};

const ddi_entry_info_t ddi_entries[ZEIL_DDI_LAYOUT_COUNT] = {
#define ENTRY(table, member, api, version, index, kind) {#table, #member, #api, version, index},
    ZEIL_DDI_LAYOUT(ENTRY)
#undef ENTRY
};

size_t ddi_entries_at(size_t table, ze_api_version_t version)
{
    const ddi_table_info_t *t = &ddi_tables[table];
    size_t n = 0;
    while (n < t->count && ddi_entries[t->first + n].version <= version)
        n++;
    return n;
}
