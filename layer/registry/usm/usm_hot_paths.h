/*
 * usm_hot_paths.h: the usual allocation, lookup and burial of a free in the
 * USM allocation index, inline (registry_allocs.c says how the index works,
 * registry_alloc_frees.c how a free goes): the allocation hooks of
 * gen-wrappers' INLINED_HOOKS (intercept_memory.c) take them straight into
 * their intercepts, with no call, and registry_add_alloc_fields,
 * registry_begin_free and registry_end_free are these for everyone else.
 * The free hook's usual case, usm_free_usual, looks up and buries at once
 * (the lookup's reads checked under the lock); its other cases take the
 * two steps. Each calls nothing
 * but the hidden functions of its other cases, before it changes anything.
 * Besides usm_index.h, the one header of the folder that others include.
 */
#ifndef ZEIL_USM_HOT_PATHS_H
#define ZEIL_USM_HOT_PATHS_H

#include "registry_alloc_index.h"

#include <stddef.h>

#define USM_INLINE __attribute__((always_inline)) /* into the intercepts */
#define USM_HIDDEN __attribute__((visibility("hidden")))

/* ---- the other cases, each of them under its own name (noinline) ---- */

/* registry_add_alloc_fields, any case (registry_allocs.c). */
int add_alloc_any(const void *ptr, size_t size, ze_memory_type_t type, ze_context_handle_t context,
                  ze_device_handle_t device, const char *created_by, uint64_t created_call,
                  uint32_t created_thread) USM_HIDDEN;
/* Under the lock, after the usual allocation: what every write ends with. */
int add_alloc_finish(void) USM_HIDDEN;
/* Under the lock, after the usual free: what it ends with
 * (registry_alloc_frees.c). */
int end_free_finish(unsigned k) USM_HIDDEN;

/* ---- allocations ---- */

/* Under the lock: whether a live entry holds the first or the last byte of
 * [base, last] (live_scan then says what to do about it): the same probes
 * as live_scan's, and for the usual new allocation, no overlap, an empty
 * slot or two per level in use. */
static inline USM_INLINE int run_holds_either(const alloc_table_t *t, uintptr_t block,
                                              uintptr_t base, uintptr_t last)
{
    for (size_t i = home_slot(t, block);; i = (i + 1) & t->mask) {
        uintptr_t span = ALLOC_LOAD(t->slots[i].span);
        if (!span)
            return 0; /* tables are never full: a run ends */
        uintptr_t b = ALLOC_LOAD(t->slots[i].base);
        if (base - b < span || last - b < span)
            return 1;
    }
}

static inline USM_INLINE int live_holds_either(uintptr_t base, uintptr_t last)
{
    uint32_t levels = ALLOC_LOAD(allocs.live.levels);
    while (levels) {
        unsigned k = (unsigned)__builtin_ctz(levels);
        levels &= levels - 1;
        if (last < allocs.live.lo[k] || base > allocs.live.hi[k])
            continue;
        const alloc_table_t *t = ALLOC_LOAD(allocs.live.tables[k]);
        unsigned shift = level_shift(k);
        uintptr_t first = base >> shift, second = last >> shift;
        if (run_holds_either(t, first, base, last) ||
            (second != first && run_holds_either(t, second, base, last)))
            return 1;
    }
    return 0;
}

/* The usual allocation inline, add_alloc_any's way: the lock free, nothing
 * live where it lands, room in its level's table, its creating call the
 * last one seen, one block of its level. *call: the allocation's number, or
 * 0 to take one with the lock (allocs_try_lock), set then. It calls nothing
 * but tail calls (no registers to save): anything else goes to add_alloc_any
 * before it changes anything. */
static inline USM_INLINE int usm_add_alloc(const void *ptr, size_t size, ze_memory_type_t type,
                                           ze_context_handle_t context, ze_device_handle_t device,
                                           const char *created_by, uint64_t *call,
                                           uint32_t created_thread)
{
    uintptr_t base = (uintptr_t)ptr, span = size, last = base + size - 1;
    /* base + size <= base: size 0, or reaching the top of the address space */
    if (base + size <= base || !allocs_try_lock(call)) {
        if (!*call)
            *call = calls_take_number();
        return add_alloc_any(ptr, size, type, context, device, created_by, *call, created_thread);
    }
    unsigned k = level_of(span), shift = level_shift(k);
    alloc_table_t *t = ALLOC_LOAD(allocs.live.tables[k]);
    if (!t || t->used + 2 > t->grow_at || (created_by && created_by != allocs.last_creator) ||
        (base >> shift) != (last >> shift) || live_holds_either(base, last)) {
        allocs_unlock();
        return add_alloc_any(ptr, size, type, context, device, created_by, *call, created_thread);
    }
    alloc_entry_t e = {.base = base,
                       .span = span,
                       .context = (uintptr_t)context,
                       .device = (uintptr_t)device,
                       .created_call = *call,
                       .threads = created_thread,
                       .meta = (uint32_t)type |
                               (uint64_t)(created_by ? allocs.last_creator_index : 0) << 32};
    uint64_t seq = ALLOC_LOAD(allocs.seq);
    write_begin_at(seq);
    table_put(t, base >> shift, &e);
    uint32_t levels = ALLOC_LOAD(allocs.live.levels);
    if (!(levels & (1u << k))) {
        allocs.live.lo[k] = base;
        allocs.live.hi[k] = last;
        ALLOC_STORE(allocs.live.levels, levels | 1u << k);
    } else {
        if (base < allocs.live.lo[k])
            allocs.live.lo[k] = base;
        if (last > allocs.live.hi[k])
            allocs.live.hi[k] = last;
    }
    write_end_at(seq);
    if (atomic_load_explicit(&allocs.newest_level, memory_order_relaxed) != k)
        atomic_store_explicit(&allocs.newest_level, k, memory_order_relaxed);
    if (alloc_tables_retired.newest)
        return add_alloc_finish();
    allocs_unlock();
    return 0;
}

/* ---- frees ---- */

/* The slot of the live allocation with this base in table t of level k, or
 * -1; one pass at most over a table a writer may be changing. */
static inline USM_INLINE ptrdiff_t live_probe_base(const alloc_table_t *t, unsigned k,
                                                   uintptr_t base)
{
    size_t i = home_slot(t, base >> level_shift(k));
    for (size_t n = 0; n <= t->mask; n++, i = (i + 1) & t->mask) {
        if (!ALLOC_LOAD(t->slots[i].span))
            return -1;
        if (ALLOC_LOAD(t->slots[i].base) == base &&
            !(meta_flags(ALLOC_LOAD(t->slots[i].meta)) & F_SECOND))
            return (ptrdiff_t)i;
    }
    return -1;
}

/* The usual free's burial in place: the freed entry s becomes the tombstone
 * of the same range that already sits in slot tomb (its FIFO place moves to
 * the oldest one, place), writing only what can differ: the free's call and
 * thread, and the allocation's context (f.context, as s holds it), creating
 * call and meta. Inside write_begin. */
typedef struct tomb_free {
    uint64_t call, created_call;
    uintptr_t context;
    uint32_t thread;
} tomb_free_t;
static inline USM_INLINE void tomb_rewrite(alloc_slot_t *tomb, const alloc_slot_t *s, tomb_free_t f,
                                           uint64_t meta, uint32_t place, uintptr_t base,
                                           uintptr_t span)
{
    ALLOC_STORE(tomb->freed_call, f.call);
    allocs.fifo[meta_place(ALLOC_LOAD(tomb->meta))].span = 0;
    allocs.fifo[place].base = base;
    allocs.fifo[place].span = span;
    allocs.fifo_next = (place + 1) % ZEIL_TOMBSTONES;
    ALLOC_STORE(tomb->context, f.context);
    ALLOC_STORE(tomb->device, ALLOC_LOAD(s->device));
    ALLOC_STORE(tomb->created_call, f.created_call);
    ALLOC_STORE(tomb->threads, (ALLOC_LOAD(s->threads) & 0xffffffffu) | (uint64_t)f.thread << 32);
    ALLOC_STORE(tomb->meta, meta_at_place(meta, place));
}

/* The usual free whole, lookup and burial at once: the allocation live at
 * the level of the newest one, in context (when given), the last of its run
 * in one block of its level, found with seqlock reads before the lock (so
 * that the lock's read-modify-write does not hold up the chain of loads),
 * no writer since, and end_free_usual's other conditions. 1 when buried, with
 * what registry_unfree needs in *freeing (base, span, context, creating
 * call: the rest is left unset); 0 with nothing changed otherwise (the free
 * goes registry_begin_free's way). A free without a number that took the
 * lock takes its number with it (*number). */
static inline USM_INLINE int usm_free_usual(const void *ptr, ze_context_handle_t context,
                                            uint64_t *number, uint32_t thread,
                                            registry_free_t *freeing)
{
    uintptr_t base = (uintptr_t)ptr;
    uint64_t seq = ALLOC_LOAD(allocs.seq);
    unsigned k = atomic_load_explicit(&allocs.newest_level, memory_order_relaxed);
    unsigned shift = level_shift(k);
    uintptr_t block = base >> shift, span;
    uint64_t meta;
    alloc_table_t *t = ALLOC_LOAD(allocs.live.tables[k]);
    if ((seq & 1) || !t)
        return 0;
    /* live_probe_base's probes, one pass at most (a writer may be at work) */
    size_t at = home_slot(t, block), d;
    for (size_t n = 0;; n++, at = (at + 1) & t->mask) {
        if (n > t->mask || !(span = ALLOC_LOAD(t->slots[at].span)))
            return 0;
        if (ALLOC_LOAD(t->slots[at].base) == base &&
            !(meta_flags(meta = ALLOC_LOAD(t->slots[at].meta)) & F_SECOND))
            break;
    }
    alloc_slot_t *s = &t->slots[at];
    uintptr_t own = ALLOC_LOAD(s->context);
    alloc_table_t *dead = ALLOC_LOAD(allocs.dead.tables[k]);
    if ((context && (uintptr_t)context != own) || (base + span - 1) >> shift != block ||
        ALLOC_LOAD(t->slots[(at + 1) & t->mask].span) || !dead ||
        (ALLOC_LOAD(allocs.dead.levels) >> (k + 1)) || !allocs_try_lock(number))
        return 0;
    /* Under the lock: what was read holds while the sequence has not moved. */
    uint32_t place = allocs.fifo_next;
    if (ALLOC_LOAD(allocs.seq) != seq || allocs.fifo[place].span)
        goto other;
    for (d = home_slot(dead, block);; d = (d + 1) & dead->mask) {
        /* the tombstone of exactly this range: that range has no second
         * copy, and no other tombstone of the level overlaps it (the newer
         * dropped the older), so the first entry with its base and span is
         * its own; tables are never full, so a run ends */
        uintptr_t dspan = ALLOC_LOAD(dead->slots[d].span);
        if (!dspan)
            goto other;
        if (dspan == span && ALLOC_LOAD(dead->slots[d].base) == base)
            break;
    }
    uint64_t created_call = ALLOC_LOAD(s->created_call);
    freeing->base = base;
    freeing->span = span;
    freeing->context = (ze_context_handle_t)own;
    freeing->created_call = created_call;
    write_begin_at(seq);
    tomb_rewrite(&dead->slots[d], s, (tomb_free_t){*number, created_call, own, thread}, meta, place,
                 base, span);
    /* table_del_at of the last slot of its run */
    ALLOC_STORE(s->span, (uintptr_t)0);
    if (!--t->used)
        ALLOC_STORE(allocs.live.levels, ALLOC_LOAD(allocs.live.levels) & ~(1u << k));
    write_end_at(seq);
    if (t->used < t->shrink_below || alloc_tables_retired.newest)
        return end_free_finish(k);
    allocs_unlock();
    return 1;
other:
    allocs_unlock();
    return 0;
}

#endif
