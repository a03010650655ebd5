/*
 * event_ring.h: the events a stream's executes return. oneDNN creates one
 * pool of 16384 events per Level Zero stream and keeps every event valid
 * until the stream is destroyed; a program that works on oneDNN therefore
 * never holds more than 16384 events of one stream. zeil keeps at least as
 * many: every event names its own execute until 16384 more executes were
 * made on the stream. Only then may the oldest slot be reused, and only when
 * nothing appended and not yet run still waits on its event: its execute
 * has completed and every execute that named it as a dependency has started
 * (waiters). Otherwise the ring grows by one event: resetting an event a
 * queued launch waits on would hang that launch and everything behind it.
 * A dependency or host wait naming an event whose slot now belongs to an
 * execute that did not hand its event to the program (dnnl_primitive_execute,
 * a null return_event, or one still being made) surely means the older
 * execute: W154 with both. Events are created as executes need them, in
 * pools of EVENT_RING_POOL_SIZE: a stream pays for what it used.
 * Not thread-safe: the stream's lock guards its ring.
 */
#ifndef ZEIL_INTEROP_EVENT_RING_H
#define ZEIL_INTEROP_EVENT_RING_H

#include <stdint.h>
#include <zeil/dnnl_ze.h>

#define EVENT_RING_SIZE 16384u
#define EVENT_RING_POOL_SIZE 256u

/* The execute fields change under the stream's lock and are read by any
 * thread's dependency check: atomics. */
typedef struct event_slot {
    ze_event_handle_t event;
    const void *stream;                /* the dnnl_stream_t, for messages */
    _Atomic uint64_t execute;          /* the execute it signals now (1, 2, ... per stream) */
    _Atomic(const char *) kind;        /* its primitive kind */
    _Atomic uint64_t previous_execute; /* the execute it signalled before, 0 if none */
    _Atomic(const char *) previous_kind;
    _Atomic int handed;       /* the program was given the event of execute */
    _Atomic uint32_t waiters; /* appended launches naming it that have not run */
} event_slot_t;

typedef struct event_ring {
    ze_context_handle_t context;
    ze_device_handle_t device;
    int timestamps;
    const void *stream;
    uint32_t size;          /* executes served before a reuse (EVENT_RING_SIZE) */
    uint32_t count;         /* events created */
    uint32_t pool_capacity; /* entries of pools and slots */
    ze_event_pool_handle_t *pools;
    event_slot_t **slots; /* one chunk per pool, stable */
    uint32_t *order;      /* slot indices, oldest execute first (a deque) */
    uint32_t order_head, order_capacity;
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
/* The program was given the slot's event (the execute returned it). */
void event_slot_handed(event_slot_t *slot);
/* Waits for every event, then destroys events and pools. */
void event_ring_destroy(event_ring_t *ring);

/* A launch naming events (any stream's) as its waits was appended (delta
 * 1), or ran or was not appended after all (delta -1): their slots are not
 * reused while such a launch waits. Other events are ignored. */
void event_ring_waiters(int count, const ze_event_handle_t *events, int delta);

/* W154 for every event of events (named what[i] when indexed, else what)
 * whose slot was reused for an execute that did not hand it to the program.
 * Free until some stream reused a slot. */
void event_ring_check_reuse(const char *call, const char *what, int indexed, int count,
                            const ze_event_handle_t *events);

#endif
