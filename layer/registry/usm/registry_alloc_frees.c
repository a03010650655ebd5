/*
 * USM frees, in two steps before the driver's call (usm_index.h): the
 * lookup, without the lock, finds the live allocation (seqlock reads, as
 * lookups make them), and once the checks passed, the burial, under the
 * lock, makes that very allocation a tombstone (registry_allocs.c says how
 * the index and its tombstones work), before the driver may give the
 * address to another thread. The usual burial, an allocation still where
 * its lookup found it whose range already has a tombstone (memory given out
 * again at the same address), rewrites that tombstone in place. The free
 * hook's usual case, lookup and burial at once, is inline in
 * usm_hot_paths.h (usm_free_usual); registry_begin_free and
 * registry_end_free, here, serve every other. A free the
 * driver refuses makes its allocation live again (registry_unfree,
 * registry_allocs.c).
 */
#include "registry.h"
#include "usm_hot_paths.h"

#include <stddef.h>

/* Under the lock: the slot of the live allocation with this base (its
 * first copy), or -1. */
static ptrdiff_t live_with_base(uintptr_t base, unsigned *level, alloc_entry_t *e)
{
    uint32_t levels = ALLOC_LOAD(allocs.live.levels);
    while (levels) {
        unsigned k = 31 - (unsigned)__builtin_clz(levels);
        levels &= ~(1u << k);
        const alloc_table_t *t = ALLOC_LOAD(allocs.live.tables[k]);
        ptrdiff_t i = table_find(t, base >> level_shift(k), base, 0);
        if (i >= 0) {
            slot_load(&t->slots[i], e);
            *level = k;
            return i;
        }
    }
    return -1;
}

/* The live allocation of this base, without the lock (seqlock reads, as
 * lookups make them): the slot of its first copy (its creating call and
 * context in *f, level in f->level, table in f->table), or -1. The level of
 * the newest allocation first: a program frees what it allocated, mostly
 * of the sizes it allocates most. */
static __attribute__((noinline)) ptrdiff_t live_with_base_read(uintptr_t base, registry_free_t *f)
{
    for (unsigned attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
        uint64_t s = ALLOC_LOAD(allocs.seq);
        if (s & 1) {
            cpu_relax();
            continue;
        }
        ptrdiff_t at = -1;
        const alloc_table_t *t = NULL;
        uint32_t levels = ALLOC_LOAD(allocs.live.levels);
        unsigned level = atomic_load_explicit(&allocs.newest_level, memory_order_relaxed);
        if (!(levels & (1u << level)))
            level = levels ? 31 - (unsigned)__builtin_clz(levels) : 0;
        while (levels) {
            levels &= ~(1u << level);
            t = ALLOC_LOAD(allocs.live.tables[level]);
            if (t && (at = live_probe_base(t, level, base)) >= 0)
                break;
            level = levels ? 31 - (unsigned)__builtin_clz(levels) : 0;
        }
        if (at >= 0) {
            f->created_call = ALLOC_LOAD(t->slots[at].created_call);
            f->context = (ze_context_handle_t)ALLOC_LOAD(t->slots[at].context);
            f->span = ALLOC_LOAD(t->slots[at].span);
        }
        if (ALLOC_LOAD(allocs.seq) == s) {
            f->level = level;
            f->table = t;
            return at;
        }
    }
    /* Writers kept changing the index: wait for them once. */
    allocs_lock();
    unsigned k = 0;
    alloc_entry_t e = {0};
    ptrdiff_t at = live_with_base(base, &k, &e);
    f->created_call = e.created_call;
    f->context = (ze_context_handle_t)e.context;
    f->span = e.span;
    f->level = k;
    f->table = at >= 0 ? ALLOC_LOAD(allocs.live.tables[k]) : NULL;
    allocs_unlock();
    return at;
}

/* live_with_base_read's usual case, inline: no writer in the way, and the
 * allocation at the level of the newest one. -1 when that does not hold. */
static inline ptrdiff_t live_with_base_at_newest_level(uintptr_t base, registry_free_t *f)
{
    uint64_t s = ALLOC_LOAD(allocs.seq);
    unsigned level = atomic_load_explicit(&allocs.newest_level, memory_order_relaxed);
    const alloc_table_t *t = ALLOC_LOAD(allocs.live.tables[level]);
    if ((s & 1) || !t)
        return -1;
    ptrdiff_t at = live_probe_base(t, level, base);
    if (at < 0)
        return -1;
    f->created_call = ALLOC_LOAD(t->slots[at].created_call);
    f->context = (ze_context_handle_t)ALLOC_LOAD(t->slots[at].context);
    f->span = ALLOC_LOAD(t->slots[at].span);
    if (ALLOC_LOAD(allocs.seq) != s)
        return -1;
    f->level = level;
    f->table = t;
    return at;
}

/* registry_begin_free: the live allocation of this base, at the newest
 * allocation's level first. */
static int begin_free_any(const void *ptr, uint64_t call, uint32_t thread, registry_free_t *freeing)
{
    uintptr_t base = (uintptr_t)ptr;
    ptrdiff_t at = live_with_base_at_newest_level(base, freeing);
    if (at < 0 && (at = live_with_base_read(base, freeing)) < 0)
        return 0;
    freeing->base = base;
    freeing->call = call;
    freeing->thread = thread;
    freeing->slot = (size_t)at;
    return 1;
}

/* Under the lock: the slot of the allocation the free began with, still
 * live (its entry in *e, its level in *k), or -1. Where begin found it,
 * unless the table was replaced or its entries moved since. */
static inline ptrdiff_t freeing_slot(const registry_free_t *freeing, unsigned *k, alloc_entry_t *e)
{
    const alloc_table_t *t = ALLOC_LOAD(allocs.live.tables[freeing->level]);
    /* The same address may be a newer table by now (the old one freed after
     * its grace period, its memory mapped again): within bounds, the slot's
     * contents decide. */
    if (t && t == freeing->table && freeing->slot <= t->mask) {
        const alloc_slot_t *s = &t->slots[freeing->slot];
        e->span = ALLOC_LOAD(s->span);
        e->base = ALLOC_LOAD(s->base);
        e->created_call = ALLOC_LOAD(s->created_call);
        e->meta = ALLOC_LOAD(s->meta);
        if (e->span && e->base == freeing->base && !(meta_flags(e->meta) & F_SECOND) &&
            e->created_call == freeing->created_call) {
            e->context = ALLOC_LOAD(s->context);
            e->device = ALLOC_LOAD(s->device);
            e->threads = ALLOC_LOAD(s->threads);
            *k = freeing->level;
            return (ptrdiff_t)freeing->slot;
        }
    }
    ptrdiff_t at = live_with_base(freeing->base, k, e);
    return at >= 0 && e->created_call == freeing->created_call ? at : -1;
}

/* Under the lock: the burial, any case (end_free_usual did not hold). */
static __attribute__((noinline)) int end_free_other(const registry_free_t *freeing)
{
    unsigned k = 0;
    alloc_entry_t e;
    ptrdiff_t at = freeing_slot(freeing, &k, &e);
    /* Not live any more: a racing free of the same pointer (the program's
     * double free) buried it first, or a new allocation at its base took
     * it for one whose free zeil missed. */
    if (at < 0)
        return 0;
    /* The tombstone names this free. */
    e.freed_call = freeing->call;
    e.threads = (e.threads & 0xffffffffu) | (uint64_t)freeing->thread << 32;
    int kept = table_reserve(&allocs.dead, k) == 0;
    write_begin();
    /* table_reserve of the dead index leaves the live tables alone: at holds. */
    entries_del(&allocs.live, k, freeing->base, e.span, at);
    if (kept)
        alloc_bury(&e, k);
    else /* no tombstone, but none older that says otherwise either */
        drop_dead_overlapping(k, freeing->base, e.span);
    write_end();
    table_maybe_shrink(&allocs.live, k);
    shrink_dead();
    return kept ? 1 : 2;
}

/* Under the lock: the usual burial, as end_free_other would make it, when
 * the allocation is still where the lookup found it, in one block of its
 * level, and its tombstone has room. 1 when done; 0 with nothing changed
 * otherwise. */
static inline int end_free_usual(const registry_free_t *freeing)
{
    unsigned k = freeing->level;
    alloc_table_t *t = ALLOC_LOAD(allocs.live.tables[k]);
    if (!t || t != freeing->table || freeing->slot > t->mask)
        return 0;
    const alloc_slot_t *s = &t->slots[freeing->slot];
    uintptr_t base = freeing->base, span = ALLOC_LOAD(s->span);
    uint64_t meta = ALLOC_LOAD(s->meta);
    unsigned shift = level_shift(k);
    if (ALLOC_LOAD(s->base) != base || ALLOC_LOAD(s->created_call) != freeing->created_call ||
        !span || (meta_flags(meta) & F_SECOND) || (base + span - 1) >> shift != base >> shift)
        return 0;
    alloc_table_t *dead = ALLOC_LOAD(allocs.dead.tables[k]);
    /* The usual of the usual, alloc_bury's way without its copy of the entry: the
     * oldest FIFO place free, a tombstone of this very range that no coarser
     * one overlaps (its slot is reused: no room needed). The live slot is
     * read before table_del_at moves it. */
    uint32_t place = allocs.fifo_next;
    ptrdiff_t d;
    if (dead && !allocs.fifo[place].span && !(ALLOC_LOAD(allocs.dead.levels) >> (k + 1)) &&
        (d = table_find(dead, base >> shift, base, 0)) >= 0 &&
        ALLOC_LOAD(dead->slots[d].span) == span) {
        alloc_slot_t *tomb = &dead->slots[d];
        write_begin();
        tomb_rewrite(tomb, s,
                     (tomb_free_t){freeing->call, freeing->created_call, ALLOC_LOAD(s->context),
                                   freeing->thread},
                     meta, place, base, span);
        table_del_at(t, shift, freeing->slot);
        if (!t->used)
            ALLOC_STORE(allocs.live.levels, ALLOC_LOAD(allocs.live.levels) & ~(1u << k));
        write_end();
        table_maybe_shrink(&allocs.live, k);
        return 1;
    }
    if (!dead || dead->used + 2 > dead->grow_at) /* table_reserve would replace it */
        return 0;
    alloc_entry_t e = {.base = base,
                       .span = span,
                       .context = ALLOC_LOAD(s->context),
                       .device = ALLOC_LOAD(s->device),
                       .created_call = freeing->created_call,
                       .freed_call = freeing->call,
                       .threads = (ALLOC_LOAD(s->threads) & 0xffffffffu) | (uint64_t)freeing->thread
                                                                               << 32,
                       .meta = meta};
    write_begin();
    table_del_at(t, shift, freeing->slot);
    if (!t->used)
        ALLOC_STORE(allocs.live.levels, ALLOC_LOAD(allocs.live.levels) & ~(1u << k));
    alloc_bury(&e, k);
    write_end();
    table_maybe_shrink(&allocs.live, k);
    shrink_dead();
    return 1;
}

/* Under the lock: the burial, the usual way or the other. */
static int end_free_locked(const registry_free_t *freeing)
{
    int r = end_free_usual(freeing) ? 1 : end_free_other(freeing);
    after_write();
    allocs_unlock();
    return r;
}

/* registry_end_free: the lock, and the free's number with it when it has
 * none yet. */
static int end_free_any(registry_free_t *freeing)
{
    allocs_lock();
    if (!freeing->call)
        freeing->call = calls_take_number();
    return end_free_locked(freeing);
}

/* Under the lock, after end_free_usual's way: what it ends with. */
__attribute__((noinline)) int end_free_finish(unsigned k)
{
    table_maybe_shrink(&allocs.live, k);
    after_write();
    allocs_unlock();
    return 1;
}

/* usm_hot_paths.h's, for every caller but the allocation hooks. */
int registry_begin_free(const void *ptr, uint64_t call, uint32_t thread, registry_free_t *freeing)
{
    return begin_free_any(ptr, call, thread, freeing);
}

int registry_end_free(registry_free_t *freeing)
{
    return end_free_any(freeing);
}

int registry_free_alloc(const void *ptr, uint64_t call, uint32_t thread)
{
    registry_free_t freeing;
    if (!registry_begin_free(ptr, call, thread, &freeing))
        return 0;
    return registry_end_free(&freeing);
}
