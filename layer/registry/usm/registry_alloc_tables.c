/*
 * The tables of the USM allocation index (registry_alloc_tables.h): their
 * memory, and the writers' changes to them.
 *
 * Costs. No allocation unless a table grows or shrinks, by a factor of two
 * or more: between the two a table goes from 1/8 to 7/10 full. Memory: 64
 * bytes a slot, 1.4 to 8 slots an entry (beside tables of MIN_SLOTS, a page
 * each). Tables are mapped, not taken from the malloc heap: there they moved
 * the heap's top, and glibc's trimming and growing it back cost the
 * application's own allocations (the benchmark's launch_append_ns went from
 * 170 to 208 ns for blocks of 2 KiB; 156 mapped). Tables of 2 MiB or more
 * are offered transparent huge pages (among millions of allocations, a
 * lookup otherwise also pays a TLB miss).
 */
#include "registry_alloc_tables.h"

#include <sys/mman.h>

#define HUGE_BYTES (2u << 20)
#define RECLAIM_EVERY 1024u /* writer operations between looks at the retired tables */

/* Replaced tables (writers only, under the index's lock). */
retired_tables_t alloc_tables_retired;
static uint32_t until_reclaim;

/* ---- memory ---- */

/* Zeroed, page-aligned, mapped apart from the malloc heap (where a table
 * that grew or shrank would leave its old block among the application's
 * and move the heap's top, which glibc trims and grows back); from 2 MiB
 * on, on a 2 MiB boundary and offered to transparent huge pages. Null when
 * out of memory. */
static void *region_alloc(size_t *bytes)
{
    size_t page = 4096, align = *bytes < HUGE_BYTES ? page : HUGE_BYTES;
    size_t n = (*bytes + align - 1) & ~(align - 1);
    size_t extra = align > page ? align : 0;
    char *raw = mmap(NULL, n + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    char *p = (char *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    if (p + n < raw + n + extra)
        munmap(p + n, (size_t)(raw + n + extra - (p + n)));
    if (align == HUGE_BYTES)
        madvise(p, n, MADV_HUGEPAGE);
    *bytes = n;
    return p;
}

static void region_free(void *p, size_t bytes)
{
    munmap(p, bytes);
}

static void release_table(retired_table_t *r)
{
    alloc_table_t *t = (alloc_table_t *)(void *)((char *)r - offsetof(alloc_table_t, retired));
    region_free(t, t->bytes);
}

static void reclaim(void)
{
    retired_reclaim(&alloc_tables_retired, 0, release_table);
    until_reclaim = RECLAIM_EVERY;
}

void alloc_tables_reclaim_now_and_then(void)
{
    if (--until_reclaim == 0)
        reclaim();
}

/* ---- tables ---- */

static alloc_table_t *table_new(size_t slots, int mixed)
{
    size_t bytes = sizeof(alloc_table_t) + slots * sizeof(alloc_slot_t);
    alloc_table_t *t = region_alloc(&bytes);
    if (!t)
        return NULL;
    t->mask = slots - 1;
    t->hash_shift = 64 - (unsigned)__builtin_ctzll(slots);
    t->mixed = mixed;
    t->grow_at = 7 * slots / 10;
    t->shrink_below = slots > MIN_SLOTS ? slots / 8 + 1 : 0;
    t->bytes = bytes;
    return t;
}

/* Replaces table k of x by one of the given size holding the same entries
 * (readers may use either). -1 when out of memory. */
static int table_resize(alloc_index_t *x, unsigned k, size_t slots)
{
    alloc_table_t *old = ALLOC_LOAD(x->tables[k]);
    alloc_table_t *t = table_new(slots, old && (old->mixed || old->long_run));
    if (!t)
        return -1;
    unsigned shift = level_shift(k);
    for (size_t i = 0; old && i <= old->mask; i++) {
        alloc_entry_t e;
        slot_load(&old->slots[i], &e);
        if (e.span)
            table_put(t, entry_block(&e, shift), &e);
    }
    if (t->long_run && !t->mixed) { /* the copy piled up too: mix now */
        region_free(t, t->bytes);
        old->long_run = 1;
        return table_resize(x, k, slots);
    }
    ALLOC_STORE(x->tables[k], t);
    if (old) {
        retired_add(&alloc_tables_retired, &old->retired);
        reclaim();
    }
    return 0;
}

int alloc_table_grow(alloc_index_t *x, unsigned k)
{
    alloc_table_t *t = ALLOC_LOAD(x->tables[k]);
    size_t used = t ? t->used : 0;
    size_t slots = MIN_SLOTS;
    while (slots < 2 * (used + 2)) /* at most half full after growing */
        slots *= 2;
    return table_resize(x, k, slots);
}

void alloc_table_shrink(alloc_index_t *x, unsigned k)
{
    alloc_table_t *t = ALLOC_LOAD(x->tables[k]);
    size_t slots = MIN_SLOTS;
    while (slots < 4 * t->used)
        slots *= 2;
    table_resize(x, k, slots);
}

void table_del_in_run(alloc_table_t *t, unsigned shift, size_t i)
{
    table_del_moving(t, shift, i);
}
