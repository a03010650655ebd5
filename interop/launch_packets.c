/* Launch packets (see launch_packets.h). */
#include "launch_packets.h"

#include <stdlib.h>
#include <string.h>

void packet_ring_init(packet_ring_t *ring)
{
    memset(ring, 0, sizeof *ring);
}

launch_packet_t *packet_ring_acquire(packet_ring_t *ring)
{
    launch_packet_t *packet = ring->spare;
    if (packet) {
        ring->spare = packet->next;
    } else if (ring->oldest && atomic_load_explicit(&ring->oldest->done, memory_order_acquire)) {
        packet = ring->oldest;
        ring->oldest = packet->next;
        if (!ring->oldest)
            ring->newest = NULL;
    } else {
        packet = calloc(1, sizeof *packet);
        if (!packet)
            return NULL;
    }
    packet->next = NULL;
    atomic_store_explicit(&packet->done, 0, memory_order_relaxed);
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
        free(packet->args);
        free(packet->waits);
        free(packet);
        packet = next;
    }
}

void packet_ring_destroy(packet_ring_t *ring)
{
    free_packets(ring->oldest);
    free_packets(ring->spare);
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

int launch_packet_set_waits(launch_packet_t *packet, int nwaits, const ze_event_handle_t *waits)
{
    if (nwaits > packet->waits_capacity) {
        ze_event_handle_t *grown = realloc(packet->waits, (size_t)nwaits * sizeof *grown);
        if (!grown)
            return -1;
        packet->waits = grown;
        packet->waits_capacity = nwaits;
    }
    if (nwaits > 0)
        memcpy(packet->waits, waits, (size_t)nwaits * sizeof *waits);
    packet->nwaits = nwaits;
    return 0;
}
