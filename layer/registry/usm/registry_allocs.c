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
 * Concurrency. Writers (an allocation, the end of a free) take one lock
 * (allocs_lock: the call counter's top bit, taken with the call's number
 * when it has none yet); the beginning of a free, before the driver frees, only
 * reads the index and notes the free in its thread's entry of the frees
 * under way (inflight, registry_alloc_frees.c). Lookups take no lock and make no
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

#define SCAN_FREEING 1u
#define SCAN_SAME_BASE 2u

/* Under the lock: what the live index holds of the first and the last byte
 * of a new allocation: SCAN_FREEING with *freeing, a live allocation whose
 * free is under way (alloc_inflight_find) that holds either, its free's call and
 * thread set, and SCAN_SAME_BASE with *same (and its level), the live
 * allocation of this very base. One probe of the block of each byte at each
 * level in use: every entry holding a byte is filed there under one of its
 * copies. */
static unsigned live_scan(uintptr_t base, uintptr_t last, alloc_entry_t *freeing,
                          unsigned *same_level, alloc_entry_t *same)
{
    unsigned found = 0;
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
                alloc_entry_t e;
                slot_load(slot, &e);
                unsigned flags = meta_flags(e.meta);
                if (b == base && !(flags & F_SECOND) && !(found & SCAN_SAME_BASE)) {
                    *same = e;
                    *same_level = k;
                    found |= SCAN_SAME_BASE;
                }
                uint64_t call;
                uint32_t thread;
                if (!(found & SCAN_FREEING) &&
                    alloc_inflight_find(b, e.created_call, &call, &thread)) {
                    /* alloc_bury the allocation, not the copy, in its free's name;
                     * a free that has no number yet (it takes it with the lock,
                     * at its end) gets one now, of a moment it was under way */
                    e.meta = meta_with(e.meta, flags & ~F_SECOND, 0);
                    e.freed_call = call ? call : calls_take_number();
                    e.threads = (e.threads & 0xffffffffu) | (uint64_t)thread << 32;
                    *freeing = e;
                    found |= SCAN_FREEING;
                }
            }
        }
    }
    return found;
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
    /* Memory of an allocation being freed on another thread: the driver
     * freed it and gave it out again before that free came back. The old
     * allocation gets its tombstone here, in its free's name
     * (registry_end_free then finds nothing left to do); left live, it would
     * shadow the new one and be taken for it. */
    alloc_entry_t old, stale = {0};
    unsigned stale_level = 0, found;
    uintptr_t last = span ? base + span - 1 : base;
    while ((found = live_scan(base, last, &old, &stale_level, &stale)) & SCAN_FREEING) {
        unsigned old_level = level_of(old.span);
        int kept = table_reserve(&allocs.dead, old_level) == 0;
        write_begin();
        entries_del(&allocs.live, old_level, old.base, old.span, -1);
        if (kept)
            alloc_bury(&old, old_level);
        else
            drop_dead_overlapping(old_level, old.base, old.span);
        write_end();
        table_maybe_shrink(&allocs.live, old_level);
    }
    int missed_free = (found & SCAN_SAME_BASE) != 0;
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
    int r = 0;
    allocs_lock();
    if (span && !live_holds_either(base, base + span - 1) && table_reserve(&allocs.live, k) == 0) {
        alloc_entry_t e = live_entry(&(new_alloc_t){base, span, size, type, context, device,
                                                    created_by, created_call, created_thread});
        write_begin();
        entries_put(&allocs.live, k, &e);
        write_end();
    } else {
        r = add_alloc_overlapping(&(new_alloc_t){base, span, size, type, context, device,
                                                 created_by, created_call, created_thread},
                                  k);
    }
    if (atomic_load_explicit(&allocs.newest_level, memory_order_relaxed) != k)
        atomic_store_explicit(&allocs.newest_level, k, memory_order_relaxed);
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
