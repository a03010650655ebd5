/*
 * rd_event.h: event pools and events.
 *
 * An event is a flag written under its pool's lock; the pool's condition
 * variable wakes whoever waits on any of its events (the host in
 * zeEventHostSynchronize, or a worker before a command with wait events).
 * Waiters first poll the flag without the lock (atomic loads) for a short
 * while (rd_poll.h), as GPU drivers poll event memory.
 * Events of a pool with ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP also keep the
 * start and end time of the command that signalled them.
 */
#ifndef ZEIL_RD_EVENT_H
#define ZEIL_RD_EVENT_H

#include "rd_context.h"

#include <pthread.h>
#include <stdatomic.h>

typedef struct rd_event rd_event_t;

typedef struct rd_event_pool {
    uint32_t magic;
    rd_context_t *context;
    ze_event_pool_flags_t flags;
    uint32_t count;
    uint32_t live_events;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    rd_event_t **slots;  /* index -> event created there, or null */
    rd_event_t *retired; /* destroyed events, freed with the pool */
    /* The application's handle (1 until zeEventPoolDestroy) and one per
     * command that still signals, waits on, resets or queries one of its
     * events: the pool and its retired events go when the last goes. */
    _Atomic uint32_t refs;
} rd_event_pool_t;

struct rd_event {
    uint32_t magic;
    rd_event_pool_t *pool;
    uint32_t index;
    int signaled; /* atomic: 0, 1 or RD_EVENT_LOST; polled without the lock; its release publishes timestamp */
    ze_kernel_timestamp_result_t timestamp;
    rd_event_t *next_retired;
};

/* The event behind a handle given to an append or a host call:
 * ZE_RESULT_ERROR_INVALID_NULL_HANDLE or _INVALID_SYNCHRONIZATION_OBJECT
 * when it is not one. */
ze_result_t rd_event_from_handle(ze_event_handle_t handle, rd_event_t **event);

/* Checks (count, handles) of an append's wait list and returns the events in
 * a new array (*events is null when count is 0); free it with free(). */
ze_result_t rd_event_list(uint32_t count, const ze_event_handle_t *handles, rd_event_t ***events);

/* Signalled by work that lost the device (a kernel faulted): waits and
 * queries report ZE_RESULT_ERROR_DEVICE_LOST until the event is reset. */
#define RD_EVENT_LOST 2

/* A command that will use the event holds its pool (rd_command_hold_events):
 * destroying the event and its pool before the command ran is the
 * application's misuse, which must not turn into a crash in the driver. */
void rd_event_hold(rd_event_t *event);
void rd_event_release(rd_event_t *event);

/* Signals, recording [start, end] as the timestamp of the signalling work. */
void rd_event_signal(rd_event_t *event, uint64_t start_ns, uint64_t end_ns);
/* The same after work that returned r (RD_EVENT_LOST after DEVICE_LOST). */
void rd_event_signal_result(rd_event_t *event, uint64_t start_ns, uint64_t end_ns, ze_result_t r);
void rd_event_reset(rd_event_t *event);

/* ZE_RESULT_SUCCESS once signalled (ZE_RESULT_ERROR_DEVICE_LOST when
 * signalled by work that lost the device), ZE_RESULT_NOT_READY after
 * timeout_ns (0 only queries, UINT64_MAX waits for ever). */
ze_result_t rd_event_wait(rd_event_t *event, uint64_t timeout_ns);

/* The timestamp of a signalled event (undefined values when not signalled). */
ze_kernel_timestamp_result_t rd_event_timestamp(rd_event_t *event);

#endif
