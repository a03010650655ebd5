/*
 * registry_alloc_tables.h: the tables of the USM allocation index
 * (registry_allocs.c says what the index keeps and how readers and writers
 * share it): levels, slots, and one open-addressing table per level, grown
 * and shrunk beside lock-free readers. Private to the two files.
 *
 * Levels. An allocation of span s (its size, 1 for size 0) belongs to level
 * k, the smallest with s <= 2^(3(k+1)): 22 levels, whose blocks are 8 B,
 * 64 B, 512 B, 4 KiB, ... (the last ones' 2^63 B). An allocation touches at
 * most two blocks of its level and is entered under each. Each level has an
 * open-addressing table (linear probing, Fibonacci hash of the block
 * number, see home_slot). A lookup probes one block per level in use (a
 * bitmask; at most 22, a handful in practice), coarsest first, and stops at
 * the first entry that contains the pointer. Coarsest first because coarse
 * levels hold few allocations (there cannot be many of a GiB), so their
 * tables stay small and cached, and because of the tombstone rule
 * (registry_allocs.c).
 *
 * Why blocks 8 times apart: a driver packs small allocations next to each
 * other, and every allocation of a block shares its home slot, so a block
 * holding up to 2^LEVEL_BITS of them makes probe runs that long. With
 * blocks 16 times apart (LEVEL_BITS 4) a million packed 64-byte allocations
 * sat four to a 256-byte block: a lookup read 2.5 slot lines and missed the
 * last-level cache 1.36 times (callgrind's cache simulation, 32 MiB); at 8
 * times apart, 1.0 line and 0.56 misses. Finer still (4 times) measured the
 * same there and only adds levels for a lookup to pass.
 *
 * Entries. A slot is one cache line holding everything a lookup returns
 * (base, span, context, device, calls, threads, type, the creating call as
 * an index into a small table of call names): a lookup among millions of
 * allocations takes one cache miss, where a slot pointing at a record took
 * two in a row (measured: 1.4x slower at a million). There are no records,
 * so nothing to allocate or recycle per allocation. An allocation crossing a
 * block boundary has a second copy, flagged, under the block of its last
 * byte.
 *
 * Why not a radix (page-table) structure: an allocation would be entered in
 * every page it spans (a 1 GiB buffer in 262 144 of them) or the tree would
 * need levels of its own per size, which is this design with more memory.
 * Why a table per level rather than one keyed by (level, block): the rare
 * coarse levels stay small and cached, and each table grows or shrinks on
 * its own.
 *
 * Writers (under the index's lock, inside its seqlock's write sections where
 * said) change slots with release stores; readers load with acquire loads.
 * Writers may move entries (deletion shifts the rest of a probe run back: no
 * deleted markers, no rebuilds for them); a probe stops after one pass over
 * a table, whatever it reads. A table being replaced (grown or shrunk) is
 * copied beside the old one, which stays unchanged and readable and is
 * retired (retired.h).
 */
#ifndef ZEIL_REGISTRY_ALLOC_TABLES_H
#define ZEIL_REGISTRY_ALLOC_TABLES_H

#include "retired.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define LEVEL_BITS 3u
#define ALLOC_LEVELS ((64u + LEVEL_BITS - 1) / LEVEL_BITS)
#define MIN_SLOTS 32u
#define LONG_RUN 64u /* slots between an entry and its home that call for mixing */

/* meta: type | creator << 32 | flags << 40 | FIFO place << 48 */
#define F_SECOND 1u    /* the copy under the block of the last byte */
#define F_ZERO_SIZE 2u /* size 0, looked up as 1 byte */
_Static_assert(ALLOC_LEVELS <= 32u, "the levels in use are a 32-bit mask");

#define ALLOC_LOAD(x) atomic_load_explicit(&(x), memory_order_acquire)
#define ALLOC_STORE(x, v) atomic_store_explicit(&(x), (v), memory_order_release)

typedef struct slot {
    _Alignas(64) _Atomic uintptr_t base;
    _Atomic uintptr_t span; /* bytes looked up as the allocation's; 0: empty */
    _Atomic uintptr_t context, device;
    _Atomic uint64_t created_call, freed_call;
    _Atomic uint64_t threads; /* created | freed << 32 */
    _Atomic uint64_t meta;
} alloc_slot_t;

/* A slot's contents, copied out. */
typedef struct entry {
    uintptr_t base, span, context, device;
    uint64_t created_call, freed_call, threads, meta;
} alloc_entry_t;

typedef struct table {
    size_t mask;             /* slots - 1 */
    unsigned hash_shift;     /* 64 - log2(slots) */
    int mixed;               /* block numbers mixed before hashing */
    int long_run;            /* an entry landed LONG_RUN slots from home */
    size_t grow_at;          /* entries it holds at most (70% full; 0: grow
                                        now, a long run without mixing) */
    size_t used;             /* entries (writers only) */
    size_t shrink_below;     /* fewer entries: an eighth full or less, and
                                larger than MIN_SLOTS (0: never) */
    size_t bytes;            /* as allocated */
    retired_table_t retired; /* once a newer table replaced it */
    alloc_slot_t slots[];
} alloc_table_t;

typedef struct alloc_index {
    alloc_table_t *_Atomic tables[ALLOC_LEVELS]; /* null until the level's first entry */
    _Atomic uint32_t levels;                     /* bit k: tables[k] has entries */
    /* Writers only: while level k has entries, each lies within [lo[k],
     * hi[k]] (its last byte). Set anew by the first entry after the level
     * emptied, never narrowed: a writer looking for entries that hold a
     * byte skips a level whose bounds leave it out (most levels, for most
     * new allocations). */
    uintptr_t lo[ALLOC_LEVELS], hi[ALLOC_LEVELS];
} alloc_index_t;

/* ---- levels, hashing, entries ---- */

/* LEVEL_BITS * (k + 1), but 63 for the last level (a shift by 64 is none).
 * Looked up: every allocation and free asks a few times. */
_Static_assert(LEVEL_BITS == 3u && ALLOC_LEVELS == 22u, "the tables below follow the levels");
static inline unsigned level_shift(unsigned k)
{
    static const unsigned char shifts[ALLOC_LEVELS] = {3,  6,  9,  12, 15, 18, 21, 24, 27, 30, 33,
                                                       36, 39, 42, 45, 48, 51, 54, 57, 60, 63, 63};
    return shifts[k];
}

/* The level of a span: (bits - 1) / LEVEL_BITS of the bits of span - 1. */
static inline unsigned level_of(uintptr_t span)
{
    static const unsigned char by_bits[65] = {
        0,  0,  0,  0,  1,  1,  1,  2,  2,  2,  3,  3,  3,  4,  4,  4,  5,  5,  5,  6,  6,  6,
        7,  7,  7,  8,  8,  8,  9,  9,  9,  10, 10, 10, 11, 11, 11, 12, 12, 12, 13, 13, 13, 14,
        14, 14, 15, 15, 15, 16, 16, 16, 17, 17, 17, 18, 18, 18, 19, 19, 19, 20, 20, 20, 21};
    if (span <= (1u << LEVEL_BITS))
        return 0;
    return by_bits[64 - __builtin_clzll((unsigned long long)(span - 1))];
}

/* Fibonacci hashing: block numbers of allocations next to each other (the
 * common case) land evenly spread with hardly a collision, which keeps the
 * probe runs short and their branches predictable (a plain mixing hash made
 * lookups among a million allocations 1.7x slower). Keys that happen to
 * line up with the multiplier pile up in long runs: a table where that
 * happens is rebuilt with the block numbers mixed first. */
static inline __attribute__((always_inline)) size_t home_slot(const alloc_table_t *t,
                                                              uintptr_t block)
{
    uint64_t x = (uint64_t)block;
    if (t->mixed) {
        x *= 0xbf58476d1ce4e5b9ull;
        x ^= x >> 31;
    }
    return (size_t)((x * 0x9e3779b97f4a7c15ull) >> t->hash_shift);
}

static inline unsigned meta_flags(uint64_t meta)
{
    return (unsigned)(meta >> 40) & 0xffu;
}

static inline uint32_t meta_place(uint64_t meta)
{
    return (uint32_t)(meta >> 48);
}

static inline uint64_t meta_with(uint64_t meta, unsigned flags, uint32_t place)
{
    return (meta & 0xffffffffffull) | (uint64_t)flags << 40 | (uint64_t)place << 48;
}

/* meta_with(meta, meta_flags(meta), place). */
static inline uint64_t meta_at_place(uint64_t meta, uint32_t place)
{
    return (meta & 0xffffffffffffull) | (uint64_t)place << 48;
}

/* The block of level shift an entry is filed under. */
static inline uintptr_t entry_block(const alloc_entry_t *e, unsigned shift)
{
    return ((meta_flags(e->meta) & F_SECOND) ? e->base + e->span - 1 : e->base) >> shift;
}

static inline void slot_load(const alloc_slot_t *s, alloc_entry_t *e)
{
    e->base = ALLOC_LOAD(s->base);
    e->span = ALLOC_LOAD(s->span);
    e->context = ALLOC_LOAD(s->context);
    e->device = ALLOC_LOAD(s->device);
    e->created_call = ALLOC_LOAD(s->created_call);
    e->freed_call = ALLOC_LOAD(s->freed_call);
    e->threads = ALLOC_LOAD(s->threads);
    e->meta = ALLOC_LOAD(s->meta);
}

/* Everything but the range (base, span), which a slot reused for the same
 * range keeps. */
static inline __attribute__((always_inline)) void slot_store_fields(alloc_slot_t *s,
                                                                    const alloc_entry_t *e)
{
    ALLOC_STORE(s->context, e->context);
    ALLOC_STORE(s->device, e->device);
    ALLOC_STORE(s->created_call, e->created_call);
    ALLOC_STORE(s->freed_call, e->freed_call);
    ALLOC_STORE(s->threads, e->threads);
    ALLOC_STORE(s->meta, e->meta);
}

/* The span last: a slot is in use from then on. */
static inline __attribute__((always_inline)) void slot_store(alloc_slot_t *s,
                                                             const alloc_entry_t *e)
{
    ALLOC_STORE(s->base, e->base);
    slot_store_fields(s, e);
    ALLOC_STORE(s->span, e->span);
}

/* The slot of the entry of this base (the first copy, or the second), or
 * -1. Tables are never full, so a run always ends. */
static inline __attribute__((always_inline)) ptrdiff_t table_find(const alloc_table_t *t,
                                                                  uintptr_t block, uintptr_t base,
                                                                  unsigned second)
{
    for (size_t i = home_slot(t, block);; i = (i + 1) & t->mask) {
        if (!ALLOC_LOAD(t->slots[i].span))
            return -1;
        if (ALLOC_LOAD(t->slots[i].base) == base &&
            (meta_flags(ALLOC_LOAD(t->slots[i].meta)) & F_SECOND) == second)
            return (ptrdiff_t)i;
    }
}

/* The slot of the entry containing p, coarsest level first, or null.
 * Readers and writers alike. */
static inline const alloc_slot_t *entries_find(alloc_index_t *x, uintptr_t p)
{
    uint32_t levels = ALLOC_LOAD(x->levels);
    while (levels) {
        unsigned k = 31 - (unsigned)__builtin_clz(levels);
        levels &= ~(1u << k);
        const alloc_table_t *t = ALLOC_LOAD(x->tables[k]);
        if (!t)
            continue;
        size_t i = home_slot(t, p >> level_shift(k));
        for (size_t n = 0; n <= t->mask; n++, i = (i + 1) & t->mask) {
            const alloc_slot_t *s = &t->slots[i];
            uintptr_t span = ALLOC_LOAD(s->span);
            if (!span)
                break;
            if (p - ALLOC_LOAD(s->base) < span)
                return s;
        }
    }
    return NULL;
}

/* ---- changes (writers) ---- */

int alloc_table_grow(alloc_index_t *x, unsigned k);
void alloc_table_shrink(alloc_index_t *x, unsigned k);

/* Room in table k for two more entries (at most 70% full): 0, or -1 when
 * out of memory. Out of any write section: it may replace the table. Inline
 * up to the rare growth: every allocation and free asks. */
static inline int table_reserve(alloc_index_t *x, unsigned k)
{
    const alloc_table_t *t = ALLOC_LOAD(x->tables[k]);
    if (t && t->used + 2 <= t->grow_at)
        return 0;
    return alloc_table_grow(x, k);
}

/* Out of any write section: a table an eighth full or less gives back
 * memory, down to a quarter full (when the smaller table cannot be had, it
 * stays). */
static inline void table_maybe_shrink(alloc_index_t *x, unsigned k)
{
    const alloc_table_t *t = ALLOC_LOAD(x->tables[k]);
    if (t && t->used < t->shrink_below)
        alloc_table_shrink(x, k);
}

/* ---- entries (writers, in a write section; inline: every allocation and
 * free changes a few) ---- */

/* The entry goes in the first empty slot of its probe run. */
static inline __attribute__((always_inline)) void table_put(alloc_table_t *t, uintptr_t block,
                                                            const alloc_entry_t *e)
{
    size_t i = home_slot(t, block), run = 0;
    while (ALLOC_LOAD(t->slots[i].span)) {
        i = (i + 1) & t->mask;
        run++;
    }
    slot_store(&t->slots[i], e);
    t->used++;
    if (run >= LONG_RUN) {
        t->long_run = 1;
        if (!t->mixed)
            t->grow_at = 0; /* rebuilt, mixed, at the next reserve */
    }
}

/* table_del_at when slot i is not the last of its run (registry_alloc_tables.c). */
void table_del_in_run(alloc_table_t *t, unsigned shift, size_t i);

/* Empties slot i, moving later entries of its run back so that no run is
 * cut short. Inline up to the move: the usual slot ends its run (tables are
 * at most 70% full), and the move needs a copy of each entry it passes. */
static inline void table_del_at(alloc_table_t *t, unsigned shift, size_t i)
{
    if (ALLOC_LOAD(t->slots[(i + 1) & t->mask].span)) {
        table_del_in_run(t, shift, i);
        return;
    }
    ALLOC_STORE(t->slots[i].span, (uintptr_t)0);
    t->used--;
}

/* table_del_at's general case, for registry_alloc_tables.c. */
static inline void table_del_moving(alloc_table_t *t, unsigned shift, size_t i)
{
    for (size_t j = (i + 1) & t->mask;; j = (j + 1) & t->mask) {
        if (!ALLOC_LOAD(t->slots[j].span))
            break;
        alloc_entry_t e;
        slot_load(&t->slots[j], &e);
        size_t home = home_slot(t, entry_block(&e, shift));
        /* j may move to i unless its home lies cyclically in (i, j]. */
        if (((j - home) & t->mask) < ((j - i) & t->mask))
            continue;
        slot_store(&t->slots[i], &e);
        i = j;
    }
    ALLOC_STORE(t->slots[i].span, (uintptr_t)0);
    t->used--;
}

/* After table_reserve(x, k). e: the first copy. */
static inline void entries_put(alloc_index_t *x, unsigned k, const alloc_entry_t *e)
{
    alloc_table_t *t = ALLOC_LOAD(x->tables[k]);
    unsigned shift = level_shift(k);
    uintptr_t first = e->base >> shift, last = (e->base + e->span - 1) >> shift;
    table_put(t, first, e);
    if (last != first) {
        alloc_entry_t second = *e;
        second.meta = meta_with(e->meta, meta_flags(e->meta) | F_SECOND, meta_place(e->meta));
        table_put(t, last, &second);
    }
    uint32_t levels = ALLOC_LOAD(x->levels);
    uintptr_t end = e->base + e->span - 1;
    if (!(levels & (1u << k))) {
        x->lo[k] = e->base;
        x->hi[k] = end;
        ALLOC_STORE(x->levels, levels | 1u << k);
        return;
    }
    if (e->base < x->lo[k])
        x->lo[k] = e->base;
    if (end > x->hi[k])
        x->hi[k] = end;
}

/* at: the slot of the first copy, or -1 to look. */
static inline void entries_del(alloc_index_t *x, unsigned k, uintptr_t base, uintptr_t span,
                               ptrdiff_t at)
{
    alloc_table_t *t = ALLOC_LOAD(x->tables[k]);
    unsigned shift = level_shift(k);
    uintptr_t first = base >> shift, last = (base + span - 1) >> shift;
    ptrdiff_t i = at >= 0 ? at : table_find(t, first, base, 0);
    if (i >= 0)
        table_del_at(t, shift, (size_t)i);
    if (last != first && (i = table_find(t, last, base, F_SECOND)) >= 0)
        table_del_at(t, shift, (size_t)i);
    if (!t->used)
        ALLOC_STORE(x->levels, ALLOC_LOAD(x->levels) & ~(1u << k));
}

/* After each writer's operation: now and then, frees the replaced tables
 * whose grace period is over. */
extern retired_tables_t alloc_tables_retired;
void alloc_tables_reclaim_now_and_then(void);
static inline void alloc_tables_after_write(void)
{
    if (alloc_tables_retired.newest)
        alloc_tables_reclaim_now_and_then();
}

#endif
