/*
 * launch_packets.h: the per-stream supply of launch packets, each with the
 * event its launch signals. A packet is what the kernel reads when the launch
 * runs, so it must outlive the launch: packets are reused only once their
 * event has completed, oldest first, and only when the stream has at least
 * PACKET_RING_KEEP packets (so an event returned by execute keeps naming its
 * own execute for the next PACKET_RING_KEEP executes).
 * Not thread-safe: the stream's lock guards its ring.
 */
#ifndef ZEIL_INTEROP_LAUNCH_PACKETS_H
#define ZEIL_INTEROP_LAUNCH_PACKETS_H

#include <stddef.h>
#include <zeil/dnnl_ze.h>

#include "kernel/launch_abi.h"

#define PACKET_RING_KEEP 64
#define PACKET_EVENTS_PER_POOL 64

struct interop_stream;

typedef struct launch_packet {
    zeil_interop_launch_t launch; /* first: the kernel's argument points here */
    struct launch_packet *next;
    struct interop_stream *stream;
    ze_event_handle_t event;
    const_dnnl_primitive_t primitive;
    const char *kind;
    int nargs;
    int capacity;
    dnnl_exec_arg_t *args;
} launch_packet_t;

struct event_pool_chunk;

typedef struct packet_ring {
    ze_context_handle_t context;
    ze_device_handle_t device;
    int timestamps;
    launch_packet_t *oldest, *newest; /* submitted, in submission order */
    size_t submitted;
    launch_packet_t *spare;           /* never submitted (a failed append) */
    struct event_pool_chunk *pools;
    uint32_t pool_used;               /* events taken from the newest pool */
} packet_ring_t;

void packet_ring_init(packet_ring_t *ring, ze_context_handle_t context,
                      ze_device_handle_t device, int timestamps);

/* A packet whose event is reset and not in use; null (with *result set) when
 * a new event could not be created, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY when
 * memory ran out (zeil's or the driver's). */
launch_packet_t *packet_ring_acquire(packet_ring_t *ring, ze_result_t *result);
/* The packet's launch was appended. */
void packet_ring_submitted(packet_ring_t *ring, launch_packet_t *packet);
/* The packet's launch was not appended. */
void packet_ring_unused(packet_ring_t *ring, launch_packet_t *packet);
/* The event of the newest submitted launch, or null. */
ze_event_handle_t packet_ring_newest_event(const packet_ring_t *ring);
/* Waits for every submitted launch, then frees packets, events and pools. */
void packet_ring_destroy(packet_ring_t *ring);

/* Copies args into the packet (growing it); -1 when out of memory. */
int launch_packet_set_args(launch_packet_t *packet, int nargs, const dnnl_exec_arg_t *args);

#endif
