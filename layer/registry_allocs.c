/*
 * USM allocations: a uthash on the base address plus an array of the live
 * allocations sorted by base, so that any interior pointer is found by binary
 * search in O(log n). Freed allocations leave tombstones (a bounded FIFO) in a
 * second sorted array kept free of overlaps: a newer tombstone replaces the
 * older ones it covers, so one binary search finds the newest.
 *
 * One rwlock: lookups (copies, fills, kernel arguments) only read. The hash
 * uses the registry's cheap handle hash, and records of evicted tombstones
 * are kept for the next allocation (a 4 KiB alloc + free pair used to cost a
 * calloc and a free of its own, more than the rest of the bookkeeping).
 */
#include "registry.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* bases[i] == items[i]->base, kept beside the items so that a binary search
 * reads one dense array (a miss per probe less than reading through items:
 * at a million allocations that halves the lookup). */
typedef struct sorted {
    zeil_alloc_t **items;
    uintptr_t *bases;
    size_t count, capacity;
} sorted_t;

static pthread_rwlock_t allocs_lock = PTHREAD_RWLOCK_INITIALIZER;
static zeil_alloc_t *allocs_by_base;
static sorted_t live, freed;
static struct {
    zeil_alloc_t *slots[ZEIL_TOMBSTONES];
    uint32_t next;
} freed_fifo;
/* Records no index refers to any more (dropped tombstones, missed frees),
 * linked through hh.next and reused before any new calloc: never more than
 * the most records that were ever in use at once. */
static zeil_alloc_t *spare;

/* Under the write lock. Null when out of memory. */
static zeil_alloc_t *record_new(void)
{
    zeil_alloc_t *a = spare;
    if (!a)
        return calloc(1, sizeof *a);
    spare = a->hh.next;
    return a;
}

/* Under the write lock. */
static void record_drop(zeil_alloc_t *a)
{
    a->hh.next = spare;
    spare = a;
}

/* Index of the first item whose base is > ptr. */
static size_t upper_bound(const sorted_t *s, uintptr_t ptr)
{
    size_t lo = 0, hi = s->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->bases[mid] <= ptr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static zeil_alloc_t *covering(const sorted_t *s, uintptr_t ptr)
{
    size_t i = upper_bound(s, ptr);
    if (i == 0)
        return NULL;
    zeil_alloc_t *a = s->items[i - 1];
    uintptr_t base = (uintptr_t)a->base;
    return ptr < base + (a->size ? a->size : 1) ? a : NULL;
}

/* Room for one more item: 0, or -1 when out of memory (nothing lost). */
static int sorted_reserve(sorted_t *s)
{
    if (s->count < s->capacity)
        return 0;
    size_t cap = s->capacity ? s->capacity * 2 : 256;
    zeil_alloc_t **items = realloc(s->items, cap * sizeof *items);
    if (items)
        s->items = items; /* grown or not, it holds the items */
    uintptr_t *bases = items ? realloc(s->bases, cap * sizeof *bases) : NULL;
    if (bases)
        s->bases = bases;
    if (!items || !bases)
        return -1;
    s->capacity = cap;
    return 0;
}

/* After sorted_reserve. */
static void sorted_insert(sorted_t *s, zeil_alloc_t *a)
{
    size_t i = upper_bound(s, (uintptr_t)a->base);
    memmove(&s->items[i + 1], &s->items[i], (s->count - i) * sizeof *s->items);
    memmove(&s->bases[i + 1], &s->bases[i], (s->count - i) * sizeof *s->bases);
    s->items[i] = a;
    s->bases[i] = (uintptr_t)a->base;
    s->count++;
}

static void sorted_remove(sorted_t *s, const zeil_alloc_t *a)
{
    size_t i = upper_bound(s, (uintptr_t)a->base);
    while (i > 0 && s->items[i - 1] != a && s->items[i - 1]->base == a->base)
        i--;
    if (i == 0 || s->items[i - 1] != a)
        return;
    i--;
    memmove(&s->items[i], &s->items[i + 1], (s->count - i - 1) * sizeof *s->items);
    memmove(&s->bases[i], &s->bases[i + 1], (s->count - i - 1) * sizeof *s->bases);
    s->count--;
}

/* Under the write lock: drops the tombstones overlapping [lo, hi). */
static void drop_tombstones_overlapping(uintptr_t lo, uintptr_t hi)
{
    size_t i = upper_bound(&freed, hi - 1);
    while (i > 0) {
        zeil_alloc_t *t = freed.items[i - 1];
        uintptr_t t_end = (uintptr_t)t->base + (t->size ? t->size : 1);
        if (t_end <= lo)
            break;
        sorted_remove(&freed, t);
        freed_fifo.slots[t->tombstone_slot] = NULL;
        record_drop(t);
        i = upper_bound(&freed, hi - 1);
    }
}

int registry_add_alloc(const zeil_alloc_t *proto)
{
    unsigned hash = registry_hash(proto->base);
    pthread_rwlock_wrlock(&allocs_lock);
    zeil_alloc_t *stale = NULL;
    HASH_FIND_BYHASHVALUE(hh, allocs_by_base, &proto->base, sizeof proto->base, hash, stale);
    if (stale) { /* zeil missed its free: forget it */
        HASH_DEL(allocs_by_base, stale);
        sorted_remove(&live, stale);
        record_drop(stale);
    }
    zeil_alloc_t *a = record_new();
    int stored = a && sorted_reserve(&live) == 0;
    if (stored) {
        *a = *proto;
        a->alive = 1;
        HASH_ADD_BYHASHVALUE(hh, allocs_by_base, base, sizeof a->base, hash, a);
        stored = a->hh.tbl != NULL; /* uthash could not grow its table */
    }
    if (stored) {
        sorted_insert(&live, a);
    } else {
        if (a)
            record_drop(a);
        /* The driver handed this memory out again: a tombstone of it would
         * call the new allocation freed and refuse its valid uses. */
        uintptr_t lo = (uintptr_t)proto->base;
        drop_tombstones_overlapping(lo, lo + (proto->size ? proto->size : 1));
    }
    pthread_rwlock_unlock(&allocs_lock);
    return stored ? 0 : -1;
}

int registry_find_alloc(const void *ptr, zeil_alloc_t *out)
{
    int found = 0;
    pthread_rwlock_rdlock(&allocs_lock);
    zeil_alloc_t *a = covering(&live, (uintptr_t)ptr);
    if (a)
        found = 1;
    else if ((a = covering(&freed, (uintptr_t)ptr)))
        found = 2;
    if (a && out) {
        *out = *a;
        memset(&out->hh, 0, sizeof out->hh);
    }
    pthread_rwlock_unlock(&allocs_lock);
    return found;
}

/* Under the write lock: a's tombstone replaces the older ones it overlaps
 * and the oldest of the FIFO. -1 (a dropped) when out of memory. */
static int bury(zeil_alloc_t *a)
{
    uintptr_t lo = (uintptr_t)a->base;
    drop_tombstones_overlapping(lo, lo + (a->size ? a->size : 1));
    zeil_alloc_t *victim = freed_fifo.slots[freed_fifo.next];
    if (victim) {
        sorted_remove(&freed, victim);
        record_drop(victim);
        freed_fifo.slots[freed_fifo.next] = NULL;
    }
    if (sorted_reserve(&freed) != 0) {
        record_drop(a);
        return -1;
    }
    freed_fifo.slots[freed_fifo.next] = a;
    a->tombstone_slot = freed_fifo.next;
    freed_fifo.next = (freed_fifo.next + 1) % ZEIL_TOMBSTONES;
    sorted_insert(&freed, a);
    return 0;
}

int registry_free_alloc(const void *base, uint64_t call, uint32_t thread)
{
    unsigned hash = registry_hash(base);
    pthread_rwlock_wrlock(&allocs_lock);
    zeil_alloc_t *a = NULL;
    int outcome = 0;
    HASH_FIND_BYHASHVALUE(hh, allocs_by_base, &base, sizeof base, hash, a);
    if (a) {
        HASH_DEL(allocs_by_base, a);
        sorted_remove(&live, a);
        a->alive = 0;
        a->freed_call = call;
        a->freed_thread = thread;
        outcome = bury(a) == 0 ? 1 : 2;
    }
    pthread_rwlock_unlock(&allocs_lock);
    return outcome;
}

uint64_t registry_count_allocs(registry_alloc_filter keep, const void *user, uint64_t *bytes)
{
    uint64_t n = 0, total = 0;
    pthread_rwlock_rdlock(&allocs_lock);
    for (size_t i = 0; i < live.count; i++) {
        if (keep && !keep(live.items[i], user))
            continue;
        n++;
        total += live.items[i]->size;
    }
    pthread_rwlock_unlock(&allocs_lock);
    if (bytes)
        *bytes = total;
    return n;
}
