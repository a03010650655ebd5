/*
 * The object registry: uthash tables in ZEIL_SHARDS shards chosen by handle
 * value, each changed under its own rwlock, plus a bounded FIFO of
 * tombstones. Lookups read each shard's lock-free index (registry_index.c)
 * and take no lock.
 *
 * Who frees a tombstone: whoever clears its slot in the ring (the evictor when
 * it ages out, or registry_insert when the driver reuses the handle value).
 */
#include "registry.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Aligned so that threads on different shards do not share cache lines. */
typedef struct shard {
    _Alignas(64) pthread_rwlock_t lock;
    zeil_obj_t *objects;
} shard_t;

static shard_t shards[ZEIL_SHARDS];
static pthread_once_t shards_once = PTHREAD_ONCE_INIT;

static struct {
    pthread_mutex_t lock;
    zeil_obj_t *slots[ZEIL_TOMBSTONES];
    uint32_t next;
} tombstones = {PTHREAD_MUTEX_INITIALIZER, {0}, 0};

static void init_shards(void)
{
    for (int i = 0; i < ZEIL_SHARDS; i++)
        pthread_rwlock_init(&shards[i].lock, NULL);
}

/* Only writers take the locks (lookups read registry_indexes). */
static shard_t *locked_shard_of(unsigned hash)
{
    pthread_once(&shards_once, init_shards);
    return &shards[registry_shard(hash)];
}

static void free_obj(zeil_obj_t *obj)
{
    free(obj->devices);
    free(obj->kernel_names);
    free(obj);
}

/* Clears the tombstone's ring slot if it still holds it; returns 1 when the
 * caller now owns (must free) it. */
static int take_from_ring(zeil_obj_t *obj)
{
    pthread_mutex_lock(&tombstones.lock);
    int owned = tombstones.slots[obj->tombstone_slot] == obj;
    if (owned)
        tombstones.slots[obj->tombstone_slot] = NULL;
    pthread_mutex_unlock(&tombstones.lock);
    return owned;
}

zeil_obj_t *registry_insert(const zeil_obj_t *proto)
{
    zeil_obj_t *obj = malloc(sizeof *obj);
    if (obj) {
        memcpy(obj, proto, sizeof *obj);
        atomic_store(&obj->alive, 1);
    }
    unsigned hash = registry_hash(proto->handle);
    unsigned shard = registry_shard(hash);
    shard_t *s = locked_shard_of(hash);
    zeil_obj_t *old = NULL;
    pthread_rwlock_wrlock(&s->lock);
    HASH_FIND_BYHASHVALUE(hh, s->objects, &proto->handle, sizeof proto->handle, hash, old);
    if (old)
        HASH_DEL(s->objects, old);
    int stored = 0;
    if (obj) {
        HASH_ADD_BYHASHVALUE(hh, s->objects, handle, sizeof obj->handle, hash, obj);
        stored = obj->hh.tbl != NULL; /* uthash could not grow its table */
        if (stored && index_put(shard, obj->handle, hash, obj) != 0) {
            HASH_DEL(s->objects, obj);
            stored = 0;
        }
    }
    /* Not stored: the handle must be unknown, not the old object. An old
     * entry left in the index would call the driver's new object (reusing
     * the value) destroyed or of another kind, and refuse its valid calls. */
    if (!stored && old)
        index_remove(shard, old->handle, hash, old);
    pthread_rwlock_unlock(&s->lock);
    /* A live object replaced by the same handle value means zeil missed its
     * destruction; keep the old one readable (it may be in use) by leaking it. */
    if (old && !atomic_load(&old->alive) && take_from_ring(old))
        free_obj(old);
    if (stored)
        return obj;
    free(obj);
    free(proto->devices); /* the new object's arrays, owned by it */
    free(proto->kernel_names);
    return NULL;
}

static void evict(zeil_obj_t *victim)
{
    unsigned hash = registry_hash(victim->handle);
    shard_t *s = locked_shard_of(hash);
    zeil_obj_t *found = NULL;
    pthread_rwlock_wrlock(&s->lock);
    HASH_FIND_BYHASHVALUE(hh, s->objects, &victim->handle, sizeof victim->handle, hash, found);
    if (found == victim)
        HASH_DEL(s->objects, victim);
    index_remove(registry_shard(hash), victim->handle, hash, victim);
    pthread_rwlock_unlock(&s->lock);
    free_obj(victim);
}

void registry_retire(zeil_obj_t *obj, uint64_t call, uint32_t thread)
{
    obj->destroyed_call = call;
    obj->destroyed_thread = thread;
    pthread_mutex_lock(&tombstones.lock);
    uint32_t slot = tombstones.next;
    tombstones.next = (slot + 1) % ZEIL_TOMBSTONES;
    zeil_obj_t *victim = tombstones.slots[slot];
    tombstones.slots[slot] = obj;
    obj->tombstone_slot = slot;
    atomic_store(&obj->alive, 0);
    pthread_mutex_unlock(&tombstones.lock);
    if (victim)
        evict(victim);
}

void registry_foreach_live(void (*fn)(zeil_obj_t *obj, void *user), void *user)
{
    pthread_once(&shards_once, init_shards);
    for (int i = 0; i < ZEIL_SHARDS; i++) {
        pthread_rwlock_rdlock(&shards[i].lock);
        for (zeil_obj_t *o = shards[i].objects; o; o = o->hh.next)
            if (atomic_load(&o->alive))
                fn(o, user);
        pthread_rwlock_unlock(&shards[i].lock);
    }
}
