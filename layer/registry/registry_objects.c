/*
 * The object registry: uthash tables in ZEIL_SHARDS shards chosen by handle
 * value, each changed under its own rwlock, plus a bounded FIFO of
 * tombstones. Lookups read each shard's lock-free index (registry_index.c)
 * and take no lock.
 *
 * Concurrency under immediate reuse. Drivers give a freed handle value to
 * the next object at once (the reference driver's reuse mode does it on
 * purpose), so a destroy on one thread and a creation on another meet on
 * the same value:
 *   destroyer: finds obj X (live) -> marks X destroying -> driver destroys
 *              -> retires X
 *   creator:                      driver creates, same value -> inserts Y
 * Every step works on the object it was handed, never on what a lookup of
 * the value finds later: the destroyer retires X (not Y); the creator's
 * insert unlinks X from the hash and the index and, if X is still live,
 * retires it itself in the destroyer's name (destroying_call). Whichever of
 * the two comes second finds retire_claimed set and does nothing, so X
 * enters the ring exactly once and Y stays live.
 *
 * The creator decides under the shard's write lock (retire_claimed), where
 * the old object cannot be freed (eviction takes that lock first and the
 * ring frees nothing it does not hold), and touches it afterwards only if it
 * won the claim, when it is not in the ring yet.
 *
 * Who frees an object: only the ring, and only after a grace period. When
 * the ring evicts a tombstone (ZEIL_TOMBSTONES retirements later), it is
 * unlinked if still linked and moved to a limbo list; it is freed when it
 * has been there GRACE_NS, or earlier when more than LIMBO_MAX objects wait
 * (memory stays bounded however fast a program churns: 16 threads making
 * and destroying 350 000 events in half a second held 120 MB with a grace
 * of time alone, 14 MB with this cap). A reader holds a pointer from
 * registry_find for one intercepted call; to read freed memory it would have
 * to stall through ZEIL_TOMBSTONES + LIMBO_MAX later destructions and, unless
 * they came that fast, a second: the bounded-delay argument of
 * registry_index.c. The price of keeping a tombstone until the ring evicts
 * it (an object whose handle is reused used to be freed on the spot) is an
 * eviction per destruction: that workload takes about twice as long with
 * zeil as before, 0.5 s against 0.25 s (creations and destructions only; the
 * launch path does not retire anything).
 * Insertion never frees an old entry, so the reuse of a handle value frees
 * nothing a reader may hold.
 */
#include "registry.h"

#include "coarse_clock.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define GRACE_NS 1000000000ull
#define LIMBO_MAX 4096u

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
    zeil_obj_t *limbo_newest, *limbo_oldest; /* evicted, oldest freed first */
    uint32_t limbo_count;
} tombstones = {PTHREAD_MUTEX_INITIALIZER, {0}, 0, NULL, NULL, 0};

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

static void evict(zeil_obj_t *victim);

/* The claimed object becomes the newest tombstone; the oldest leaves. */
registry_retirements_t registry_retirements = {.value = 1}; /* from 1 (registry.h) */

static void enter_ring(zeil_obj_t *obj, uint64_t call, uint32_t thread)
{
    /* Read by others only once alive is 0 (stored below, with release). */
    obj->destroyed_call = call;
    obj->destroyed_thread = thread;
    pthread_mutex_lock(&tombstones.lock);
    uint32_t slot = tombstones.next;
    tombstones.next = (slot + 1) % ZEIL_TOMBSTONES;
    zeil_obj_t *victim = tombstones.slots[slot];
    tombstones.slots[slot] = obj;
    atomic_store_explicit(&obj->alive, 0, memory_order_release);
    atomic_fetch_add_explicit(&registry_retirements.value, 1, memory_order_release);
    pthread_mutex_unlock(&tombstones.lock);
    if (victim)
        evict(victim);
}

zeil_obj_t *registry_insert(const zeil_obj_t *proto)
{
    zeil_obj_t *obj = malloc(sizeof *obj);
    if (obj) {
        memcpy(obj, proto, sizeof *obj);
        atomic_store(&obj->alive, 1);
        atomic_store(&obj->retire_claimed, 0);
        atomic_store(&obj->destroying_call, 0);
        atomic_store(&obj->destroying_thread, 0);
        obj->limbo_next = NULL;
    }
    unsigned hash = registry_hash(proto->handle);
    unsigned shard = registry_shard(hash);
    shard_t *s = locked_shard_of(hash);
    zeil_obj_t *old = NULL;
    pthread_rwlock_wrlock(&s->lock);
    HASH_FIND_BYHASHVALUE(hh, s->objects, &proto->handle, sizeof proto->handle, hash, old);
    /* Still live (not claimed): its destroyer has not come back from the
     * driver yet (it marked the object first, and the driver gave the value
     * out only after destroying it), or zeil missed its destruction (call
     * 0). This creation retires it, in the destroyer's name. A tombstone
     * (claimed) is the ring's: only unlinked here. */
    int retire_old =
        old && !atomic_exchange_explicit(&old->retire_claimed, 1, memory_order_acq_rel);
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
    if (retire_old)
        enter_ring(old, atomic_load_explicit(&old->destroying_call, memory_order_acquire),
                   atomic_load_explicit(&old->destroying_thread, memory_order_acquire));
    if (stored)
        return obj;
    free(obj);
    free(proto->devices); /* the new object's arrays, owned by it */
    free(proto->kernel_names);
    return NULL;
}

/* Takes the objects that left the ring more than GRACE_NS ago off the limbo
 * list, for the caller to free once it released the lock. Under the
 * tombstones lock. */
static zeil_obj_t *take_expired_limbo(uint64_t now)
{
    zeil_obj_t *expired = NULL;
    while (tombstones.limbo_oldest && (now - tombstones.limbo_oldest->evicted_ns > GRACE_NS ||
                                       tombstones.limbo_count > LIMBO_MAX)) {
        zeil_obj_t *o = tombstones.limbo_oldest;
        tombstones.limbo_count--;
        tombstones.limbo_oldest = o->limbo_next;
        if (!tombstones.limbo_oldest)
            tombstones.limbo_newest = NULL;
        o->limbo_next = expired;
        expired = o;
    }
    return expired;
}

/* The victim left the ring: unlinked (if a newer object of its value has
 * not replaced it already), then kept in limbo for the grace period. */
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

    uint64_t now = coarse_clock_coarse_ns();
    victim->evicted_ns = now;
    victim->limbo_next = NULL;
    pthread_mutex_lock(&tombstones.lock);
    if (tombstones.limbo_newest)
        tombstones.limbo_newest->limbo_next = victim;
    else
        tombstones.limbo_oldest = victim;
    tombstones.limbo_newest = victim;
    tombstones.limbo_count++;
    zeil_obj_t *expired = take_expired_limbo(now);
    pthread_mutex_unlock(&tombstones.lock);
    while (expired) {
        zeil_obj_t *next = expired->limbo_next;
        free_obj(expired);
        expired = next;
    }
}

void registry_destroying(zeil_obj_t *obj, uint64_t call, uint32_t thread)
{
    atomic_store_explicit(&obj->destroying_thread, thread, memory_order_relaxed);
    atomic_store_explicit(&obj->destroying_call, call, memory_order_release);
}

void registry_retire(zeil_obj_t *obj, uint64_t call, uint32_t thread)
{
    if (!atomic_exchange_explicit(&obj->retire_claimed, 1, memory_order_acq_rel))
        enter_ring(obj, call, thread);
    /* else retired already, by a creation that reused its handle */
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
