/*
 * USM allocations: an index from any interior pointer to its allocation in
 * O(1) expected, lock-free for lookups, over the tables of
 * registry_alloc_tables.h (levels, slots, how a lookup probes). Two indexes
 * of the same kind: the live allocations, and the tombstones.
 *
 * Tombstones: the same index over the last ZEIL_TOMBSTONES frees (a FIFO).
 * A new tombstone first drops the older ones it overlaps at its own level
 * and at coarser ones (each of those touches one of the two blocks the new
 * one spans at that level, so a few probes find them all). Older ones at
 * finer levels stay, shadowed: so whenever two tombstones overlap, the
 * coarser is the newer, and the coarsest-first lookup returns the newest
 * covering the pointer, as the sorted array used to. A shadowed tombstone
 * keeps its FIFO place until evicted but is never returned. Live allocations
 * are looked up before tombstones. A new allocation at the base of one zeil
 * still thinks live replaces it (zeil missed its free); other overlaps
 * between live allocations (a missed free at another base, drivers with
 * separate address spaces) are kept and a lookup returns one of them.
 *
 * Concurrency. Writers (an allocation, the burial of a free) take one lock
 * (allocs_lock: the call counter's top bit, taken with the call's number
 * when it has none yet); a free looks its allocation up without it and
 * buries it under it before the driver frees the memory
 * (registry_alloc_frees.c), so a new allocation never meets a live one the
 * driver may have freed. Lookups take no lock and make no
 * read-modify-write: a seqlock. A writer makes the sequence odd,
 * changes slots with release stores, and makes it even again; a reader
 * loads the sequence, probes and copies with acquire loads (so none of them
 * can be ordered after its second load of the sequence, and no fence is
 * needed, which ThreadSanitizer could not follow), and retries when the
 * sequence was odd or moved; a reader that saw half a change drops its
 * copy. All that a reader reads is atomic, so there are no data races. A
 * reader that keeps losing to writers (READ_ATTEMPTS) takes the lock once.
 * The common case, a live allocation and no writer in the way, is a short
 * inline path. What a reader must survive before it compares the sequence:
 * a table being changed or replaced (registry_alloc_tables.h).
 *
 * Costs. Lookup: per level in use one hash and a short scan (tables at most
 * 70% full), in the slot lines only. Add: the new allocation's first and
 * last bytes probed in each level in use whose bounds (alloc_index_t) can
 * hold them (a missed free may have left an allocation of another size at
 * the same base), a few slot writes, no memmove. Free: the level of the
 * newest allocation probed first; a tombstone of the same range (memory
 * freed, given out again at the same address, freed again) gives its slot
 * to the new one.
 */
#include "registry.h"
#include "usm_hot_paths.h"

#include <stddef.h>

/* Writers. */
alloc_index_state_t allocs;

/* Under the lock. */
static uint32_t creator_index_of(const char *name);
static inline uint32_t creator_index(const char *name)
{
    if (!name)
        return 0;
    if (name == allocs.last_creator) /* one creating call after another */
        return allocs.last_creator_index;
    allocs.last_creator = name;
    return allocs.last_creator_index = creator_index_of(name);
}

static uint32_t creator_index_of(const char *name)
{
    for (uint32_t i = 0; i < allocs.creator_count; i++)
        if (ALLOC_LOAD(allocs.creators[i]) == name)
            return i + 1;
    if (allocs.creator_count == ALLOC_CREATORS)
        return 0; /* more distinct calls than ever seen: not named */
    ALLOC_STORE(allocs.creators[allocs.creator_count], name);
    return ++allocs.creator_count;
}

/* In a write section: the tombstone at FIFO place `place` leaves. */
static void drop_tombstone(uint32_t place)
{
    unsigned k = level_of(allocs.fifo[place].span);
    entries_del(&allocs.dead, k, allocs.fifo[place].base, allocs.fifo[place].span, -1);
    allocs.fifo[place].span = 0;
    allocs.dead_shrunk |= 1u << k;
}

/* In a write section: drops the tombstones of the levels in the mask (level
 * k and coarser) that overlap [lo, lo + span), a range of level k or finer.
 * Each touches, at its own level, the block of lo or of the last byte, so
 * their runs hold them. */
void alloc_drop_dead_in_levels(uint32_t levels, uintptr_t lo, uintptr_t span)
{
    uintptr_t hi = lo + span;
    while (levels) {
        unsigned j = (unsigned)__builtin_ctz(levels);
        levels &= levels - 1;
        unsigned shift = level_shift(j);
        uintptr_t blocks[2] = {lo >> shift, (hi - 1) >> shift};
        for (int n = 0; n < (blocks[0] == blocks[1] ? 1 : 2); n++) {
            const alloc_table_t *t = ALLOC_LOAD(allocs.dead.tables[j]);
            size_t i = home_slot(t, blocks[n]);
            uintptr_t s;
            while ((s = ALLOC_LOAD(t->slots[i].span))) {
                uintptr_t base = ALLOC_LOAD(t->slots[i].base);
                if (base < hi && lo < base + s) {
                    drop_tombstone(meta_place(ALLOC_LOAD(t->slots[i].meta)));
                    i = home_slot(t, blocks[n]); /* the run has moved: again */
                } else {
                    i = (i + 1) & t->mask;
                }
            }
        }
    }
}

/* In a write section: no tombstone overlaps [lo, lo + span) any more. Out
 * of memory only (a new allocation zeil could not record must not be
 * called freed), so it may look at every one. */
static void drop_all_dead_overlapping(uintptr_t lo, uintptr_t span)
{
    for (uint32_t place = 0; place < ZEIL_TOMBSTONES; place++) {
        uintptr_t base = allocs.fifo[place].base;
        if (allocs.fifo[place].span && base < lo + span && lo < base + allocs.fifo[place].span)
            drop_tombstone(place);
    }
}

/* Under the lock: whether the live index holds an allocation of this very
 * base among those that hold the first or the last byte of a new
 * allocation (1, with it in *same and its level), or not (0). One probe of
 * the block of each byte at each level in use: every entry holding a byte
 * is filed there under one of its copies. */
static int live_scan(uintptr_t base, uintptr_t last, unsigned *same_level, alloc_entry_t *same)
{
    uint32_t levels = ALLOC_LOAD(allocs.live.levels);
    while (levels) {
        unsigned k = (unsigned)__builtin_ctz(levels);
        levels &= levels - 1;
        const alloc_table_t *t = ALLOC_LOAD(allocs.live.tables[k]);
        unsigned shift = level_shift(k);
        uintptr_t blocks[2] = {base >> shift, last >> shift};
        for (int n = 0; n < (blocks[0] == blocks[1] ? 1 : 2); n++) {
            for (size_t i = home_slot(t, blocks[n]);; i = (i + 1) & t->mask) {
                const alloc_slot_t *slot = &t->slots[i];
                uintptr_t span = ALLOC_LOAD(slot->span);
                if (!span)
                    break; /* tables are never full: a run ends */
                uintptr_t b = ALLOC_LOAD(slot->base);
                if (base - b >= span && last - b >= span)
                    continue; /* holds neither byte */
                if (b == base && !(meta_flags(ALLOC_LOAD(slot->meta)) & F_SECOND)) {
                    slot_load(slot, same);
                    *same_level = k;
                    return 1;
                }
            }
        }
    }
    return 0;
}

/* What registry_add_alloc records, field by field. */
typedef struct new_alloc {
    uintptr_t base, span;
    size_t size;
    ze_memory_type_t type;
    ze_context_handle_t context;
    ze_device_handle_t device;
    const char *created_by;
    uint64_t created_call;
    uint32_t created_thread;
} new_alloc_t;

static inline alloc_entry_t live_entry(const new_alloc_t *n)
{
    unsigned flags = n->size ? 0 : F_ZERO_SIZE;
    return (alloc_entry_t){.base = n->base,
                           .span = n->span,
                           .context = (uintptr_t)n->context,
                           .device = (uintptr_t)n->device,
                           .created_call = n->created_call,
                           .threads = n->created_thread,
                           .meta = (uint32_t)n->type |
                                   (uint64_t)creator_index(n->created_by) << 32 |
                                   (uint64_t)flags << 40};
}

/* Under the lock: registry_add_alloc when the new allocation overlaps a live
 * one, or cannot be stored. */
static __attribute__((noinline)) int add_alloc_overlapping(const new_alloc_t *n, unsigned k)
{
    uintptr_t base = n->base, span = n->span;
    /* A free buries its allocation before the driver frees the memory: a
     * live allocation here is one whose free zeil missed, or another driver's
     * (separate address spaces). */
    alloc_entry_t stale = {0};
    unsigned stale_level = 0;
    uintptr_t last = span ? base + span - 1 : base;
    int missed_free = live_scan(base, last, &stale_level, &stale);
    int stored = span && table_reserve(&allocs.live, k) == 0;
    write_begin();
    /* The driver gave this base again: zeil missed the old one's free, and
     * forgets it (looked up again: table_reserve may have moved it). */
    if (missed_free)
        entries_del(&allocs.live, stale_level, base, stale.span, -1);
    if (stored) {
        alloc_entry_t e = live_entry(n);
        entries_put(&allocs.live, k, &e);
    } else {
        /* A tombstone of this memory would call the new allocation freed
         * and refuse its valid uses. */
        drop_all_dead_overlapping(base, span ? span : 1);
    }
    write_end();
    if (missed_free)
        table_maybe_shrink(&allocs.live, stale_level);
    shrink_dead();
    return stored ? 0 : -1;
}

/* Under the lock: records n, of level k (registry_add_alloc's general
 * case). */
static int add_alloc_locked(const new_alloc_t *n, unsigned k)
{
    if (n->span && !live_holds_either(n->base, n->base + n->span - 1) &&
        table_reserve(&allocs.live, k) == 0) {
        alloc_entry_t e = live_entry(n);
        write_begin();
        entries_put(&allocs.live, k, &e);
        write_end();
        return 0;
    }
    return add_alloc_overlapping(n, k);
}

/* registry_add_alloc_fields, any case. */
__attribute__((noinline)) int add_alloc_any(const void *ptr, size_t size, ze_memory_type_t type,
                                            ze_context_handle_t context, ze_device_handle_t device,
                                            const char *created_by, uint64_t created_call,
                                            uint32_t created_thread)
{
    uintptr_t base = (uintptr_t)ptr;
    uintptr_t span = size ? size : 1;
    if (span > UINTPTR_MAX - base)
        span = UINTPTR_MAX - base; /* cut at the top of the address space */
    unsigned k = level_of(span);
    allocs_lock();
    int r = add_alloc_locked(&(new_alloc_t){base, span, size, type, context, device, created_by,
                                            created_call, created_thread},
                             k);
    if (atomic_load_explicit(&allocs.newest_level, memory_order_relaxed) != k)
        atomic_store_explicit(&allocs.newest_level, k, memory_order_relaxed);
    after_write();
    allocs_unlock();
    return r;
}

/* Under the lock: the FIFO place of the tombstone of allocation
 * (base, created_call) at level k, its first copy in *e, or -1. */
static int64_t tomb_of_alloc(uintptr_t base, uint64_t created_call, unsigned k, alloc_entry_t *e)
{
    const alloc_table_t *t = k < ALLOC_LEVELS ? ALLOC_LOAD(allocs.dead.tables[k]) : NULL;
    if (!t)
        return -1;
    ptrdiff_t i = table_find(t, base >> level_shift(k), base, 0);
    if (i < 0)
        return -1;
    slot_load(&t->slots[i], e);
    return e->created_call == created_call ? (int64_t)meta_place(e->meta) : -1;
}

int registry_unfree(const registry_free_t *freeing)
{
    uintptr_t span = freeing->span ? freeing->span : 1;
    unsigned k = level_of(span);
    alloc_entry_t e;
    allocs_lock();
    int64_t place = tomb_of_alloc(freeing->base, freeing->created_call, k, &e);
    new_alloc_t n = {.base = freeing->base,
                     .span = span,
                     .size = span,
                     .type = ZE_MEMORY_TYPE_UNKNOWN,
                     .context = freeing->context,
                     .created_call = freeing->created_call};
    if (place >= 0) { /* all of it, as it was */
        uint32_t creator = (uint32_t)(e.meta >> 32) & 0xffu;
        n.size = (meta_flags(e.meta) & F_ZERO_SIZE) ? 0 : e.span;
        n.type = (ze_memory_type_t)(uint32_t)e.meta;
        n.context = (ze_context_handle_t)e.context;
        n.device = (ze_device_handle_t)e.device;
        n.created_by = creator ? ALLOC_LOAD(allocs.creators[creator - 1]) : NULL;
        n.created_thread = (uint32_t)e.threads;
    }
    /* Live first, then the tombstone leaves: a lookup in between finds the
     * live allocation, which lookups prefer. */
    int r = add_alloc_locked(&n, k);
    if (place >= 0 && allocs.fifo[place].span && allocs.fifo[place].base == freeing->base) {
        write_begin();
        drop_tombstone((uint32_t)place);
        write_end();
        shrink_dead();
    }
    after_write();
    allocs_unlock();
    return r;
}

/* Under the lock, after the usual allocation: what every write ends with. */
__attribute__((noinline)) int add_alloc_finish(void)
{
    after_write();
    allocs_unlock();
    return 0;
}

/* usm_hot_paths.h's, for every caller but the allocation hooks. */
int registry_add_alloc_fields(const void *ptr, size_t size, ze_memory_type_t type,
                              ze_context_handle_t context, ze_device_handle_t device,
                              const char *created_by, uint64_t created_call,
                              uint32_t created_thread)
{
    return usm_add_alloc(ptr, size, type, context, device, created_by, &created_call,
                         created_thread);
}

int registry_add_alloc(const zeil_alloc_t *proto)
{
    return registry_add_alloc_fields(proto->base, proto->size, proto->type, proto->context,
                                     proto->device, proto->created_by, proto->created_call,
                                     proto->created_thread);
}

/* alloc_bury's general case: no tombstone of e's range and level yet, or e spans
 * two blocks of its level. i: the slot of the tombstone of e's base at
 * level k, or -1. */
static __attribute__((noinline)) void bury_other(alloc_entry_t *e, unsigned k, ptrdiff_t i)
{
    alloc_table_t *t = ALLOC_LOAD(allocs.dead.tables[k]);
    if (i < 0 || ALLOC_LOAD(t->slots[i].span) != e->span) {
        /* Older tombstones it overlaps are wrong about this memory now. */
        drop_dead_overlapping(k, e->base, e->span);
        entries_put(&allocs.dead, k, e);
        return;
    }
    /* One of the same range: no other of its level can overlap it (either
     * would have dropped the other), coarser ones may. */
    drop_dead_overlapping(k + 1, e->base, e->span);
    allocs.fifo[meta_place(ALLOC_LOAD(t->slots[i].meta))].span = 0;
    slot_store(&t->slots[i], e);
    unsigned shift = level_shift(k);
    uintptr_t first = e->base >> shift, last = (e->base + e->span - 1) >> shift;
    if (last != first && (i = table_find(t, last, e->base, F_SECOND)) >= 0) {
        alloc_entry_t second = *e;
        second.meta = meta_with(e->meta, meta_flags(e->meta) | F_SECOND, meta_place(e->meta));
        slot_store(&t->slots[i], &second);
    }
}

/* In a write section, after table_reserve(&allocs.dead, k): e becomes the
 * newest tombstone and takes the next FIFO place. Memory given out and freed
 * again at the same address is the common case: a tombstone of the same
 * range, in one block, then gives its slot to the new one, and only the
 * fields that can differ are written (the lines touched: the FIFO's two
 * places, the dead table's slot). */
void alloc_bury(alloc_entry_t *e, unsigned k)
{
    uint32_t place = allocs.fifo_next;
    if (allocs.fifo[place].span)
        drop_tombstone(place);
    allocs.fifo[place].base = e->base;
    allocs.fifo[place].span = e->span;
    allocs.fifo_next = (place + 1) % ZEIL_TOMBSTONES;
    e->meta = meta_at_place(e->meta, place);
    alloc_table_t *t = ALLOC_LOAD(allocs.dead.tables[k]);
    unsigned shift = level_shift(k);
    uintptr_t first = e->base >> shift;
    ptrdiff_t i = table_find(t, first, e->base, 0);
    if (i < 0 || ((e->base + e->span - 1) >> shift) != first) {
        bury_other(e, k, i);
        return;
    }
    alloc_slot_t *s = &t->slots[i];
    if (ALLOC_LOAD(s->span) != e->span) {
        bury_other(e, k, i);
        return;
    }
    /* One of the same range (see bury_other). */
    uint32_t coarser = ALLOC_LOAD(allocs.dead.levels) >> (k + 1) << (k + 1);
    if (coarser)
        alloc_drop_dead_in_levels(coarser, e->base, e->span);
    allocs.fifo[meta_place(ALLOC_LOAD(s->meta))].span = 0;
    slot_store_fields(s, e);
}
