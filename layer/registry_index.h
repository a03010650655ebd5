/*
 * registry_index.h: the lock-free read side of the object registry. Each
 * shard keeps, beside its uthash table (the store, changed under the shard's
 * write lock), an open-addressing index handle -> object that readers probe
 * with atomic loads only, so the launch path takes no lock at all.
 *
 * Writers (index_put, index_remove) must hold the owning shard's write lock.
 */
#ifndef ZEIL_REGISTRY_INDEX_H
#define ZEIL_REGISTRY_INDEX_H

#include "registry.h"

typedef struct registry_index registry_index_t;

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

/* The object indexed under handle (live or tombstone), or null. Lock-free. */
zeil_obj_t *index_find(registry_index_t *_Atomic *root, const void *handle, unsigned hash);
/* Under the shard's write lock: handle now maps to obj. */
void index_put(registry_index_t *_Atomic *root, const void *handle, unsigned hash,
               zeil_obj_t *obj);
/* Under the shard's write lock: handle maps to nothing if it mapped to obj. */
void index_remove(registry_index_t *_Atomic *root, const void *handle, unsigned hash,
                  const zeil_obj_t *obj);

#endif
