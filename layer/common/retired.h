/*
 * retired.h: tables the registry replaced while lock-free readers
 * may still be inside them (registry_index.c for objects,
 * registry_alloc_tables.c for USM allocations). A replaced table stays
 * readable and is freed only once RETIRED_GRACE_NS passed since it was
 * replaced (and, where asked, enough newer tables replaced it too): a reader
 * would have to stall for that long inside a probe of a few dozen
 * instructions. This is the bounded-delay argument the registry makes for
 * tombstones (registry.h). Each list belongs to one writer at a time (under
 * its owner's lock).
 */
#ifndef ZEIL_REGISTRY_RETIRED_H
#define ZEIL_REGISTRY_RETIRED_H

#include <stdint.h>

#define RETIRED_GRACE_NS 1000000000ull

/* The head of a retired table: the table embeds it. */
typedef struct retired_table {
    struct retired_table *older;
    uint64_t retired_ns;
} retired_table_t;

typedef struct retired_tables {
    retired_table_t *newest;
} retired_tables_t;

/* table was just replaced. */
void retired_add(retired_tables_t *list, retired_table_t *table);
/* Frees (release) each table retired more than RETIRED_GRACE_NS ago that at
 * least keep newer ones replaced. */
void retired_reclaim(retired_tables_t *list, unsigned keep, void (*release)(retired_table_t *));

#endif
