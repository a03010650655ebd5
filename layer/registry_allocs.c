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
 * (spin_lock.h); the beginning of a free, before the driver frees, only
 * reads the index and notes the free in its thread's entry of the frees
 * under way (inflight, below). Lookups take no lock and make no
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
#include "registry_alloc_index.h"

#include <stddef.h>

/* Writers. */
spin_lock_t allocs_lock;
alloc_index_state_t allocs;

/*
 * Frees on their way to the driver, one per thread (a thread makes one call
 * at a time), by zeil's thread number. registry_begin_free fills its
 * thread's entry without the lock (no read-modify-write: the free's only
 * ones are its call number and registry_end_free's lock); registry_add_alloc
 * reads the entries under the lock when the new allocation overlaps a live
 * one: the driver may have given out memory whose free has not come back
 * yet. The entry is stable while the lock is held: its thread can only fill
 * it anew after its registry_end_free, which empties it under the lock.
 * Threads numbered INFLIGHT_THREADS or above leave no entry: their frees,
 * in that race, leave no tombstone (the new allocation takes the old one
 * for a missed free).
 */
#define INFLIGHT_THREADS 1024u
typedef struct inflight_free {
    _Alignas(32) _Atomic uintptr_t base; /* 0: none; stored last (release) */
    _Atomic uint64_t created_call;  /* which allocation of that base */
    _Atomic uint64_t call;
} inflight_free_t;
static inflight_free_t inflight[INFLIGHT_THREADS];
static _Atomic uint32_t inflight_end; /* above every thread that filled its entry */

/* inflight_end above thread (a thread's first free). */
static __attribute__((noinline)) void inflight_end_raise(uint32_t thread)
{
    uint32_t end = atomic_load_explicit(&inflight_end, memory_order_relaxed);
    while (end <= thread &&
           !atomic_compare_exchange_weak_explicit(&inflight_end, &end, thread + 1,
                                                  memory_order_release, memory_order_relaxed))
        ;
}

/* Under the lock: the free under way of the allocation (base, created_call):
 * 1 with its call and thread, or 0. */
static int inflight_find(uintptr_t base, uint64_t created_call, uint64_t *call, uint32_t *thread)
{
    uint32_t end = atomic_load_explicit(&inflight_end, memory_order_acquire);
    for (uint32_t t = 0; t < end; t++)
        if (LOAD(inflight[t].base) == base && LOAD(inflight[t].created_call) == created_call) {
            *call = LOAD(inflight[t].call);
            *thread = t;
            return 1;
        }
    return 0;
}

/* Under the lock: the slot of the live allocation with this base (its
 * first copy), or -1. */
static ptrdiff_t live_with_base(uintptr_t base, unsigned *level, entry_t *e)
{
    uint32_t levels = LOAD(allocs.live.levels);
    while (levels) {
        unsigned k = 31 - (unsigned)__builtin_clz(levels);
        levels &= ~(1u << k);
        const table_t *t = LOAD(allocs.live.tables[k]);
        ptrdiff_t i = table_find(t, base >> level_shift(k), base, 0);
        if (i >= 0) {
            slot_load(&t->slots[i], e);
            *level = k;
            return i;
        }
    }
    return -1;
}

/* ---- writers ---- */

static void write_begin(void)
{
    uint64_t s = LOAD(allocs.seq);
    atomic_store_explicit(&allocs.seq, s + 1, memory_order_relaxed);
    /* The stores that follow are releases: none is seen before this one. */
}

static void write_end(void)
{
    STORE(allocs.seq, LOAD(allocs.seq) + 1);
}

/* Out of any write section. */
static void shrink_dead(void)
{
    while (allocs.dead_shrunk) {
        unsigned k = (unsigned)__builtin_ctz(allocs.dead_shrunk);
        allocs.dead_shrunk &= allocs.dead_shrunk - 1;
        table_maybe_shrink(&allocs.dead, k);
    }
}

static void after_write(void)
{
    alloc_tables_after_write();
}

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
        if (LOAD(allocs.creators[i]) == name)
            return i + 1;
    if (allocs.creator_count == CREATORS)
        return 0; /* more distinct calls than ever seen: not named */
    STORE(allocs.creators[allocs.creator_count], name);
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
static void drop_dead_in_levels(uint32_t levels, uintptr_t lo, uintptr_t span)
{
    uintptr_t hi = lo + span;
    while (levels) {
        unsigned j = (unsigned)__builtin_ctz(levels);
        levels &= levels - 1;
        unsigned shift = level_shift(j);
        uintptr_t blocks[2] = {lo >> shift, (hi - 1) >> shift};
        for (int n = 0; n < (blocks[0] == blocks[1] ? 1 : 2); n++) {
            const table_t *t = LOAD(allocs.dead.tables[j]);
            size_t i = home_slot(t, blocks[n]);
            uintptr_t s;
            while ((s = LOAD(t->slots[i].span))) {
                uintptr_t base = LOAD(t->slots[i].base);
                if (base < hi && lo < base + s) {
                    drop_tombstone(meta_place(LOAD(t->slots[i].meta)));
                    i = home_slot(t, blocks[n]); /* the run has moved: again */
                } else {
                    i = (i + 1) & t->mask;
                }
            }
        }
    }
}

static inline void drop_dead_overlapping(unsigned k, uintptr_t lo, uintptr_t span)
{
    uint32_t levels = k < 32 ? LOAD(allocs.dead.levels) >> k << k : 0;
    if (levels) /* none, for the usual free: no coarser tombstones */
        drop_dead_in_levels(levels, lo, span);
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

/* In a write section, after table_reserve(&allocs.dead, k). */
static inline void bury(entry_t *e, unsigned k);

#define SCAN_FREEING 1u
#define SCAN_SAME_BASE 2u

/* Under the lock: what the live index holds of the first and the last byte
 * of a new allocation: SCAN_FREEING with *freeing, a live allocation whose
 * free is under way (inflight_find) that holds either, its free's call and
 * thread set, and SCAN_SAME_BASE with *same (and its level), the live
 * allocation of this very base. One probe of the block of each byte at each
 * level in use: every entry holding a byte is filed there under one of its
 * copies. */
static unsigned live_scan(uintptr_t base, uintptr_t last, entry_t *freeing, unsigned *same_level,
                          entry_t *same)
{
    unsigned found = 0;
    uint32_t levels = LOAD(allocs.live.levels);
    while (levels) {
        unsigned k = (unsigned)__builtin_ctz(levels);
        levels &= levels - 1;
        const table_t *t = LOAD(allocs.live.tables[k]);
        unsigned shift = level_shift(k);
        uintptr_t blocks[2] = {base >> shift, last >> shift};
        for (int n = 0; n < (blocks[0] == blocks[1] ? 1 : 2); n++) {
            for (size_t i = home_slot(t, blocks[n]);; i = (i + 1) & t->mask) {
                const slot_t *slot = &t->slots[i];
                uintptr_t span = LOAD(slot->span);
                if (!span)
                    break; /* tables are never full: a run ends */
                uintptr_t b = LOAD(slot->base);
                if (base - b >= span && last - b >= span)
                    continue; /* holds neither byte */
                entry_t e;
                slot_load(slot, &e);
                unsigned flags = meta_flags(e.meta);
                if (b == base && !(flags & F_SECOND) && !(found & SCAN_SAME_BASE)) {
                    *same = e;
                    *same_level = k;
                    found |= SCAN_SAME_BASE;
                }
                uint64_t call;
                uint32_t thread;
                if (!(found & SCAN_FREEING) && inflight_find(b, e.created_call, &call, &thread)) {
                    /* bury the allocation, not the copy, in its free's name */
                    e.meta = meta_with(e.meta, flags & ~F_SECOND, 0);
                    e.freed_call = call;
                    e.threads = (e.threads & 0xffffffffu) | (uint64_t)thread << 32;
                    *freeing = e;
                    found |= SCAN_FREEING;
                }
            }
        }
    }
    return found;
}

/* Under the lock: whether a live entry holds the first or the last byte of
 * [base, last] (live_scan then says what to do about it): the same probes
 * as live_scan's, and for the usual new allocation, no overlap, an empty
 * slot or two per level in use. */
static inline int run_holds_either(const table_t *t, uintptr_t block, uintptr_t base,
                                   uintptr_t last)
{
    for (size_t i = home_slot(t, block);; i = (i + 1) & t->mask) {
        uintptr_t span = LOAD(t->slots[i].span);
        if (!span)
            return 0; /* tables are never full: a run ends */
        uintptr_t b = LOAD(t->slots[i].base);
        if (base - b < span || last - b < span)
            return 1;
    }
}

static inline int live_holds_either(uintptr_t base, uintptr_t last)
{
    uint32_t levels = LOAD(allocs.live.levels);
    while (levels) {
        unsigned k = (unsigned)__builtin_ctz(levels);
        levels &= levels - 1;
        if (last < allocs.live.lo[k] || base > allocs.live.hi[k])
            continue;
        const table_t *t = LOAD(allocs.live.tables[k]);
        unsigned shift = level_shift(k);
        uintptr_t first = base >> shift, second = last >> shift;
        if (run_holds_either(t, first, base, last) ||
            (second != first && run_holds_either(t, second, base, last)))
            return 1;
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

static inline entry_t live_entry(const new_alloc_t *n)
{
    unsigned flags = n->size ? 0 : F_ZERO_SIZE;
    return (entry_t){.base = n->base,
                     .span = n->span,
                     .context = (uintptr_t)n->context,
                     .device = (uintptr_t)n->device,
                     .created_call = n->created_call,
                     .threads = n->created_thread,
                     .meta = (uint32_t)n->type | (uint64_t)creator_index(n->created_by) << 32 |
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
    entry_t old, stale = {0};
    unsigned stale_level = 0, found;
    uintptr_t last = span ? base + span - 1 : base;
    while ((found = live_scan(base, last, &old, &stale_level, &stale)) & SCAN_FREEING) {
        unsigned old_level = level_of(old.span);
        int kept = table_reserve(&allocs.dead, old_level) == 0;
        write_begin();
        entries_del(&allocs.live, old_level, old.base, old.span, -1);
        if (kept)
            bury(&old, old_level);
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
        entry_t e = live_entry(n);
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

int registry_add_alloc_fields(const void *ptr, size_t size, ze_memory_type_t type,
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
    spin_lock(&allocs_lock);
    if (span && !live_holds_either(base, base + span - 1) &&
        table_reserve(&allocs.live, k) == 0) {
        entry_t e = live_entry(&(new_alloc_t){base, span, size, type, context, device,
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
    spin_unlock(&allocs_lock);
    return r;
}

int registry_add_alloc(const zeil_alloc_t *proto)
{
    return registry_add_alloc_fields(proto->base, proto->size, proto->type, proto->context,
                                     proto->device, proto->created_by, proto->created_call,
                                     proto->created_thread);
}

/* bury's general case: no tombstone of e's range and level yet, or e spans
 * two blocks of its level. i: the slot of the tombstone of e's base at
 * level k, or -1. */
static __attribute__((noinline)) void bury_other(entry_t *e, unsigned k, ptrdiff_t i)
{
    table_t *t = LOAD(allocs.dead.tables[k]);
    if (i < 0 || LOAD(t->slots[i].span) != e->span) {
        /* Older tombstones it overlaps are wrong about this memory now. */
        drop_dead_overlapping(k, e->base, e->span);
        entries_put(&allocs.dead, k, e);
        return;
    }
    /* One of the same range: no other of its level can overlap it (either
     * would have dropped the other), coarser ones may. */
    drop_dead_overlapping(k + 1, e->base, e->span);
    allocs.fifo[meta_place(LOAD(t->slots[i].meta))].span = 0;
    slot_store(&t->slots[i], e);
    unsigned shift = level_shift(k);
    uintptr_t first = e->base >> shift, last = (e->base + e->span - 1) >> shift;
    if (last != first && (i = table_find(t, last, e->base, F_SECOND)) >= 0) {
        entry_t second = *e;
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
static inline void bury(entry_t *e, unsigned k)
{
    uint32_t place = allocs.fifo_next;
    if (allocs.fifo[place].span)
        drop_tombstone(place);
    allocs.fifo[place].base = e->base;
    allocs.fifo[place].span = e->span;
    allocs.fifo_next = (place + 1) % ZEIL_TOMBSTONES;
    e->meta = meta_at_place(e->meta, place);
    table_t *t = LOAD(allocs.dead.tables[k]);
    unsigned shift = level_shift(k);
    uintptr_t first = e->base >> shift;
    ptrdiff_t i = table_find(t, first, e->base, 0);
    if (i < 0 || ((e->base + e->span - 1) >> shift) != first) {
        bury_other(e, k, i);
        return;
    }
    slot_t *s = &t->slots[i];
    if (LOAD(s->span) != e->span) {
        bury_other(e, k, i);
        return;
    }
    /* One of the same range (see bury_other). */
    uint32_t coarser = LOAD(allocs.dead.levels) >> (k + 1) << (k + 1);
    if (coarser)
        drop_dead_in_levels(coarser, e->base, e->span);
    allocs.fifo[meta_place(LOAD(s->meta))].span = 0;
    STORE(s->context, e->context);
    STORE(s->device, e->device);
    STORE(s->created_call, e->created_call);
    STORE(s->freed_call, e->freed_call);
    STORE(s->threads, e->threads);
    STORE(s->meta, e->meta);
}

/* The slot of the live allocation with this base in table t of level k, or
 * -1; one pass at most over a table a writer may be changing. */
static inline ptrdiff_t live_probe_base(const table_t *t, unsigned k, uintptr_t base)
{
    size_t i = home_slot(t, base >> level_shift(k));
    for (size_t n = 0; n <= t->mask; n++, i = (i + 1) & t->mask) {
        if (!LOAD(t->slots[i].span))
            return -1;
        if (LOAD(t->slots[i].base) == base && !(meta_flags(LOAD(t->slots[i].meta)) & F_SECOND))
            return (ptrdiff_t)i;
    }
    return -1;
}

/* The live allocation of this base, without the lock (seqlock reads, as
 * lookups make them): the slot of its first copy (its creating call and
 * context in *f, level in f->level, table in f->table), or -1. The level of
 * the newest allocation first: a program frees what it allocated, mostly
 * of the sizes it allocates most. */
static __attribute__((noinline)) ptrdiff_t live_with_base_read(uintptr_t base,
                                                               registry_free_t *f)
{
    for (unsigned attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
        uint64_t s = LOAD(allocs.seq);
        if (s & 1) {
            cpu_relax();
            continue;
        }
        ptrdiff_t at = -1;
        const table_t *t = NULL;
        uint32_t levels = LOAD(allocs.live.levels);
        unsigned level = atomic_load_explicit(&allocs.newest_level, memory_order_relaxed);
        if (!(levels & (1u << level)))
            level = levels ? 31 - (unsigned)__builtin_clz(levels) : 0;
        while (levels) {
            levels &= ~(1u << level);
            t = LOAD(allocs.live.tables[level]);
            if (t && (at = live_probe_base(t, level, base)) >= 0)
                break;
            level = levels ? 31 - (unsigned)__builtin_clz(levels) : 0;
        }
        if (at >= 0) {
            f->created_call = LOAD(t->slots[at].created_call);
            f->context = (ze_context_handle_t)LOAD(t->slots[at].context);
        }
        if (LOAD(allocs.seq) == s) {
            f->level = level;
            f->table = t;
            return at;
        }
    }
    /* Writers kept changing the index: wait for them once. */
    spin_lock(&allocs_lock);
    unsigned k = 0;
    entry_t e = {0};
    ptrdiff_t at = live_with_base(base, &k, &e);
    f->created_call = e.created_call;
    f->context = (ze_context_handle_t)e.context;
    f->level = k;
    f->table = at >= 0 ? LOAD(allocs.live.tables[k]) : NULL;
    spin_unlock(&allocs_lock);
    return at;
}

/* live_with_base_read's usual case, inline: no writer in the way, and the
 * allocation at the level of the newest one. -1 when that does not hold. */
static inline ptrdiff_t live_with_base_at_newest_level(uintptr_t base, registry_free_t *f)
{
    uint64_t s = LOAD(allocs.seq);
    unsigned level = atomic_load_explicit(&allocs.newest_level, memory_order_relaxed);
    const table_t *t = LOAD(allocs.live.tables[level]);
    if ((s & 1) || !t)
        return -1;
    ptrdiff_t at = live_probe_base(t, level, base);
    if (at < 0)
        return -1;
    f->created_call = LOAD(t->slots[at].created_call);
    f->context = (ze_context_handle_t)LOAD(t->slots[at].context);
    if (LOAD(allocs.seq) != s)
        return -1;
    f->level = level;
    f->table = t;
    return at;
}

int registry_begin_free(const void *ptr, uint64_t call, uint32_t thread,
                        registry_free_t *freeing)
{
    uintptr_t base = (uintptr_t)ptr;
    ptrdiff_t at = live_with_base_at_newest_level(base, freeing);
    if (at < 0 && (at = live_with_base_read(base, freeing)) < 0)
        return 0;
    freeing->base = base;
    freeing->call = call;
    freeing->thread = thread;
    freeing->slot = (size_t)at;
    if (thread < INFLIGHT_THREADS) {
        inflight_free_t *f = &inflight[thread];
        STORE(f->created_call, freeing->created_call);
        STORE(f->call, call);
        STORE(f->base, base); /* last: a reader that sees it sees the rest */
        if (atomic_load_explicit(&inflight_end, memory_order_relaxed) <= thread)
            inflight_end_raise(thread);
    }
    return 1;
}

/* Under the lock: the slot of the allocation the free began with, still
 * live (its entry in *e, its level in *k), or -1. Where begin found it,
 * unless the table was replaced or its entries moved since. */
static inline ptrdiff_t freeing_slot(const registry_free_t *freeing, unsigned *k, entry_t *e)
{
    const table_t *t = LOAD(allocs.live.tables[freeing->level]);
    /* The same address may be a newer table by now (the old one freed after
     * its grace period, its memory mapped again): within bounds, the slot's
     * contents decide. */
    if (t && t == freeing->table && freeing->slot <= t->mask) {
        const slot_t *s = &t->slots[freeing->slot];
        e->span = LOAD(s->span);
        e->base = LOAD(s->base);
        e->created_call = LOAD(s->created_call);
        e->meta = LOAD(s->meta);
        if (e->span && e->base == freeing->base && !(meta_flags(e->meta) & F_SECOND) &&
            e->created_call == freeing->created_call) {
            e->context = LOAD(s->context);
            e->device = LOAD(s->device);
            e->threads = LOAD(s->threads);
            *k = freeing->level;
            return (ptrdiff_t)freeing->slot;
        }
    }
    ptrdiff_t at = live_with_base(freeing->base, k, e);
    return at >= 0 && e->created_call == freeing->created_call ? at : -1;
}

/* Under the lock: the end of a free, any case (end_free_usual did not
 * hold). */
static __attribute__((noinline)) int end_free_other(const registry_free_t *freeing,
                                                    int driver_freed)
{
    unsigned k = 0;
    entry_t e;
    ptrdiff_t at = driver_freed ? freeing_slot(freeing, &k, &e) : -1;
    /* Refused by the driver, it stays live. Not the allocation this free
     * began with: a new allocation at the same base already buried it
     * (registry_add_alloc), or a racing free of the same pointer (the
     * program's double free) did. */
    if (at < 0)
        return 1;
    /* The tombstone names the free the driver accepted. */
    e.freed_call = freeing->call;
    e.threads = (e.threads & 0xffffffffu) | (uint64_t)freeing->thread << 32;
    int kept = table_reserve(&allocs.dead, k) == 0;
    write_begin();
    /* table_reserve of the dead index leaves the live tables alone: at holds. */
    entries_del(&allocs.live, k, freeing->base, e.span, at);
    if (kept)
        bury(&e, k);
    else /* no tombstone, but none older that says otherwise either */
        drop_dead_overlapping(k, freeing->base, e.span);
    write_end();
    table_maybe_shrink(&allocs.live, k);
    shrink_dead();
    return kept ? 1 : 2;
}

/* Under the lock: the usual end of a free the driver accepted, as
 * end_free_other would make it, when the allocation is still where begin
 * found it, in one block of its level, and its tombstone has room. 1 when
 * done; 0 with nothing changed otherwise. */
static inline int end_free_usual(const registry_free_t *freeing)
{
    unsigned k = freeing->level;
    table_t *t = LOAD(allocs.live.tables[k]);
    if (!t || t != freeing->table || freeing->slot > t->mask)
        return 0;
    const slot_t *s = &t->slots[freeing->slot];
    uintptr_t base = freeing->base, span = LOAD(s->span);
    uint64_t meta = LOAD(s->meta);
    unsigned shift = level_shift(k);
    if (LOAD(s->base) != base || LOAD(s->created_call) != freeing->created_call || !span ||
        (meta_flags(meta) & F_SECOND) || (base + span - 1) >> shift != base >> shift)
        return 0;
    table_t *dead = LOAD(allocs.dead.tables[k]);
    /* The usual of the usual, bury's way without its copy of the entry: the
     * oldest FIFO place free, a tombstone of this very range that no coarser
     * one overlaps (its slot is reused: no room needed). The live slot is
     * read before table_del_at moves it. */
    uint32_t place = allocs.fifo_next;
    ptrdiff_t d;
    if (dead && !allocs.fifo[place].span && !(LOAD(allocs.dead.levels) >> (k + 1)) &&
        (d = table_find(dead, base >> shift, base, 0)) >= 0 && LOAD(dead->slots[d].span) == span) {
        slot_t *tomb = &dead->slots[d];
        write_begin();
        allocs.fifo[meta_place(LOAD(tomb->meta))].span = 0;
        allocs.fifo[place].base = base;
        allocs.fifo[place].span = span;
        allocs.fifo_next = (place + 1) % ZEIL_TOMBSTONES;
        STORE(tomb->context, LOAD(s->context));
        STORE(tomb->device, LOAD(s->device));
        STORE(tomb->created_call, freeing->created_call);
        STORE(tomb->freed_call, freeing->call);
        STORE(tomb->threads,
              (LOAD(s->threads) & 0xffffffffu) | (uint64_t)freeing->thread << 32);
        STORE(tomb->meta, meta_at_place(meta, place));
        table_del_at(t, shift, freeing->slot);
        if (!t->used)
            STORE(allocs.live.levels, LOAD(allocs.live.levels) & ~(1u << k));
        write_end();
        table_maybe_shrink(&allocs.live, k);
        return 1;
    }
    if (!dead || dead->used + 2 > dead->grow_at) /* table_reserve would replace it */
        return 0;
    entry_t e = {.base = base,
                 .span = span,
                 .context = LOAD(s->context),
                 .device = LOAD(s->device),
                 .created_call = freeing->created_call,
                 .freed_call = freeing->call,
                 .threads = (LOAD(s->threads) & 0xffffffffu) | (uint64_t)freeing->thread << 32,
                 .meta = meta};
    write_begin();
    table_del_at(t, shift, freeing->slot);
    if (!t->used)
        STORE(allocs.live.levels, LOAD(allocs.live.levels) & ~(1u << k));
    bury(&e, k);
    write_end();
    table_maybe_shrink(&allocs.live, k);
    shrink_dead();
    return 1;
}

int registry_end_free(const registry_free_t *freeing, int driver_freed)
{
    spin_lock(&allocs_lock);
    if (freeing->thread < INFLIGHT_THREADS &&
        LOAD(inflight[freeing->thread].base) == freeing->base)
        STORE(inflight[freeing->thread].base, (uintptr_t)0);
    int r = driver_freed && end_free_usual(freeing) ? 1 : end_free_other(freeing, driver_freed);
    after_write();
    spin_unlock(&allocs_lock);
    return r;
}

int registry_free_alloc(const void *ptr, uint64_t call, uint32_t thread)
{
    registry_free_t freeing;
    if (!registry_begin_free(ptr, call, thread, &freeing))
        return 0;
    return registry_end_free(&freeing, 1);
}
