/* Launch packets and their events (see launch_packets.h). */
#include "launch_packets.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct event_pool_chunk {
    ze_event_pool_handle_t pool;
    struct event_pool_chunk *next;
};

void packet_ring_init(packet_ring_t *ring, ze_context_handle_t context,
                      ze_device_handle_t device, int timestamps)
{
    memset(ring, 0, sizeof *ring);
    ring->context = context;
    ring->device = device;
    ring->timestamps = timestamps;
    ring->pool_used = PACKET_EVENTS_PER_POOL;
}

static ze_result_t new_event(packet_ring_t *ring, ze_event_handle_t *event)
{
    if (ring->pool_used == PACKET_EVENTS_PER_POOL) {
        struct event_pool_chunk *chunk = calloc(1, sizeof *chunk);
        if (!chunk)
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        ze_event_pool_desc_t desc = {
            ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
            ZE_EVENT_POOL_FLAG_HOST_VISIBLE
                | (ring->timestamps ? ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP : 0),
            PACKET_EVENTS_PER_POOL};
        ze_device_handle_t device = ring->device;
        ze_result_t result = zeEventPoolCreate(ring->context, &desc, 1, &device, &chunk->pool);
        if (result != ZE_RESULT_SUCCESS) {
            free(chunk);
            return result;
        }
        chunk->next = ring->pools;
        ring->pools = chunk;
        ring->pool_used = 0;
    }
    ze_event_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, ring->pool_used,
                            ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
    ze_result_t result = zeEventCreate(ring->pools->pool, &desc, event);
    if (result == ZE_RESULT_SUCCESS)
        ring->pool_used++;
    return result;
}

launch_packet_t *packet_ring_acquire(packet_ring_t *ring, ze_result_t *result)
{
    *result = ZE_RESULT_SUCCESS;
    launch_packet_t *packet = ring->spare;
    if (packet) {
        ring->spare = packet->next;
    } else if (ring->submitted >= PACKET_RING_KEEP
               && zeEventQueryStatus(ring->oldest->event) == ZE_RESULT_SUCCESS) {
        packet = ring->oldest;
        ring->oldest = packet->next;
        ring->submitted--;
        if (!ring->oldest)
            ring->newest = NULL;
        zeEventHostReset(packet->event);
    } else {
        packet = calloc(1, sizeof *packet);
        if (!packet) {
            *result = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
            return NULL;
        }
        *result = new_event(ring, &packet->event);
        if (*result != ZE_RESULT_SUCCESS) {
            free(packet);
            return NULL;
        }
    }
    packet->next = NULL;
    return packet;
}

void packet_ring_submitted(packet_ring_t *ring, launch_packet_t *packet)
{
    packet->next = NULL;
    if (ring->newest)
        ring->newest->next = packet;
    else
        ring->oldest = packet;
    ring->newest = packet;
    ring->submitted++;
}

void packet_ring_unused(packet_ring_t *ring, launch_packet_t *packet)
{
    packet->next = ring->spare;
    ring->spare = packet;
}

ze_event_handle_t packet_ring_newest_event(const packet_ring_t *ring)
{
    return ring->newest ? ring->newest->event : NULL;
}

static void free_packets(launch_packet_t *packet)
{
    while (packet) {
        launch_packet_t *next = packet->next;
        zeEventDestroy(packet->event);
        free(packet->args);
        free(packet);
        packet = next;
    }
}

void packet_ring_destroy(packet_ring_t *ring)
{
    /* Every launch, not only the newest: the list may not be in order (W113). */
    for (launch_packet_t *p = ring->oldest; p; p = p->next)
        zeEventHostSynchronize(p->event, UINT64_MAX);
    free_packets(ring->oldest);
    free_packets(ring->spare);
    while (ring->pools) {
        struct event_pool_chunk *next = ring->pools->next;
        zeEventPoolDestroy(ring->pools->pool);
        free(ring->pools);
        ring->pools = next;
    }
    memset(ring, 0, sizeof *ring);
}

int launch_packet_set_args(launch_packet_t *packet, int nargs, const dnnl_exec_arg_t *args)
{
    if (nargs > packet->capacity) {
        dnnl_exec_arg_t *grown = realloc(packet->args, (size_t)nargs * sizeof *grown);
        if (!grown)
            return -1;
        packet->args = grown;
        packet->capacity = nargs;
    }
    if (nargs > 0)
        memcpy(packet->args, args, (size_t)nargs * sizeof *args);
    packet->nargs = nargs;
    return 0;
}
