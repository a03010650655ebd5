/*
 * registry_index.h: the lock-free read side of the object registry. Each
 * shard keeps, beside its uthash table (the store, changed under the shard's
 * write lock, registry_objects.c), an open-addressing index handle -> object
 * that lookups probe with atomic loads only: the launch path takes no lock.
 * Why that is safe: registry_index.c. The lookup is inline because every
 * intercepted call makes one or more.
 */
#ifndef ZEIL_REGISTRY_INDEX_H
#define ZEIL_REGISTRY_INDEX_H

#include "retired.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define ZEIL_SHARDS 64

struct zeil_obj;

typedef struct registry_index_slot {
    const void *_Atomic key;      /* written once: null -> handle */
    struct zeil_obj *_Atomic obj; /* null: removed */
} registry_index_slot_t;

typedef struct registry_index {
    uint32_t mask;           /* slots - 1, slots a power of two */
    uint32_t used;           /* slots with a key (live or removed) */
    uint32_t live;           /* slots with an object */
    retired_table_t retired; /* once a newer table replaced it */
    registry_index_slot_t slots[];
} registry_index_t;

/* Each shard's current table (null until its first object). */
extern registry_index_t *_Atomic registry_indexes[ZEIL_SHARDS]
    __attribute__((visibility("hidden")));

/* One cheap mix of the handle value picks the shard and the slot (uthash's
 * own hash costs more than the rest of a lookup). */
static inline unsigned registry_hash(const void *handle)
{
    uint64_t h = (uint64_t)(uintptr_t)handle;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return (unsigned)h;
}

static inline unsigned registry_shard(unsigned hash)
{
    return (hash >> 24) % ZEIL_SHARDS;
}

/* The object indexed under handle (live or tombstone), or null. Lock-free. */
static inline struct zeil_obj *registry_find(const void *handle)
{
    if (!handle)
        return NULL;
    unsigned hash = registry_hash(handle);
    registry_index_t *t =
        atomic_load_explicit(&registry_indexes[registry_shard(hash)], memory_order_acquire);
    if (!t)
        return NULL;
    uint32_t i = hash & t->mask;
    const void *key;
    while ((key = atomic_load_explicit(&t->slots[i].key, memory_order_acquire)) != handle) {
        if (!key)
            return NULL; /* tables always keep an empty slot */
        i = (i + 1) & t->mask;
    }
    return atomic_load_explicit(&t->slots[i].obj, memory_order_acquire);
}

/* Under the shard's write lock: handle now maps to obj. -1 (nothing changed)
 * when out of memory. */
int index_put(unsigned shard, const void *handle, unsigned hash, struct zeil_obj *obj);
/* Under the shard's write lock: handle maps to nothing if it mapped to obj. */
void index_remove(unsigned shard, const void *handle, unsigned hash, const struct zeil_obj *obj);

#endif
