/* The events executes return (see event_ring.h). */
#include "event_ring.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "handle_map.h"
#include "real_dnnl.h"
#include "rules.h"

/* event -> its slot, for the events of every stream; consulted only once a
 * slot was reused somewhere (until then no event can be stale). */
static handle_map_t slots_by_event = HANDLE_MAP_INIT;
static atomic_int some_slot_reused;

void event_ring_init(event_ring_t *ring, ze_context_handle_t context, ze_device_handle_t device,
                     int timestamps, const void *stream)
{
    memset(ring, 0, sizeof *ring);
    ring->context = context;
    ring->device = device;
    ring->timestamps = timestamps;
    ring->stream = stream;
    ring->size = env_event_ring_size(EVENT_RING_SIZE);
}

/* Room for one more pool in pools and slots; -1 when out of memory. */
static int grow_pools(event_ring_t *ring, uint32_t pool)
{
    if (pool < ring->pool_capacity)
        return 0;
    uint32_t capacity = ring->pool_capacity ? ring->pool_capacity * 2 : 8;
    ze_event_pool_handle_t *pools = realloc(ring->pools, capacity * sizeof *pools);
    if (!pools)
        return -1;
    ring->pools = pools;
    event_slot_t **slots = realloc(ring->slots, capacity * sizeof *slots);
    if (!slots)
        return -1;
    ring->slots = slots;
    memset(pools + ring->pool_capacity, 0, (capacity - ring->pool_capacity) * sizeof *pools);
    memset(slots + ring->pool_capacity, 0, (capacity - ring->pool_capacity) * sizeof *slots);
    ring->pool_capacity = capacity;
    return 0;
}

/* Room in the age order for used + 1 slot indices; -1 when out of memory. */
static int order_reserve(event_ring_t *ring, uint32_t used)
{
    if (used == ring->order_capacity) {
        uint32_t capacity = ring->order_capacity ? ring->order_capacity * 2 : 256;
        uint32_t *order = malloc(capacity * sizeof *order);
        if (!order)
            return -1;
        for (uint32_t i = 0; i < used; i++)
            order[i] = ring->order[(ring->order_head + i) % ring->order_capacity];
        free(ring->order);
        ring->order = order;
        ring->order_head = 0;
        ring->order_capacity = capacity;
    }
    return 0;
}

/* Appends index to the age order (it holds the newest execute now); the
 * room was reserved. */
static void order_push(event_ring_t *ring, uint32_t index, uint32_t used)
{
    ring->order[(ring->order_head + used) % ring->order_capacity] = index;
}

static event_slot_t *slot_at(const event_ring_t *ring, uint32_t index)
{
    return &ring->slots[index / EVENT_RING_POOL_SIZE][index % EVENT_RING_POOL_SIZE];
}

static ze_result_t create_event(event_ring_t *ring, event_slot_t **out)
{
    uint32_t pool = ring->count / EVENT_RING_POOL_SIZE, index = ring->count % EVENT_RING_POOL_SIZE;
    if (grow_pools(ring, pool) != 0 || order_reserve(ring, ring->count) != 0)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (!ring->slots[pool]) { /* kept even if the event below fails: destroy frees it */
        ring->slots[pool] = calloc(EVENT_RING_POOL_SIZE, sizeof *ring->slots[pool]);
        if (!ring->slots[pool])
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        ze_event_pool_desc_t desc = {
            ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
            ZE_EVENT_POOL_FLAG_HOST_VISIBLE |
                (ring->timestamps ? ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP : 0),
            EVENT_RING_POOL_SIZE};
        ze_device_handle_t device = ring->device;
        ze_result_t result =
            zeEventPoolCreate(ring->context, &desc, 1, &device, &ring->pools[pool]);
        if (result != ZE_RESULT_SUCCESS) {
            free(ring->slots[pool]);
            ring->slots[pool] = NULL;
            return result;
        }
    }
    event_slot_t *slot = &ring->slots[pool][index];
    ze_event_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, index, ZE_EVENT_SCOPE_FLAG_HOST,
                            ZE_EVENT_SCOPE_FLAG_HOST};
    ze_result_t result = zeEventCreate(ring->pools[pool], &desc, &slot->event);
    if (result != ZE_RESULT_SUCCESS)
        return result;
    if (handle_map_put(&slots_by_event, slot->event, slot) != 0) {
        zeEventDestroy(slot->event);
        slot->event = NULL;
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    slot->stream = ring->stream;
    order_push(ring, ring->count, ring->count);
    ring->count++;
    *out = slot;
    return ZE_RESULT_SUCCESS;
}

/* Nothing appended and not yet done waits on the slot's event: no launch
 * that named it is still queued, and its own execute has signalled it. */
static int reusable(const event_slot_t *slot)
{
    return atomic_load_explicit(&slot->waiters, memory_order_acquire) == 0 &&
           zeEventQueryStatus(slot->event) == ZE_RESULT_SUCCESS;
}

/* The oldest slot when it may be reused (moved to the newest place), else
 * null: the ring then grows. */
static event_slot_t *reuse_oldest(event_ring_t *ring)
{
    uint32_t index = ring->order[ring->order_head];
    event_slot_t *slot = slot_at(ring, index);
    if (!reusable(slot))
        return NULL;
    ring->order_head = (ring->order_head + 1) % ring->order_capacity;
    order_push(ring, index, ring->count - 1); /* into the room it left */
    zeEventHostReset(slot->event);
    atomic_store_explicit(&slot->previous_kind,
                          atomic_load_explicit(&slot->kind, memory_order_relaxed),
                          memory_order_relaxed);
    atomic_store_explicit(&slot->previous_execute,
                          atomic_load_explicit(&slot->execute, memory_order_relaxed),
                          memory_order_relaxed);
    atomic_store_explicit(&some_slot_reused, 1, memory_order_release);
    return slot;
}

event_slot_t *event_ring_take(event_ring_t *ring, uint64_t execute, const char *kind,
                              ze_result_t *result)
{
    event_slot_t *slot = ring->count >= ring->size ? reuse_oldest(ring) : NULL;
    *result = ZE_RESULT_SUCCESS;
    if (!slot) {
        *result = create_event(ring, &slot);
        if (*result != ZE_RESULT_SUCCESS)
            return NULL;
        atomic_store_explicit(&slot->previous_execute, 0, memory_order_relaxed);
    }
    atomic_store_explicit(&slot->handed, 0, memory_order_relaxed);
    atomic_store_explicit(&slot->kind, kind, memory_order_relaxed);
    atomic_store_explicit(&slot->execute, execute, memory_order_release);
    return slot;
}

void event_slot_unused(event_slot_t *slot)
{
    zeEventHostSignal(slot->event);
}

void event_slot_handed(event_slot_t *slot)
{
    atomic_store_explicit(&slot->handed, 1, memory_order_release);
}

void event_ring_waiters(int count, const ze_event_handle_t *events, int delta)
{
    for (int i = 0; events && i < count; i++) {
        event_slot_t *slot = events[i] ? handle_map_get(&slots_by_event, events[i]) : NULL;
        if (slot)
            atomic_fetch_add_explicit(&slot->waiters, (uint32_t)delta, memory_order_acq_rel);
    }
}

void event_ring_destroy(event_ring_t *ring)
{
    for (uint32_t i = 0; i < ring->count; i++) {
        event_slot_t *slot = slot_at(ring, i);
        real_zeEventHostSynchronize(slot->event, UINT64_MAX);
        handle_map_take(&slots_by_event, slot->event);
        zeEventDestroy(slot->event);
    }
    for (uint32_t p = 0; p < ring->pool_capacity && ring->slots[p]; p++) {
        zeEventPoolDestroy(ring->pools[p]);
        free(ring->slots[p]);
    }
    free(ring->pools);
    free(ring->slots);
    free(ring->order);
    memset(ring, 0, sizeof *ring);
}

void event_ring_check_reuse(const char *call, const char *what, int indexed, int count,
                            const ze_event_handle_t *events)
{
    if (!atomic_load_explicit(&some_slot_reused, memory_order_acquire) || !events)
        return;
    for (int i = 0; i < count; i++) {
        event_slot_t *slot = events[i] ? handle_map_get(&slots_by_event, events[i]) : NULL;
        uint64_t before =
            slot ? atomic_load_explicit(&slot->previous_execute, memory_order_relaxed) : 0;
        if (!before || atomic_load_explicit(&slot->handed, memory_order_acquire))
            continue; /* the event the program was given last: its own */
        char name[48];
        if (indexed)
            snprintf(name, sizeof name, "%s[%d]", what, i);
        else
            snprintf(name, sizeof name, "%s", what);
        interop_report(
            INTEROP_RULE_W154, call,
            "%s %p was returned by execute #%llu (%s) of stream %p, and its slot has "
            "since been reused: it now signals execute #%llu (%s), which did not "
            "return it. oneDNN keeps at most %u events per stream valid; wait "
            "sooner or keep fewer",
            name, (void *)events[i], (unsigned long long)before,
            atomic_load_explicit(&slot->previous_kind, memory_order_relaxed), slot->stream,
            (unsigned long long)atomic_load_explicit(&slot->execute, memory_order_relaxed),
            atomic_load_explicit(&slot->kind, memory_order_relaxed), EVENT_RING_SIZE);
    }
}
