/*
 * event_ring.h: the events a stream's executes return. oneDNN creates one
 * pool of 16384 events per Level Zero stream and keeps every event valid
 * until the stream is destroyed; a program that works on oneDNN therefore
 * never holds more than 16384 events of one stream. zeil keeps as many:
 * every event names its own execute until 16384 more executes were made on
 * the stream. Only then is the oldest slot reused (after its execute has
 * completed: a late wait on it over-waits, never under-waits), and a
 * dependency or host wait that names a reused event is reported (W154)
 * with both executes. Events are created as executes need them, in pools of
 * EVENT_RING_POOL_SIZE: a stream pays for what it used.
 * Not thread-safe: the stream's lock guards its ring.
 */
#ifndef ZEIL_INTEROP_EVENT_RING_H
#define ZEIL_INTEROP_EVENT_RING_H

#include <stdint.h>
#include <zeil/dnnl_ze.h>

#define EVENT_RING_SIZE 16384u
#define EVENT_RING_POOL_SIZE 256u
#define EVENT_RING_POOLS (EVENT_RING_SIZE / EVENT_RING_POOL_SIZE)

/* The execute fields change under the stream's lock and are read by any
 * thread's dependency check: atomics. */
typedef struct event_slot {
    ze_event_handle_t event;
    const void *stream;                   /* the dnnl_stream_t, for messages */
    _Atomic uint64_t execute;             /* the execute it signals now (1, 2, ... per stream) */
    _Atomic(const char *) kind;           /* its primitive kind */
    _Atomic uint64_t previous_execute;    /* the execute it signalled before, 0 if none */
    _Atomic(const char *) previous_kind;
} event_slot_t;

typedef struct event_ring {
    ze_context_handle_t context;
    ze_device_handle_t device;
    int timestamps;
    const void *stream;
    uint32_t count;                                /* events created */
    uint32_t next_reuse;                           /* once full: the oldest slot */
    ze_event_pool_handle_t pools[EVENT_RING_POOLS];
    event_slot_t *slots[EVENT_RING_POOLS];         /* one chunk per pool, stable */
} event_ring_t;

void event_ring_init(event_ring_t *ring, ze_context_handle_t context, ze_device_handle_t device,
                     int timestamps, const void *stream);
/* The slot for execute number execute (of primitive kind), its event reset;
 * null with *result set when an event could not be created. */
event_slot_t *event_ring_take(event_ring_t *ring, uint64_t execute, const char *kind,
                              ze_result_t *result);
/* The slot's launch was not appended: its event is signalled, so that
 * waits on it (a later reuse, the stream's destruction) do not hang. */
void event_slot_unused(event_slot_t *slot);
/* Waits for every event, then destroys events and pools. */
void event_ring_destroy(event_ring_t *ring);

/* W154 for every event of events (named what[i] when indexed, else what)
 * whose slot was reused. Free until some stream reused a slot. */
void event_ring_check_reuse(const char *call, const char *what, int indexed, int count,
                            const ze_event_handle_t *events);

#endif
