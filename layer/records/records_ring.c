/* The per-list ring of submission records: making it, and its one writer
 * (records_read.c reads it under each entry's seqlock). */
#include "records_state.h"

#include "calls.h"
#include "env.h"
#include "coarse_clock.h"
#include "out_of_memory.h"

#include "zeil_output.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

pthread_mutex_t records_states_lock = PTHREAD_MUTEX_INITIALIZER;
zeil_list_state_t *records_states;

/* What a list's writer writes may share no cache line with another list's
 * (another thread's): states are laid out for that (records_state.h), and a
 * ring gets a line of padding at each end. calloc, not aligned_alloc, which
 * leaves the heap split around its blocks. */
#define RING_PADDING 64u

/* States of destroyed lists, kept for the next lists (under
 * records_states_lock): a program that makes and destroys lists in a loop
 * takes no allocation for them, and zeil gives the C heap no block back
 * right after the driver freed its list there (which glibc would hand out
 * before the driver's own block, changing what the driver's next list gets). */
#define SPARE_STATES 16
static zeil_list_state_t *spare_states;
static unsigned spare_count;

static zeil_list_state_t *state_new(void)
{
    pthread_mutex_lock(&records_states_lock);
    zeil_list_state_t *state = spare_states;
    if (state) {
        spare_states = state->next;
        spare_count--;
    }
    pthread_mutex_unlock(&records_states_lock);
    if (!state)
        return calloc(1, sizeof *state);
    memset(state, 0, sizeof *state);
    return state;
}

void records_list_created(const zeil_call_t *call, zeil_obj_t *list)
{
    coarse_clock_init(); /* before the list's first record */
    zeil_list_state_t *state = state_new();
    if (!state) {
        oom_dropped(OOM_OTHER, 1, call->name, "making a command list's record state");
        return;
    }
    state->list = (ze_command_list_handle_t)list->handle;
    state->obj = list;
    state->capacity = zeil_settings()->records;
    /* The collector of device times (timing.h) writes records of such lists
     * from other threads. */
    state->locked_writes = zeil_settings()->timing && list->is_immediate;
    pthread_mutex_lock(&records_states_lock);
    state->next = records_states;
    if (records_states)
        records_states->prev = state;
    records_states = state;
    list->records = state;
    pthread_mutex_unlock(&records_states_lock);
}

void records_list_destroyed(zeil_list_state_t *state)
{
    if (!state)
        return;
    pthread_mutex_lock(&records_states_lock);
    if (state->prev)
        state->prev->next = state->next;
    else
        records_states = state->next;
    if (state->next)
        state->next->prev = state->prev;
    state->obj->records = NULL;
    records_lock(state);
    uint64_t lost = records_retire_stats(state);
    records_unlock(state);
    void *ring = state->ring_block;
    int kept = spare_count < SPARE_STATES;
    if (kept) {
        state->next = spare_states;
        spare_states = state;
        spare_count++;
    }
    pthread_mutex_unlock(&records_states_lock);
    free(ring);
    if (!kept)
        free(state);
    oom_dropped(OOM_RECORD, lost, "zeCommandListDestroy",
                "keeping a destroyed command list's kernel counters");
}

/* The host time of a record. A precise CLOCK_MONOTONIC read costs 70 ns or
 * more on virtual machines (a trapped or slow rdtsc), more than all the rest
 * of a launch: when the call was not timed anyway (trace or calls log), the
 * record takes the coarse clock (same time base, to the kernel tick). */
static uint64_t host_ns_of(const zeil_submission_t *s)
{
    if (s->call->start_ns)
        return s->call->start_ns;
    return coarse_clock_coarse_ns();
}

/* The ring, made at the list's first submission (and tried again at the
 * next one when memory ran out); locked: the caller holds the lock. */
static ring_slot_t *ring_made(zeil_list_state_t *state, int locked)
{
    if (!locked)
        records_lock(state);
    ring_slot_t *ring = atomic_load_explicit(&state->ring, memory_order_relaxed);
    if (!ring) {
        char *block = calloc(1, (size_t)state->capacity * sizeof *ring + 2 * RING_PADDING);
        if (block) {
            state->ring_block = block;
            ring = (ring_slot_t *)(void *)(block + RING_PADDING);
            atomic_store_explicit(&state->ring, ring, memory_order_release);
        }
    }
    if (!locked)
        records_unlock(state);
    return ring;
}

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
    ring_slot_t *slot = &ring[state->next_slot];
    *index = atomic_load_explicit(&state->total, memory_order_relaxed);
    atomic_store_explicit(&slot->version, 2 * *index + 1, memory_order_relaxed);
    return slot;
}

static inline void slot_done(zeil_list_state_t *state, ring_slot_t *slot, uint64_t index)
{
    atomic_store_explicit(&slot->version, 2 * index + 2, memory_order_release);
    atomic_store_explicit(&state->total, index + 1, memory_order_release);
    state->next_slot = state->next_slot + 1 == state->capacity ? 0 : state->next_slot + 1;
}

/* Every field is written (no memset: the slot is reused) but those the flags
 * leave out. */
static void slot_put(ring_slot_t *slot, const zeil_record_t *r)
{
    ring_record_t *to = &slot->record;
    unsigned flags = (r->bytes ? RECORD_HAS_BYTES : 0) | (r->signal_event ? RECORD_HAS_SIGNAL : 0);
    RECORD_PUT(to->seq, r->seq);
    RECORD_PUT(to->host_ns, r->host_ns);
    RECORD_PUT(to->word, record_word(r->thread, flags, r->num_wait_events, r->kind));
    RECORD_PUT(to->call, r->call);
    RECORD_PUT(to->kernel, r->kernel);
    RECORD_PUT(to->module_origin, r->module_origin);
    RECORD_PUT(to->stream_id, r->stream_id);
    RECORD_PUT(to->primitive, r->primitive);
    RECORD_PUT(to->impl, r->impl);
    RECORD_PUT(to->memory_args, r->memory_args);
    uint64_t xy;
    memcpy(&xy, r->group_count, sizeof xy);
    RECORD_PUT(to->group_count_xy, xy);
    RECORD_PUT(to->group_count_z, r->group_count[2]);
    for (int d = 0; d < 3; d++)
        RECORD_PUT(to->group_size[d], r->group_size[d]);
    RECORD_PUT(to->bytes, (uint64_t)r->bytes);
    RECORD_PUT(to->signal_event, r->signal_event);
    for (uint32_t k = 0; k < r->num_wait_events; k++)
        RECORD_PUT(slot->waits[k], r->wait_events[k]);
}

/* The record of a submission, as readers will see it. */
static void record_of(zeil_record_t *r, zeil_list_state_t *state, zeil_obj_t *list,
                      const zeil_submission_t *s)
{
    const zeil_attribution_t *attr = records_current_attribution();
    const zeil_obj_t *kernel = s->kernel;
    const ze_group_count_t *groups = s->group_count;
    uint32_t waits =
        s->num_wait_events < ZEIL_RECORD_WAIT_EVENTS ? s->num_wait_events : ZEIL_RECORD_WAIT_EVENTS;
    *r = (zeil_record_t){
        .host_ns = host_ns_of(s),
        .seq = list_key(state, calls_order_key(s->call)),
        .kind = s->kind,
        .call = s->call->name,
        .list = state->list,
        .stream_id = attr && attr->stream_id
                         ? attr->stream_id
                         : atomic_load_explicit(&list->stream_id, memory_order_relaxed),
        .kernel = kernel ? kernel->name : NULL,
        .module_origin = kernel ? kernel->origin : NULL,
        .primitive = attr ? attr->primitive : NULL,
        .impl = attr ? attr->impl : NULL,
        .memory_args = attr ? attr->memory_args : NULL,
        .bytes = s->bytes,
        .signal_event = s->signal_event,
        .num_wait_events = s->wait_events ? waits : 0,
        .wait_events = s->wait_events && waits ? s->wait_events : NULL,
        .thread = calls_thread_number(),
    };
    if (groups) {
        r->group_count[0] = groups->groupCountX;
        r->group_count[1] = groups->groupCountY;
        r->group_count[2] = groups->groupCountZ;
    }
    for (int d = 0; kernel && d < 3; d++)
        r->group_size[d] = atomic_load_explicit(&kernel->group_size[d], memory_order_relaxed);
}

uint64_t records_add(zeil_obj_t *list, const zeil_submission_t *s)
{
    return records_add_held(records_hold(list), list, s);
}

void records_release(zeil_list_state_t *state)
{
    (void)state; /* nothing held: the writer takes no lock */
}

/* What no record can be made for: counted as dropped. */
static uint64_t record_lost(zeil_obj_t *list, const zeil_call_t *call)
{
    /* A null list is one zeil could not register (or no list at all). */
    if (list || oom_registry_incomplete())
        oom_dropped(OOM_RECORD, 1, call->name, "recording a submission");
    return 0;
}

uint64_t records_add_held(zeil_list_state_t *state, zeil_obj_t *list, const zeil_submission_t *s)
{
    if (!list || !state)
        return record_lost(list, s->call);
    int locked = state->locked_writes;
    if (locked)
        records_lock(state);
    zeil_record_t r;
    record_of(&r, state, list, s);
    ring_slot_t *ring = atomic_load_explicit(&state->ring, memory_order_relaxed);
    if (!ring)
        ring = ring_made(state, locked);
    /* Without a ring the record is not kept: it still counts and traces. */
    int kept = ring != NULL;
    if (kept) {
        uint64_t index;
        ring_slot_t *slot = slot_begin(state, ring, &index);
        slot_put(slot, &r);
        slot_done(state, slot, index);
    }
    if (s->kind == ZEIL_RECORD_LAUNCH &&
        records_count_launch(state, r.stream_id, r.kernel, r.primitive, r.impl, locked) != 0)
        kept = 0;
    if (zo_trace_enabled())
        zo_trace_submission(&r);
    if (locked)
        records_unlock(state);
    if (!kept)
        oom_dropped(OOM_RECORD, 1, s->call->name, "recording a submission");
    return r.seq;
}

/* The plain launch the fast path below leaves to the general one: the
 * list's first (no ring yet), or one whose thread ran out of unnumbered keys
 * (calls.h): once in 1023. Apart, so that the fast path keeps nothing
 * across a call but its arguments across the clock's. */
static __attribute__((noinline)) ze_result_t plain_launch_in_general(launch_cache_t *cached,
                                                                     const ze_group_count_t *groups,
                                                                     const char *call_name)
{
    const zeil_call_t call = {call_name, 0, 0, NULL};
    zeil_submission_t s = {ZEIL_RECORD_LAUNCH, &call, cached->kernel, groups, 0, NULL, 0, NULL};
    records_add_held(cached->records, cached->list, &s);
    return ZE_RESULT_SUCCESS;
}

/* A plain launch under a new counter key (or none: out of memory). */
static __attribute__((noinline)) ze_result_t plain_launch_count_keyed(
    zeil_list_state_t *state, uint64_t stream_id, const char *kernel, const char *primitive,
    const char *impl, const char *call_name)
{
    stats_key_t key = {NULL, stream_id, kernel, primitive, impl};
    if (records_count_launch_keyed(state, &key, 0) != 0)
        oom_dropped(OOM_RECORD, 1, call_name, "recording a submission");
    return ZE_RESULT_SUCCESS;
}

/* The record of a plain launch, field by field from what the launch cache
 * holds: its constants (kind, no events, no bytes, no device times) fold
 * away, and what the flags leave out is not written. */
ze_result_t records_add_plain_launch(calls_thread_t *t, launch_cache_t *cached,
                                     const ze_group_count_t *groups, const char *call_name)
{
    /* The clock first: nothing but the arguments is then kept across it. */
    uint64_t host_ns = coarse_clock_coarse_ns();
    zeil_list_state_t *state = cached->records;
    ring_slot_t *ring = atomic_load_explicit(&state->ring, memory_order_relaxed);
    uint64_t g = atomic_load_explicit(&calls_counter.value, memory_order_relaxed);
    uint32_t low = calls_unnumbered_low(t);
    if (__builtin_expect(!ring || !low, 0))
        return plain_launch_in_general(cached, groups, call_name);
    uint64_t seq = list_key(state, g << ZEIL_RECORD_SEQ_SHIFT | low);
    const zeil_obj_t *kernel = cached->kernel;
    const char *kernel_name = kernel->name;
    static const zeil_attribution_t no_attribution;
    const zeil_attribution_t *attr = t->attribution ? t->attribution : &no_attribution;
    uint64_t stream_id = attr->stream_id;
    if (!stream_id)
        stream_id = atomic_load_explicit(&cached->list->stream_id, memory_order_relaxed);
    const char *primitive = attr->primitive, *impl = attr->impl;
    uint64_t index;
    ring_slot_t *slot = slot_begin(state, ring, &index);
    ring_record_t *r = &slot->record;
    RECORD_PUT(r->seq, seq);
    RECORD_PUT(r->host_ns, host_ns);
    /* The thread has its number: it took a key with its thread part. */
    RECORD_PUT(r->word, record_word(t->number, 0, 0, ZEIL_RECORD_LAUNCH));
    RECORD_PUT(r->call, call_name);
    RECORD_PUT(r->kernel, kernel_name);
    RECORD_PUT(r->module_origin, kernel->origin);
    RECORD_PUT(r->stream_id, stream_id);
    RECORD_PUT(r->primitive, primitive);
    RECORD_PUT(r->impl, impl);
    RECORD_PUT(r->memory_args, attr->memory_args);
    uint64_t xy;
    memcpy(&xy, &groups->groupCountX, sizeof xy);
    RECORD_PUT(r->group_count_xy, xy);
    RECORD_PUT(r->group_count_z, groups->groupCountZ);
    RECORD_PUT(r->group_size[0],
               atomic_load_explicit(&kernel->group_size[0], memory_order_relaxed));
    RECORD_PUT(r->group_size[1],
               atomic_load_explicit(&kernel->group_size[1], memory_order_relaxed));
    RECORD_PUT(r->group_size[2],
               atomic_load_explicit(&kernel->group_size[2], memory_order_relaxed));
    slot_done(state, slot, index);
    stats_entry_t *last = state->last_stats;
    if (__builtin_expect(
            !last || !stats_key_is(&last->key, stream_id, kernel_name, primitive, impl), 0))
        return plain_launch_count_keyed(state, stream_id, kernel_name, primitive, impl, call_name);
    stats_count_one(last);
    return ZE_RESULT_SUCCESS;
}

/* Lists with device times are written under the lock only (locked_writes):
 * the lock keeps the appender out, the slot's version the readers. */
void records_set_device_times(zeil_list_state_t *state, uint64_t seq, uint64_t start_ns,
                              uint64_t end_ns)
{
    records_lock(state);
    ring_slot_t *ring = atomic_load_explicit(&state->ring, memory_order_relaxed);
    uint64_t total = atomic_load_explicit(&state->total, memory_order_relaxed);
    uint64_t retained = total < state->capacity ? total : state->capacity;
    for (uint64_t back = 1; ring && back <= retained; back++) {
        uint64_t index = total - back;
        ring_slot_t *slot = &ring[index % state->capacity];
        ring_record_t *r = &slot->record;
        uint64_t slot_seq = RECORD_GET(r->seq);
        if (slot_seq == seq) {
            uint64_t word = RECORD_GET(r->word);
            atomic_store_explicit(&slot->version, 2 * index + 1, memory_order_relaxed);
            RECORD_PUT(r->device_start_ns, start_ns);
            RECORD_PUT(r->device_end_ns, end_ns);
            RECORD_PUT(r->word, word | (uint64_t)RECORD_HAS_DEVICE_TIMES << 16);
            atomic_store_explicit(&slot->version, 2 * index + 2, memory_order_release);
            zeil_record_t shown;
            record_load(state, slot, &shown);
            records_count_device_time(state, &shown);
            if (zo_trace_enabled())
                zo_trace_device_times(seq, start_ns, end_ns);
            break;
        }
        if (slot_seq < seq)
            break;
    }
    records_unlock(state);
}
