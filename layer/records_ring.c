/* The per-list ring of submission records and its iteration. */
#include "records_state.h"

#include "calls.h"
#include "env.h"
#include "out_of_memory.h"

#ifdef ZEIL_HAVE_OUTPUT
#include "zeil_output.h"
#endif

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

pthread_mutex_t records_states_lock = PTHREAD_MUTEX_INITIALIZER;
zeil_list_state_t *records_states;

void records_list_created(const zeil_call_t *call, zeil_obj_t *list)
{
    zeil_list_state_t *state = calloc(1, sizeof *state);
    if (!state) {
        oom_dropped(OOM_OTHER, 1, call->name, "making a command list's record state");
        return;
    }
    state->list = (ze_command_list_handle_t)list->handle;
    state->obj = list;
    state->capacity = zeil_settings()->records;
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
    pthread_mutex_unlock(&records_states_lock);
    free(state->ring);
    free(state->ring_waits);
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
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Under state->lock: the ring, made at the list's first submission (and
 * tried again at the next one when memory ran out). */
static int ring_ready(zeil_list_state_t *state)
{
    if (state->ring)
        return 1;
    zeil_record_t *ring = calloc(state->capacity, sizeof *ring);
    ze_event_handle_t(*waits)[ZEIL_RECORD_WAIT_EVENTS] = calloc(state->capacity, sizeof *waits);
    if (!ring || !waits) {
        free(ring);
        free(waits);
        return 0;
    }
    state->ring = ring;
    state->ring_waits = waits;
    return 1;
}

zeil_list_state_t *records_hold(zeil_obj_t *list)
{
    zeil_list_state_t *state = list ? list->records : NULL;
    if (state)
        records_lock(state);
    return state;
}

void records_release(zeil_list_state_t *state)
{
    if (state)
        records_unlock(state);
}

uint64_t records_add(zeil_obj_t *list, const zeil_submission_t *s)
{
    return records_add_held(records_hold(list), list, s);
}

uint64_t records_add_held(zeil_list_state_t *state, zeil_obj_t *list,
                          const zeil_submission_t *s)
{
    if (!list) { /* a list zeil could not register, or no list at all */
        if (oom_registry_incomplete())
            oom_dropped(OOM_RECORD, 1, s->call->name, "recording a submission");
        return 0;
    }
    if (!state) {
        oom_dropped(OOM_RECORD, 1, s->call->name, "recording a submission");
        return 0;
    }
    const zeil_attribution_t *attr = records_current_attribution();
    uint64_t host_ns = host_ns_of(s);
    uint32_t thread = calls_thread_number();
    /* The call's number: process-wide and increasing like a counter of its
     * own, without a second shared atomic on the launch path. */
    uint64_t seq = s->call->number;
    /* Without a ring the record is built aside: it still counts and traces. */
    int kept = ring_ready(state);
    zeil_record_t aside;
    uint32_t slot = state->next_slot;
    zeil_record_t *r = kept ? &state->ring[slot] : &aside;
    uint32_t waits = s->num_wait_events < ZEIL_RECORD_WAIT_EVENTS ? s->num_wait_events
                                                                  : ZEIL_RECORD_WAIT_EVENTS;
    if (!s->wait_events)
        waits = 0;
    const ze_event_handle_t *wait_events = kept ? state->ring_waits[slot] : s->wait_events;
    if (kept && waits)
        memcpy(state->ring_waits[slot], s->wait_events, waits * sizeof(ze_event_handle_t));
    /* Every field is written (no memset): the ring slot is reused. */
    r->seq = seq;
    r->kind = s->kind;
    r->call = s->call->name;
    r->list = state->list;
    r->stream_id = attr && attr->stream_id
                       ? attr->stream_id
                       : atomic_load_explicit(&list->stream_id, memory_order_relaxed);
    const zeil_obj_t *kernel = s->kernel;
    r->kernel = kernel ? kernel->name : NULL;
    r->module_origin = kernel ? kernel->origin : NULL;
    r->primitive = attr ? attr->primitive : NULL;
    r->impl = attr ? attr->impl : NULL;
    r->memory_args = attr ? attr->memory_args : NULL;
    const ze_group_count_t *groups = s->group_count;
    r->group_count[0] = groups ? groups->groupCountX : 0;
    r->group_count[1] = groups ? groups->groupCountY : 0;
    r->group_count[2] = groups ? groups->groupCountZ : 0;
    for (int d = 0; d < 3; d++)
        r->group_size[d] = kernel ? atomic_load_explicit(&((zeil_obj_t *)kernel)->group_size[d],
                                                         memory_order_relaxed)
                                  : 0;
    r->bytes = s->bytes;
    r->signal_event = s->signal_event;
    r->num_wait_events = waits;
    r->wait_events = NULL; /* set when shown (retained_record) */
    r->thread = thread;
    r->host_ns = host_ns;
    r->device_start_ns = 0;
    r->device_end_ns = 0;
    if (kept) {
        state->next_slot = slot + 1 == state->capacity ? 0 : slot + 1;
        state->total++;
    }
    if (r->kind == ZEIL_RECORD_LAUNCH && records_count_launch(state, r) != 0)
        kept = 0;
#ifdef ZEIL_HAVE_OUTPUT
    if (zo_trace_enabled()) {
        /* Shown in place (under the lock), not copied: a record is 144 bytes. */
        r->wait_events = waits ? wait_events : NULL;
        zo_trace_submission(r);
        r->wait_events = NULL;
    }
#else
    (void)wait_events;
#endif
    records_unlock(state);
    if (!kept)
        oom_dropped(OOM_RECORD, 1, s->call->name, "recording a submission");
    return seq;
}

void records_set_device_times(zeil_list_state_t *state, uint64_t seq, uint64_t start_ns,
                              uint64_t end_ns)
{
    records_lock(state);
    uint64_t retained = state->total < state->capacity ? state->total : state->capacity;
    for (uint64_t i = 0; state->ring && i < retained; i++) {
        zeil_record_t *r = &state->ring[(state->total - 1 - i) % state->capacity];
        if (r->seq == seq) {
            r->device_start_ns = start_ns;
            r->device_end_ns = end_ns;
            records_count_device_time(state, r);
#ifdef ZEIL_HAVE_OUTPUT
            if (zo_trace_enabled())
                zo_trace_device_times(seq, start_ns, end_ns);
#endif
            break;
        }
        if (r->seq < seq)
            break;
    }
    records_unlock(state);
}

/* Under state->lock: the i-th retained record, oldest first, ready to show. */
static const zeil_record_t *retained_record(zeil_list_state_t *state, uint64_t i,
                                            zeil_record_t *out)
{
    uint64_t retained = state->total < state->capacity ? state->total : state->capacity;
    uint32_t slot = (uint32_t)((state->total - retained + i) % state->capacity);
    *out = state->ring[slot];
    out->wait_events = out->num_wait_events ? state->ring_waits[slot] : NULL;
    return out;
}

size_t zeil_records_of_list(ze_command_list_handle_t list, zeil_record_fn fn, void *user)
{
    zeil_obj_t *obj = registry_find(list);
    if (!obj || obj->kind != ZEIL_KIND_COMMAND_LIST)
        return 0;
    size_t visited = 0;
    pthread_mutex_lock(&records_states_lock);
    zeil_list_state_t *state = atomic_load(&obj->alive) ? obj->records : NULL;
    if (state) {
        records_lock(state);
        uint64_t retained = state->total < state->capacity ? state->total : state->capacity;
        for (uint64_t i = 0; state->ring && i < retained; i++) {
            zeil_record_t copy;
            visited++;
            if (fn && fn(retained_record(state, i, &copy), user))
                break;
        }
        records_unlock(state);
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
    if (state) {
        records_lock(state);
        total = state->total;
        records_unlock(state);
    }
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
    ze_event_handle_t (*waits)[ZEIL_RECORD_WAIT_EVENTS] = NULL;
    pthread_mutex_lock(&records_states_lock);
    for (zeil_list_state_t *s = records_states; s && !truncated; s = s->next) {
        records_lock(s);
        uint64_t retained = s->total < s->capacity ? s->total : s->capacity;
        for (uint64_t i = 0; s->ring && i < retained; i++) {
            zeil_record_t r;
            retained_record(s, i, &r);
            if (r.stream_id != stream_id)
                continue;
            if (count == capacity && grow_copies(&all, &waits, &capacity) != 0) {
                truncated = 1;
                break;
            }
            if (r.num_wait_events)
                memcpy(waits[count], r.wait_events, r.num_wait_events * sizeof(ze_event_handle_t));
            all[count++] = r;
        }
        records_unlock(s);
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
