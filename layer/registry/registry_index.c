/*
 * The registry's lock-free index: linear probing over slots of (key, object),
 * both atomic.
 *
 * Why readers need no lock:
 * - A slot's key is written once, from null to a handle, and never changes in
 *   that table: a reader that sees key == handle is at the only slot that
 *   handle can ever have in this table, so the object it then loads belongs
 *   to that handle (or is null: removed). No ABA on keys.
 * - The writer stores the object before it publishes the key (release), so a
 *   reader that sees the key (acquire) sees a complete object.
 * - Removal stores a null object and keeps the key (a "deleted" slot that the
 *   same handle reuses), so no probe chain is ever cut short.
 * - Growth, or too many deleted slots, builds a new table from the live
 *   entries and publishes it with one release store. A reader still probing
 *   the old table sees the state before the swap, as if it had run a moment
 *   earlier.
 * - Old tables cannot be freed at once (a reader may be inside one). They
 *   are retired (retired.h) and freed only when at least
 *   RETIRED_KEEP newer tables exist and the grace period passed: a reader
 *   would have to stall inside a dozen-instruction probe for a second and
 *   through several rebuilds of its shard.
 */
#include "registry.h"

#include <stddef.h>
#include <stdlib.h>

#define MIN_SLOTS 64u
#define RETIRED_KEEP 4u

typedef registry_index_slot_t index_slot_t;

registry_index_t *_Atomic registry_indexes[ZEIL_SHARDS];
/* Each shard's replaced tables (under its write lock). */
static retired_tables_t retired[ZEIL_SHARDS];

/* Null when out of memory. */
static registry_index_t *table_new(uint32_t slots)
{
    registry_index_t *t = calloc(1, sizeof *t + slots * sizeof(index_slot_t));
    if (t)
        t->mask = slots - 1;
    return t;
}

/* The slot of handle, or the empty slot where it would go. Writers only. */
static index_slot_t *slot_of(registry_index_t *t, const void *handle, unsigned hash)
{
    for (uint32_t i = hash & t->mask;; i = (i + 1) & t->mask) {
        const void *key = atomic_load_explicit(&t->slots[i].key, memory_order_relaxed);
        if (key == handle || !key)
            return &t->slots[i];
    }
}

static void release_table(retired_table_t *r)
{
    free((char *)r - offsetof(registry_index_t, retired));
}

/* A new table sized for the live entries (at most 1/4 full after the copy);
 * null when out of memory (the old table stays). */
static registry_index_t *rebuild(unsigned shard, registry_index_t *old)
{
    uint32_t live = old ? old->live : 0, slots = MIN_SLOTS;
    while (slots < 4 * (live + 1))
        slots *= 2;
    registry_index_t *t = table_new(slots);
    if (!t)
        return NULL;
    for (uint32_t i = 0; old && i <= old->mask; i++) {
        zeil_obj_t *obj = atomic_load_explicit(&old->slots[i].obj, memory_order_relaxed);
        const void *key = atomic_load_explicit(&old->slots[i].key, memory_order_relaxed);
        if (!obj)
            continue;
        index_slot_t *s = slot_of(t, key, registry_hash(key));
        atomic_store_explicit(&s->obj, obj, memory_order_relaxed);
        atomic_store_explicit(&s->key, key, memory_order_relaxed);
        t->used++;
        t->live++;
    }
    if (old) {
        retired_add(&retired[shard], &old->retired);
        retired_reclaim(&retired[shard], RETIRED_KEEP, release_table);
    }
    /* Release: a reader that loads the new table sees all its slots. */
    atomic_store_explicit(&registry_indexes[shard], t, memory_order_release);
    return t;
}

int index_put(unsigned shard, const void *handle, unsigned hash, zeil_obj_t *obj)
{
    registry_index_t *_Atomic *root = &registry_indexes[shard];
    registry_index_t *t = atomic_load_explicit(root, memory_order_relaxed);
    if (!t || 4 * (t->used + 1) > 3 * (t->mask + 1)) {
        registry_index_t *grown = rebuild(shard, t);
        if (!grown && !t)
            return -1;
        if (grown)
            t = grown;
    }
    index_slot_t *s = slot_of(t, handle, hash);
    int fresh = atomic_load_explicit(&s->key, memory_order_relaxed) == NULL;
    /* Without a bigger table the old one fills past 3/4: slower probes, still
     * correct while one slot stays empty (a probe ends at an empty slot). */
    if (fresh && t->used + 2 > t->mask + 1)
        return -1;
    t->live += atomic_load_explicit(&s->obj, memory_order_relaxed) == NULL;
    atomic_store_explicit(&s->obj, obj, memory_order_release);
    if (fresh) {
        t->used++;
        atomic_store_explicit(&s->key, handle, memory_order_release);
    }
    return 0;
}

void index_remove(unsigned shard, const void *handle, unsigned hash, const zeil_obj_t *obj)
{
    registry_index_t *_Atomic *root = &registry_indexes[shard];
    registry_index_t *t = atomic_load_explicit(root, memory_order_relaxed);
    if (!t)
        return;
    index_slot_t *s = slot_of(t, handle, hash);
    if (atomic_load_explicit(&s->key, memory_order_relaxed) != handle ||
        atomic_load_explicit(&s->obj, memory_order_relaxed) != obj)
        return;
    atomic_store_explicit(&s->obj, NULL, memory_order_release);
    t->live--;
}
