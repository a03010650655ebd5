/* Reading the per-list rings (records_ring.c writes them): copies of
 * records under each entry's seqlock, by list and by stream. */
#include "records_state.h"

#include "out_of_memory.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* The fields a cached plain launch's record takes from its description
 * (null only in a slot being rewritten, whose copy is then dropped). */
static void described_load(const records_launch_desc_t *d, zeil_record_t *to)
{
    static const records_launch_desc_t none;
    const zo_launch_shared_t *s = d ? &d->shared : &none.shared;
    to->stream_id = s->stream_id;
    to->kernel = s->kernel;
    to->module_origin = s->module_origin;
    to->primitive = s->primitive;
    to->impl = s->impl;
    to->memory_args = s->memory_args;
    memcpy(to->group_size, s->group_size, sizeof to->group_size);
}

void record_load(const zeil_list_state_t *state, const ring_slot_t *slot, zeil_record_t *to)
{
    const ring_record_t *from = &slot->record;
    uint64_t word = RECORD_GET(from->word);
    unsigned flags = RECORD_WORD_FLAGS(word);
    to->seq = RECORD_GET(from->seq);
    to->kind = RECORD_WORD_KIND(word);
    to->call = RECORD_GET(from->call);
    to->list = state->list;
    if (flags & RECORD_HAS_DESC)
        described_load(RECORD_GET(from->desc), to);
    else {
        to->stream_id = RECORD_GET(from->stream_id);
        to->kernel = RECORD_GET(from->kernel);
        to->module_origin = RECORD_GET(from->module_origin);
        to->primitive = RECORD_GET(from->primitive);
        to->impl = RECORD_GET(from->impl);
        to->memory_args = RECORD_GET(from->memory_args);
        for (int d = 0; d < 3; d++)
            to->group_size[d] = RECORD_GET(from->group_size[d]);
    }
    uint64_t xy = RECORD_GET(from->group_count_xy);
    memcpy(to->group_count, &xy, sizeof xy);
    to->group_count[2] = RECORD_GET(from->group_count_z);
    to->bytes = flags & RECORD_HAS_BYTES ? (size_t)RECORD_GET(from->bytes) : 0;
    to->signal_event = flags & RECORD_HAS_SIGNAL ? RECORD_GET(from->signal_event) : NULL;
    to->num_wait_events = RECORD_WORD_WAITS(word);
    to->wait_events = NULL;
    to->thread = RECORD_WORD_THREAD(word);
    to->host_ns = RECORD_GET(from->host_ns);
    to->device_start_ns = flags & RECORD_HAS_DEVICE_TIMES ? RECORD_GET(from->device_start_ns) : 0;
    to->device_end_ns = flags & RECORD_HAS_DEVICE_TIMES ? RECORD_GET(from->device_end_ns) : 0;
}

/* Copies the list's i-th record (from 0) with its wait events into *out and
 * waits[]; 0 when the ring no longer holds it (overwritten, or being
 * overwritten during the copy). */
static int ring_copy(const zeil_list_state_t *state, const ring_slot_t *ring, uint64_t i,
                     zeil_record_t *out, ze_event_handle_t waits[ZEIL_RECORD_WAIT_EVENTS])
{
    const ring_slot_t *slot = &ring[i % state->capacity];
    uint64_t done = 2 * i + 2;
    if (atomic_load_explicit(&slot->version, memory_order_acquire) != done)
        return 0;
    record_load(state, slot, out);
    uint32_t n = out->num_wait_events < ZEIL_RECORD_WAIT_EVENTS ? out->num_wait_events
                                                                : ZEIL_RECORD_WAIT_EVENTS;
    for (uint32_t k = 0; k < n; k++)
        waits[k] = RECORD_GET(slot->waits[k]);
    if (atomic_load_explicit(&slot->version, memory_order_relaxed) != done)
        return 0;
    out->wait_events = n ? waits : NULL;
    return 1;
}

/* The range of the list's records the ring may still hold: [*first, end). */
static uint64_t retained_range(const zeil_list_state_t *state, uint64_t *first)
{
    uint64_t total = atomic_load_explicit(&state->total, memory_order_acquire);
    *first = total < state->capacity ? 0 : total - state->capacity;
    return total;
}

size_t zeil_records_of_list(ze_command_list_handle_t list, zeil_record_fn fn, void *user)
{
    zeil_obj_t *obj = registry_find(list);
    if (!obj || obj->kind != ZEIL_KIND_COMMAND_LIST)
        return 0;
    size_t visited = 0;
    /* Keeps the state alive (records_list_destroyed), not the writer out. */
    pthread_mutex_lock(&records_states_lock);
    zeil_list_state_t *state = atomic_load(&obj->alive) ? obj->records : NULL;
    const ring_slot_t *ring =
        state ? atomic_load_explicit(&state->ring, memory_order_acquire) : NULL;
    if (ring) {
        uint64_t i, end = retained_range(state, &i);
        for (; i < end; i++) {
            zeil_record_t copy;
            ze_event_handle_t waits[ZEIL_RECORD_WAIT_EVENTS];
            if (!ring_copy(state, ring, i, &copy, waits))
                continue; /* overwritten meanwhile: folded into the counters */
            visited++;
            if (fn && fn(&copy, user))
                break;
        }
    }
    pthread_mutex_unlock(&records_states_lock);
    return visited;
}

uint64_t zeil_submission_count(ze_command_list_handle_t list)
{
    zeil_obj_t *obj = registry_find(list);
    if (!obj || obj->kind != ZEIL_KIND_COMMAND_LIST)
        return 0;
    uint64_t total = 0;
    pthread_mutex_lock(&records_states_lock);
    zeil_list_state_t *state = atomic_load(&obj->alive) ? obj->records : NULL;
    if (state)
        total = atomic_load_explicit(&state->total, memory_order_acquire);
    pthread_mutex_unlock(&records_states_lock);
    return total;
}

static int compare_seq(const void *a, const void *b)
{
    uint64_t x = ((const zeil_record_t *)a)->seq, y = ((const zeil_record_t *)b)->seq;
    return x < y ? -1 : x > y;
}

/* Doubles the copies of zeil_records_of_stream; -1 when out of memory (what
 * was gathered stays). */
static int grow_copies(zeil_record_t **all, ze_event_handle_t (**waits)[ZEIL_RECORD_WAIT_EVENTS],
                       size_t *capacity)
{
    size_t wanted = *capacity ? *capacity * 2 : 64;
    zeil_record_t *grown_all = realloc(*all, wanted * sizeof **all);
    if (!grown_all)
        return -1;
    *all = grown_all;
    ze_event_handle_t(*grown_waits)[ZEIL_RECORD_WAIT_EVENTS] =
        realloc(*waits, wanted * sizeof **waits);
    if (!grown_waits)
        return -1;
    *waits = grown_waits;
    *capacity = wanted;
    return 0;
}

/* A stream's records may be spread over several lists: gather copies (with
 * their wait events), sort by sequence number, then visit. Out of memory it
 * visits the records it could gather. */
size_t zeil_records_of_stream(uint64_t stream_id, zeil_record_fn fn, void *user)
{
    if (!stream_id)
        return 0;
    size_t count = 0, capacity = 0;
    int truncated = 0;
    zeil_record_t *all = NULL;
    ze_event_handle_t(*waits)[ZEIL_RECORD_WAIT_EVENTS] = NULL;
    pthread_mutex_lock(&records_states_lock);
    for (zeil_list_state_t *s = records_states; s && !truncated; s = s->next) {
        const ring_slot_t *ring = atomic_load_explicit(&s->ring, memory_order_acquire);
        if (!ring)
            continue;
        uint64_t i, end = retained_range(s, &i);
        for (; i < end; i++) {
            zeil_record_t r;
            ze_event_handle_t copied[ZEIL_RECORD_WAIT_EVENTS];
            if (!ring_copy(s, ring, i, &r, copied) || r.stream_id != stream_id)
                continue;
            if (count == capacity && grow_copies(&all, &waits, &capacity) != 0) {
                truncated = 1;
                break;
            }
            if (r.num_wait_events)
                memcpy(waits[count], r.wait_events, r.num_wait_events * sizeof(ze_event_handle_t));
            all[count++] = r;
        }
    }
    pthread_mutex_unlock(&records_states_lock);
    if (truncated)
        oom_dropped(OOM_OTHER, 1, "zeil_records_of_stream", "listing a stream's records");
    /* Sorting moves records away from their wait arrays: remember the index. */
    for (size_t i = 0; i < count; i++)
        all[i].wait_events = (const ze_event_handle_t *)(uintptr_t)i;
    if (count)
        qsort(all, count, sizeof *all, compare_seq);
    size_t visited = 0;
    for (size_t i = 0; i < count; i++) {
        size_t k = (size_t)(uintptr_t)all[i].wait_events;
        all[i].wait_events = all[i].num_wait_events ? waits[k] : NULL;
        visited++;
        if (fn && fn(&all[i], user))
            break;
    }
    free(all);
    free(waits);
    return visited;
}
