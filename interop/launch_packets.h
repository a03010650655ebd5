/*
 * launch_packets.h: the per-stream supply of launch packets. A packet is
 * what zeil's kernel reads when the launch runs, so it must outlive the
 * launch: a packet is reused once its launch has run (done, set by the
 * kernel as its last access), oldest first, so a stream holds about as many
 * packets as it has launches in flight. The event a launch signals comes
 * from the stream's event ring (event_ring.h), which keeps events far longer.
 * Not thread-safe: the stream's lock guards its ring.
 */
#ifndef ZEIL_INTEROP_LAUNCH_PACKETS_H
#define ZEIL_INTEROP_LAUNCH_PACKETS_H

#include <stdatomic.h>
#include <stddef.h>
#include <zeil/dnnl_ze.h>

#include "kernel/launch_abi.h"

struct interop_stream;

typedef struct launch_packet {
    zeil_interop_launch_t launch; /* first: the kernel's argument points here */
    struct launch_packet *next;
    struct interop_stream *stream;
    ze_event_handle_t event; /* the event this launch signals */
    atomic_int done;         /* the kernel no longer reads the packet */
    const_dnnl_primitive_t primitive;
    const char *kind;
    int nargs;
    int capacity;
    dnnl_exec_arg_t *args;
    int nwaits; /* the dependencies it waits on (event_ring_waiters) */
    int waits_capacity;
    ze_event_handle_t *waits;
} launch_packet_t;

typedef struct packet_ring {
    launch_packet_t *oldest, *newest; /* submitted, in submission order */
    launch_packet_t *spare;           /* never submitted (a failed append) */
} packet_ring_t;

void packet_ring_init(packet_ring_t *ring);

/* A packet not in use (done reset); null when out of memory. */
launch_packet_t *packet_ring_acquire(packet_ring_t *ring);
/* The packet's launch was appended. */
void packet_ring_submitted(packet_ring_t *ring, launch_packet_t *packet);
/* The packet's launch was not appended. */
void packet_ring_unused(packet_ring_t *ring, launch_packet_t *packet);
/* The event of the newest submitted launch, or null. */
ze_event_handle_t packet_ring_newest_event(const packet_ring_t *ring);
/* Frees every packet; the caller has waited for every launch. */
void packet_ring_destroy(packet_ring_t *ring);

/* Copies args into the packet (growing it); -1 when out of memory. */
int launch_packet_set_args(launch_packet_t *packet, int nargs, const dnnl_exec_arg_t *args);

/* Copies the launch's wait events into the packet; -1 when out of memory. */
int launch_packet_set_waits(launch_packet_t *packet, int nwaits, const ze_event_handle_t *waits);

#endif
