/*
 * records_state.h: the per-list record state, shared by the records_*.c
 * files only.
 */
#ifndef ZEIL_RECORDS_STATE_H
#define ZEIL_RECORDS_STATE_H

#include "records.h"
#include "spin_lock.h"

#include <pthread.h>
#include <stdatomic.h>

typedef struct stats_key {
    ze_command_list_handle_t list; /* set only in the retired table */
    uint64_t stream_id;
    const char *kernel;
    const char *primitive;
    const char *impl;
} stats_key_t;

typedef struct stats_entry {
    UT_hash_handle hh;
    stats_key_t key;
    /* Written by the list's appender alone (a load and a store, no
     * read-modify-write), read by reporters under the state's lock. The
     * hash handle and key before it are a cache line and more; the padding
     * after it keeps the next heap block off its line. */
    _Atomic uint64_t launches;
    uint64_t timed_launches, total_device_ns, max_device_ns;
    char isolated_after[64 - 3 * sizeof(uint64_t)];
} stats_entry_t;

/* What a ring entry keeps of a record: zeil_record_t less what the list's
 * state already says (its handle) and less what only some records have,
 * which the flags say are there; record_load (records_read.c) makes the
 * zeil_record_t back. A cached plain launch points at its description
 * (RECORD_HAS_DESC), so it makes 9 stores (the two versions included), not 26. */
enum {
    RECORD_HAS_BYTES = 1, /* copies and fills */
    RECORD_HAS_SIGNAL = 2,
    RECORD_HAS_DEVICE_TIMES = 4, /* ZEIL_TIMING, once known */
    RECORD_HAS_DESC = 8,         /* a cached plain launch: desc, not the fields it holds */
};

/* What the records of a cached plain launch share (records_add_plain_launch):
 * its kernel, stream, attribution and group size, interned (records_launch_desc.c),
 * so that each such record points at it instead of copying nine fields.
 * Immutable and never freed: a record may point at it for as long as the
 * ring keeps the record, and a reader copying a torn slot may still look. */
typedef struct records_launch_desc {
    zo_launch_shared_t shared; /* the key, hashed as bytes; what a traced
                                  launch hands the trace (zo_trace_launch) */
    UT_hash_handle hh;
} records_launch_desc_t;

/* The interned description of these fields (key: shared, zero included);
 * null when memory ran out. Takes a lock: made on the
 * launch path only when a cached launch's description changes. */
const records_launch_desc_t *records_launch_desc_of(const records_launch_desc_t *key);

/* The word that says what the record is: thread, flags, wait events, kind. */
static inline uint64_t record_word(uint32_t thread, unsigned flags, uint32_t waits,
                                   zeil_record_kind_t kind)
{
    return (uint64_t)thread << 32 | flags << 16 | waits << 8 | (uint32_t)kind;
}
#define RECORD_WORD_THREAD(w) ((uint32_t)((w) >> 32))
#define RECORD_WORD_FLAGS(w) ((unsigned)((w) >> 16) & 0xffu)
#define RECORD_WORD_WAITS(w) ((uint32_t)((w) >> 8) & 0xffu)
#define RECORD_WORD_KIND(w) ((zeil_record_kind_t)((w)&0xffu))

typedef struct ring_record {
    uint64_t seq;
    uint64_t host_ns;
    uint64_t word; /* record_word() */
    const char *call;
    const char *kernel, *module_origin;
    uint64_t stream_id;
    const char *primitive, *impl, *memory_args;
    uint64_t group_count_xy; /* group_count[0..1], as in memory */
    uint32_t group_count_z;
    uint32_t group_size[3];
    /* RECORD_HAS_DESC: in place of kernel, module_origin, stream_id,
     * primitive, impl, memory_args and group_size, which it is not written
     * with. Null or a description, never anything else: a reader copying
     * while the slot is rewritten may follow it. */
    const records_launch_desc_t *desc;
    /* Only when the flags say so. */
    uint64_t bytes;
    ze_event_handle_t signal_event;
    uint64_t device_start_ns, device_end_ns;
} ring_record_t;

/* One ring entry. version is the entry's seqlock: 2i + 1 while the i-th
 * record of the list (from 0) is written into it, 2i + 2 once it is there;
 * a reader that wants the i-th record copies it between two loads of
 * version and keeps the copy only if both were 2i + 2. */
typedef struct ring_slot {
    _Atomic uint64_t version;
    ring_record_t record;
    ze_event_handle_t waits[ZEIL_RECORD_WAIT_EVENTS];
} ring_slot_t;

/* A record's fields are written one by one as release stores and read as
 * acquire loads: a reader may copy a slot while the writer fills it. Each
 * store is then ordered after the writer's odd version, and each load before
 * the reader's second look at the version: a reader that saw any field of a
 * newer record sees the version moved and drops its copy. No fence is
 * needed (ThreadSanitizer could not follow one), and on x86-64 each is a
 * plain load or store. */
#define RECORD_PUT(field, value) __atomic_store_n(&(field), (value), __ATOMIC_RELEASE)
#define RECORD_GET(field) __atomic_load_n(&(field), __ATOMIC_ACQUIRE)

/* The record in *slot as a zeil_record_t of the list (wait_events null). */
void record_load(const zeil_list_state_t *state, const ring_slot_t *slot, zeil_record_t *to);

/*
 * A list's records. Appends to one list come from one thread at a time (the
 * spec): that thread is the ring's only writer and takes no lock. Readers
 * (zeil.h iteration, reports) copy entries under the seqlock of each and
 * never block it. The lock serialises what is not the append itself: making
 * the ring, a new counter key, readers of the counters, and, on lists with
 * ZEIL_TIMING (locked_writes), every write, since the collector of device
 * times writes records too.
 */
struct zeil_list_state {
    /* Read by all, written rarely (the lock: by new counter keys and their
     * readers; the links: when lists come and go). At least a cache line,
     * so that what the writer writes below shares no line with whatever the
     * heap put before the state. */
    spin_lock_t lock;  /* records_lock() */
    int locked_writes; /* a second writer: ZEIL_TIMING */
    ze_command_list_handle_t list;
    zeil_obj_t *obj;
    uint32_t capacity;
    size_t ring_bytes; /* capacity * sizeof (ring_slot_t) */
    stats_entry_t *stats;
    struct records_timing *timing;  /* ZEIL_TIMING, lazily */
    zeil_list_state_t *prev, *next; /* all live states */
    void *ring_block;               /* what ring was allocated in */
    /* Written by the list's writer on every record. */
    ring_slot_t *_Atomic ring; /* capacity entries, lazily */
    size_t next_offset;        /* total % capacity * sizeof (ring_slot_t):
                                  the next slot, found without a
                                  multiplication on the launch path */
    _Atomic uint64_t total;    /* ever recorded (writer's store) */
    uint64_t last_seq;         /* the writer's last key */
    stats_entry_t *last_stats; /* a loop launches the same kernel */
    char isolated_after[64];   /* from whatever the heap puts after */
};

/* The state's lock (spin_lock.h): uncontended but for a reader of the
 * counters. */
static inline void records_lock(zeil_list_state_t *state)
{
    spin_lock(&state->lock);
}

static inline void records_unlock(zeil_list_state_t *state)
{
    spin_unlock(&state->lock);
}

/* The live states, for iteration by stream and for the counters. */
extern pthread_mutex_t records_states_lock;
extern zeil_list_state_t *records_states;

/* By the list's writer: counts a launch under its key; -1 when a new key
 * found no memory (the launch is not counted). A loop launches the same
 * kernel under the same attribution: that case is inline and lock-free; a
 * new key takes the lock to change the table (unless the caller holds it:
 * locked). */
int records_count_launch_keyed(zeil_list_state_t *state, const stats_key_t *key, int locked);

static inline int stats_key_is(const stats_key_t *key, uint64_t stream_id, const char *kernel,
                               const char *primitive, const char *impl)
{
    return key->kernel == kernel && key->stream_id == stream_id && key->primitive == primitive &&
           key->impl == impl;
}

/* By the entry's one writer: a load and a store. */
static inline void stats_count_one(stats_entry_t *e)
{
    atomic_store_explicit(&e->launches,
                          atomic_load_explicit(&e->launches, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

static inline int records_count_launch(zeil_list_state_t *state, uint64_t stream_id,
                                       const char *kernel, const char *primitive, const char *impl,
                                       int locked)
{
    stats_entry_t *last = state->last_stats;
    if (__builtin_expect(last && stats_key_is(&last->key, stream_id, kernel, primitive, impl), 1)) {
        stats_count_one(last);
        return 0;
    }
    stats_key_t key = {NULL, stream_id, kernel, primitive, impl};
    return records_count_launch_keyed(state, &key, locked);
}
/* Under state->lock: adds device time to the launch's counters. */
void records_count_device_time(zeil_list_state_t *state, const zeil_record_t *record);
/* Under records_states_lock and state->lock: keeps the list's counters after
 * it is gone. Returns the launches whose counters could not be kept. */
uint64_t records_retire_stats(zeil_list_state_t *state);

/* The ring's one writer (records_ring.c, records_plain_launch.h). */

/* The order key of the list's next record: seq, unless the list came from
 * another thread with no numbered call in between, whose keys could then go
 * back (they order by thread under one number): one number of its own keeps
 * each list's records in order. */
static inline uint64_t list_key(zeil_list_state_t *state, uint64_t seq)
{
    if (__builtin_expect(seq <= state->last_seq, 0))
        seq = calls_take_number() << ZEIL_RECORD_SEQ_SHIFT;
    state->last_seq = seq;
    return seq;
}

/* The slot the list's next record goes to, with its version odd: the caller
 * fills it and then calls slot_done. */
static inline ring_slot_t *slot_begin(zeil_list_state_t *state, ring_slot_t *ring, uint64_t *index)
{
    ring_slot_t *slot = (ring_slot_t *)(void *)((char *)ring + state->next_offset);
    *index = atomic_load_explicit(&state->total, memory_order_relaxed);
    atomic_store_explicit(&slot->version, 2 * *index + 1, memory_order_relaxed);
    return slot;
}

static inline void slot_done(zeil_list_state_t *state, ring_slot_t *slot, uint64_t index)
{
    atomic_store_explicit(&slot->version, 2 * index + 2, memory_order_release);
    atomic_store_explicit(&state->total, index + 1, memory_order_release);
    size_t next = state->next_offset + sizeof *slot;
    state->next_offset = next == state->ring_bytes ? 0 : next;
}

#endif
