/* Replaced tables, freed after a grace period (retired.h). */
#include "retired.h"

#include "coarse_clock.h"

#include <stddef.h>

void retired_add(retired_tables_t *list, retired_table_t *table)
{
    table->retired_ns = coarse_clock_coarse_ns();
    table->older = list->newest;
    list->newest = table;
}

void retired_reclaim(retired_tables_t *list, unsigned keep, void (*release)(retired_table_t *))
{
    uint64_t now = coarse_clock_coarse_ns();
    retired_table_t **link = &list->newest;
    /* Older tables come later in the list: the n-th was replaced n times ago. */
    for (unsigned replaced_since = 1; *link; replaced_since++) {
        retired_table_t *t = *link;
        if (replaced_since > keep && now - t->retired_ns > RETIRED_GRACE_NS) {
            *link = t->older;
            release(t);
        } else {
            link = &t->older;
        }
    }
}
