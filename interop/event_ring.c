/* The events executes return (see event_ring.h). */
#include "event_ring.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
}

static ze_result_t create_event(event_ring_t *ring, event_slot_t **out)
{
    uint32_t pool = ring->count / EVENT_RING_POOL_SIZE, index = ring->count % EVENT_RING_POOL_SIZE;
    if (!ring->slots[pool]) { /* kept even if the event below fails: destroy frees it */
        ring->slots[pool] = calloc(EVENT_RING_POOL_SIZE, sizeof *ring->slots[pool]);
        if (!ring->slots[pool])
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        ze_event_pool_desc_t desc = {
            ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
            ZE_EVENT_POOL_FLAG_HOST_VISIBLE
                | (ring->timestamps ? ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP : 0),
            EVENT_RING_POOL_SIZE};
        ze_device_handle_t device = ring->device;
        ze_result_t result = zeEventPoolCreate(ring->context, &desc, 1, &device,
                                               &ring->pools[pool]);
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
    ring->count++;
    *out = slot;
    return ZE_RESULT_SUCCESS;
}

event_slot_t *event_ring_take(event_ring_t *ring, uint64_t execute, const char *kind,
                              ze_result_t *result)
{
    event_slot_t *slot = NULL;
    *result = ZE_RESULT_SUCCESS;
    if (ring->count < EVENT_RING_SIZE) {
        *result = create_event(ring, &slot);
        if (*result != ZE_RESULT_SUCCESS)
            return NULL;
        atomic_store_explicit(&slot->previous_execute, 0, memory_order_relaxed);
    } else {
        uint32_t at = ring->next_reuse;
        ring->next_reuse = (at + 1) % EVENT_RING_SIZE;
        slot = &ring->slots[at / EVENT_RING_POOL_SIZE][at % EVENT_RING_POOL_SIZE];
        /* Its execute is 16384 executes old: in an in-order list it is long
         * done; waiting keeps "never under-waits" true for any list. */
        real_zeEventHostSynchronize(slot->event, UINT64_MAX);
        zeEventHostReset(slot->event);
        atomic_store_explicit(&slot->previous_kind,
                              atomic_load_explicit(&slot->kind, memory_order_relaxed),
                              memory_order_relaxed);
        atomic_store_explicit(&slot->previous_execute,
                              atomic_load_explicit(&slot->execute, memory_order_relaxed),
                              memory_order_relaxed);
        atomic_store_explicit(&some_slot_reused, 1, memory_order_release);
    }
    atomic_store_explicit(&slot->kind, kind, memory_order_relaxed);
    atomic_store_explicit(&slot->execute, execute, memory_order_relaxed);
    return slot;
}

void event_slot_unused(event_slot_t *slot)
{
    zeEventHostSignal(slot->event);
}

void event_ring_destroy(event_ring_t *ring)
{
    for (uint32_t i = 0; i < ring->count; i++) {
        event_slot_t *slot = &ring->slots[i / EVENT_RING_POOL_SIZE][i % EVENT_RING_POOL_SIZE];
        real_zeEventHostSynchronize(slot->event, UINT64_MAX);
        handle_map_take(&slots_by_event, slot->event);
        zeEventDestroy(slot->event);
    }
    for (uint32_t p = 0; p < EVENT_RING_POOLS && ring->slots[p]; p++) {
        zeEventPoolDestroy(ring->pools[p]);
        free(ring->slots[p]);
    }
    memset(ring, 0, sizeof *ring);
}

void event_ring_check_reuse(const char *call, const char *what, int indexed, int count,
                            const ze_event_handle_t *events)
{
    if (!atomic_load_explicit(&some_slot_reused, memory_order_acquire) || !events)
        return;
    for (int i = 0; i < count; i++) {
        event_slot_t *slot = events[i] ? handle_map_get(&slots_by_event, events[i]) : NULL;
        uint64_t before = slot ? atomic_load_explicit(&slot->previous_execute,
                                                      memory_order_relaxed)
                               : 0;
        if (!before)
            continue;
        char name[48];
        if (indexed)
            snprintf(name, sizeof name, "%s[%d]", what, i);
        else
            snprintf(name, sizeof name, "%s", what);
        interop_report(INTEROP_RULE_W154, call,
                       "%s %p was returned by execute #%llu (%s) of stream %p, and its slot has "
                       "since been reused: it now signals execute #%llu (%s). oneDNN keeps at "
                       "most %u events per stream valid; wait sooner or keep fewer",
                       name, (void *)events[i], (unsigned long long)before,
                       atomic_load_explicit(&slot->previous_kind, memory_order_relaxed),
                       slot->stream,
                       (unsigned long long)atomic_load_explicit(&slot->execute,
                                                                memory_order_relaxed),
                       atomic_load_explicit(&slot->kind, memory_order_relaxed),
                       EVENT_RING_SIZE);
    }
}
