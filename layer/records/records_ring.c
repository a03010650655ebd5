/* The per-list ring of submission records: making it, and its one writer
 * (records_read.c reads it under each entry's seqlock). */
#include "records_plain_launch.h"

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
    state->ring_bytes = (size_t)state->capacity * sizeof(ring_slot_t);
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

/* The plain launch the fast path (records_plain_launch.h) leaves to the
 * general one: the list's first (no ring yet), one whose thread ran out of
 * unnumbered keys (calls.h: once in 1023), one whose description changed or
 * is not made yet. */
static void plain_launch_general(launch_cache_t *cached, const ze_group_count_t *groups,
                                 const zeil_call_t *call)
{
    zeil_submission_t s = {ZEIL_RECORD_LAUNCH, call, cached->kernel, groups, 0, NULL, 0, NULL};
    records_add_held(cached->records, cached->list, &s);
}

/* The same, and the entry's description made anew from what the record
 * just made was made from (when the ring, the counter and the description
 * could be had, and the attribution is interned; else the next launch comes
 * here again). */
static void plain_launch_describe(calls_thread_t *t, launch_cache_t *cached,
                                  const ze_group_count_t *groups, const zeil_call_t *call)
{
    cached->attribution = &records_undescribed;
    cached->desc = NULL;
    const zeil_obj_t *kernel = cached->kernel;
    /* The epoch before the size it stands for (registry_set_group_size). */
    uint32_t epoch = atomic_load_explicit(&kernel->group_size_epoch, memory_order_acquire);
    plain_launch_general(cached, groups, call);
    zeil_list_state_t *state = cached->records;
    const zeil_attribution_t *attr = t->attribution;
    if (!atomic_load_explicit(&state->ring, memory_order_relaxed) || !state->last_stats ||
        !records_attribution_interned(attr))
        return;
    records_launch_desc_t key;
    memset(&key, 0, sizeof key); /* hashed as bytes */
    zo_launch_shared_t *k = &key.shared;
    k->kernel = kernel->name;
    k->module_origin = kernel->origin;
    k->stream_id = attr && attr->stream_id
                       ? attr->stream_id
                       : atomic_load_explicit(&cached->list->stream_id, memory_order_relaxed);
    k->primitive = attr ? attr->primitive : NULL;
    k->impl = attr ? attr->impl : NULL;
    k->memory_args = attr ? attr->memory_args : NULL;
    for (int d = 0; d < 3; d++)
        k->group_size[d] = atomic_load_explicit(&kernel->group_size[d], memory_order_relaxed);
    stats_entry_t *stats = state->last_stats; /* the record's, just counted */
    if (!stats_key_is(&stats->key, k->stream_id, k->kernel, k->primitive, k->impl))
        return;
    const records_launch_desc_t *desc = records_launch_desc_of(&key);
    if (!desc)
        return;
    cached->group_size_epoch = epoch;
    /* The thread has its number: the record took a key. */
    cached->word = record_word(t->number, RECORD_HAS_DESC, 0, ZEIL_RECORD_LAUNCH);
    cached->stats = stats;
    cached->desc = desc;
    cached->attribution = attr;
}

ze_result_t records_plain_launch_in_general(launch_cache_t *cached, const ze_group_count_t *groups,
                                            const char *call_name)
{
    const zeil_call_t call = {call_name, 0, 0, NULL};
    plain_launch_general(cached, groups, &call);
    return ZE_RESULT_SUCCESS;
}

ze_result_t records_plain_launch_described(calls_thread_t *t, launch_cache_t *cached,
                                           const ze_group_count_t *groups, const char *call_name)
{
    const zeil_call_t call = {call_name, 0, 0, t};
    plain_launch_describe(t, cached, groups, &call);
    return ZE_RESULT_SUCCESS;
}

void records_timed_launch_in_general(launch_cache_t *cached, const ze_group_count_t *groups,
                                     const zeil_call_t *call)
{
    plain_launch_general(cached, groups, call);
}

void records_timed_launch_described(calls_thread_t *t, launch_cache_t *cached,
                                    const ze_group_count_t *groups, const zeil_call_t *call)
{
    plain_launch_describe(t, cached, groups, call);
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
