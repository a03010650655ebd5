/*
 * records_state.h: the per-list record state, shared by the records_*.c
 * files only.
 */
#ifndef ZEIL_RECORDS_STATE_H
#define ZEIL_RECORDS_STATE_H

#include "records.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

typedef struct stats_key {
    ze_command_list_handle_t list;  /* set only in the retired table */
    uint64_t stream_id;
    const char *kernel;
    const char *primitive;
    const char *impl;
} stats_key_t;

typedef struct stats_entry {
    UT_hash_handle hh;
    stats_key_t key;
    uint64_t launches, timed_launches, total_device_ns, max_device_ns;
} stats_entry_t;

struct zeil_list_state {
    atomic_int lock;                          /* records_lock(): a spin lock */
    ze_command_list_handle_t list;
    zeil_obj_t *obj;
    zeil_record_t *ring;                      /* capacity entries, lazily */
    ze_event_handle_t (*ring_waits)[ZEIL_RECORD_WAIT_EVENTS];
    uint32_t capacity;
    uint64_t total;                           /* ever recorded */
    uint32_t next_slot;                       /* total % capacity, without a
                                                 division on the launch path */
    stats_entry_t *stats;
    stats_entry_t *last_stats;                /* a loop launches the same kernel */
    struct records_timing *timing;            /* ZEIL_TIMING, lazily */
    zeil_list_state_t *prev, *next;           /* all live states */
};

/* The state's lock. Appends to one list come from one thread at a time (the
 * spec), so it is uncontended but for a reader copying records: one atomic
 * exchange to take it, a plain release store to give it back (a pthread mutex
 * costs two atomic read-modify-writes and two calls on the launch path). A
 * waiter yields, since the holder may run a reader's callback. */
static inline void records_lock(zeil_list_state_t *state)
{
    while (atomic_exchange_explicit(&state->lock, 1, memory_order_acquire))
        while (atomic_load_explicit(&state->lock, memory_order_relaxed))
            sched_yield();
}

static inline void records_unlock(zeil_list_state_t *state)
{
    atomic_store_explicit(&state->lock, 0, memory_order_release);
}

/* The live states, for iteration by stream and for the counters. */
extern pthread_mutex_t records_states_lock;
extern zeil_list_state_t *records_states;

/* Under state->lock: counts a launch under its key; -1 when a new key found
 * no memory (the launch is not counted). A loop launches the same kernel
 * under the same attribution: that case is inline, the hash lookup of
 * another key is not. */
int records_count_launch_keyed(zeil_list_state_t *state, const zeil_record_t *record);
static inline int records_count_launch(zeil_list_state_t *state, const zeil_record_t *record)
{
    stats_entry_t *last = state->last_stats;
    if (last && last->key.kernel == record->kernel && last->key.stream_id == record->stream_id &&
        last->key.primitive == record->primitive && last->key.impl == record->impl) {
        last->launches++;
        return 0;
    }
    return records_count_launch_keyed(state, record);
}
/* Under state->lock: adds device time to the launch's counters. */
void records_count_device_time(zeil_list_state_t *state, const zeil_record_t *record);
/* Under records_states_lock and state->lock: keeps the list's counters after
 * it is gone. Returns the launches whose counters could not be kept. */
uint64_t records_retire_stats(zeil_list_state_t *state);

#endif
