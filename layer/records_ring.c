/* The per-list ring of submission records (one writer, seqlock readers) and
 * its iteration. */
#include "records_state.h"

#include "calls.h"
#include "env.h"
#include "host_clock.h"
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
    return host_clock_coarse_ns();
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

/* A record's fields are written one by one as release stores and read as
 * acquire loads: a reader may copy a slot while the writer fills it. Each
 * store is then ordered after the writer's odd version, and each load before
 * the reader's second look at the version: a reader that saw any field of a
 * newer record sees the version moved and drops its copy. No fence is
 * needed (ThreadSanitizer could not follow one), and on x86-64 each is a
 * plain load or store. */
#define PUT(field, value) __atomic_store_n(&(field), (value), __ATOMIC_RELEASE)
#define GET(field) __atomic_load_n(&(field), __ATOMIC_ACQUIRE)

static void record_load(const zeil_record_t *from, zeil_record_t *to)
{
    to->seq = GET(from->seq);
    to->kind = GET(from->kind);
    to->call = GET(from->call);
    to->list = GET(from->list);
    to->stream_id = GET(from->stream_id);
    to->kernel = GET(from->kernel);
    to->module_origin = GET(from->module_origin);
    to->primitive = GET(from->primitive);
    to->impl = GET(from->impl);
    to->memory_args = GET(from->memory_args);
    for (int d = 0; d < 3; d++) {
        to->group_count[d] = GET(from->group_count[d]);
        to->group_size[d] = GET(from->group_size[d]);
    }
    to->bytes = GET(from->bytes);
    to->signal_event = GET(from->signal_event);
    to->num_wait_events = GET(from->num_wait_events);
    to->wait_events = NULL;
    to->thread = GET(from->thread);
    to->host_ns = GET(from->host_ns);
    to->device_start_ns = GET(from->device_start_ns);
    to->device_end_ns = GET(from->device_end_ns);
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
    record_load(&slot->record, out);
    uint32_t n = out->num_wait_events < ZEIL_RECORD_WAIT_EVENTS ? out->num_wait_events
                                                                : ZEIL_RECORD_WAIT_EVENTS;
    for (uint32_t k = 0; k < n; k++)
        waits[k] = GET(slot->waits[k]);
    if (atomic_load_explicit(&slot->version, memory_order_relaxed) != done)
        return 0;
    out->wait_events = n ? waits : NULL;
    return 1;
}

void records_release(zeil_list_state_t *state)
{
    (void)state; /* nothing held: the writer takes no lock */
}

uint64_t records_add(zeil_obj_t *list, const zeil_submission_t *s)
{
    return records_add_held(records_hold(list), list, s);
}

/* Writes one record; inline in both entries below, so that the plain
 * launch's constants (kind, no events, no bytes) fold away. */
static inline __attribute__((always_inline)) uint64_t
record_write(zeil_list_state_t *state, zeil_obj_t *list, const zeil_submission_t *s, int plain)
{
    /* plain: the caller saw a ring and no second writer. */
    int locked = plain ? 0 : state->locked_writes;
    if (locked)
        records_lock(state);
    const zeil_attribution_t *attr = records_current_attribution();
    uint64_t host_ns = host_ns_of(s);
    uint64_t seq = calls_order_key(s->call);
    uint32_t thread = calls_thread_number();
    /* A list handed to another thread with no numbered call in between could
     * see its keys go back (they order by thread then): one number of its own
     * keeps each list's records in order. */
    if (seq <= state->last_seq)
        seq = calls_take_number() << ZEIL_RECORD_SEQ_SHIFT;
    state->last_seq = seq;
    ring_slot_t *ring = atomic_load_explicit(&state->ring, memory_order_relaxed);
    if (!plain && !ring)
        ring = ring_made(state, locked);
    /* Without a ring the record is built aside: it still counts and traces. */
    int kept = plain || ring != NULL;
    ring_slot_t aside;
    ring_slot_t *slot = kept ? &ring[state->next_slot] : &aside;
    uint64_t index = atomic_load_explicit(&state->total, memory_order_relaxed);
    uint32_t waits = s->num_wait_events < ZEIL_RECORD_WAIT_EVENTS ? s->num_wait_events
                                                                  : ZEIL_RECORD_WAIT_EVENTS;
    if (!s->wait_events)
        waits = 0;
    atomic_store_explicit(&slot->version, 2 * index + 1, memory_order_relaxed);
    zeil_record_t *r = &slot->record;
    /* Every field is written (no memset): the ring slot is reused. */
    PUT(r->seq, seq);
    PUT(r->kind, s->kind);
    PUT(r->call, s->call->name);
    PUT(r->list, state->list);
    PUT(r->stream_id, attr && attr->stream_id
                          ? attr->stream_id
                          : atomic_load_explicit(&list->stream_id, memory_order_relaxed));
    zeil_obj_t *kernel = (zeil_obj_t *)s->kernel;
    PUT(r->kernel, kernel ? kernel->name : NULL);
    PUT(r->module_origin, kernel ? kernel->origin : NULL);
    PUT(r->primitive, attr ? attr->primitive : NULL);
    PUT(r->impl, attr ? attr->impl : NULL);
    PUT(r->memory_args, attr ? attr->memory_args : NULL);
    const ze_group_count_t *groups = s->group_count;
    PUT(r->group_count[0], groups ? groups->groupCountX : 0);
    PUT(r->group_count[1], groups ? groups->groupCountY : 0);
    PUT(r->group_count[2], groups ? groups->groupCountZ : 0);
    if (kernel) {
        PUT(r->group_size[0], atomic_load_explicit(&kernel->group_size[0], memory_order_relaxed));
        PUT(r->group_size[1], atomic_load_explicit(&kernel->group_size[1], memory_order_relaxed));
        PUT(r->group_size[2], atomic_load_explicit(&kernel->group_size[2], memory_order_relaxed));
    } else {
        PUT(r->group_size[0], 0);
        PUT(r->group_size[1], 0);
        PUT(r->group_size[2], 0);
    }
    PUT(r->bytes, s->bytes);
    PUT(r->signal_event, s->signal_event);
    PUT(r->num_wait_events, waits);
    PUT(r->wait_events, NULL); /* set when shown */
    PUT(r->thread, thread);
    PUT(r->host_ns, host_ns);
    PUT(r->device_start_ns, 0);
    PUT(r->device_end_ns, 0);
    for (uint32_t k = 0; k < waits; k++)
        PUT(slot->waits[k], s->wait_events[k]);
    atomic_store_explicit(&slot->version, 2 * index + 2, memory_order_release);
    if (kept) {
        atomic_store_explicit(&state->total, index + 1, memory_order_release);
        state->next_slot = state->next_slot + 1 == state->capacity ? 0 : state->next_slot + 1;
    }
    if (s->kind == ZEIL_RECORD_LAUNCH && records_count_launch(state, r, locked) != 0)
        kept = 0;
    if (zo_trace_enabled()) {
        /* Shown from the slot, not copied: this thread is its only writer. */
        zeil_record_t shown = *r;
        shown.wait_events = waits ? slot->waits : NULL;
        zo_trace_submission(&shown);
    }
    if (locked)
        records_unlock(state);
    if (!kept)
        oom_dropped(OOM_RECORD, 1, s->call->name, "recording a submission");
    return seq;
}

/* What no record can be made for: counted as dropped. */
static uint64_t record_lost(zeil_obj_t *list, const zeil_call_t *call)
{
    /* A null list is one zeil could not register (or no list at all). */
    if (list || oom_registry_incomplete())
        oom_dropped(OOM_RECORD, 1, call->name, "recording a submission");
    return 0;
}

uint64_t records_add_held(zeil_list_state_t *state, zeil_obj_t *list,
                          const zeil_submission_t *s)
{
    if (!list || !state)
        return record_lost(list, s->call);
    return record_write(state, list, s, 0);
}

/* Outside the fast path below, so that its own submission never escapes and
 * its constant fields fold away there. */
static __attribute__((noinline)) uint64_t
first_plain_launch(zeil_list_state_t *state, zeil_obj_t *list, const zeil_obj_t *kernel,
                   const ze_group_count_t *groups, const char *call_name)
{
    const zeil_call_t call = {call_name, 0, 0};
    zeil_submission_t s = {ZEIL_RECORD_LAUNCH, &call, kernel, groups, 0, NULL, 0, NULL};
    return records_add_held(state, list, &s);
}

uint64_t records_add_plain_launch(zeil_list_state_t *state, zeil_obj_t *list,
                                  const zeil_obj_t *kernel, const ze_group_count_t *groups,
                                  const char *call_name)
{
    if (__builtin_expect(!state || state->locked_writes ||
                             !atomic_load_explicit(&state->ring, memory_order_relaxed),
                         0))
        return first_plain_launch(state, list, kernel, groups, call_name); /* or none */
    /* Untimed and unnumbered. */
    const zeil_call_t call = {call_name, 0, 0};
    zeil_submission_t s = {ZEIL_RECORD_LAUNCH, &call, kernel, groups, 0, NULL, 0, NULL};
    return record_write(state, list, &s, 1);
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
        zeil_record_t *r = &slot->record;
        if (r->seq == seq) {
            atomic_store_explicit(&slot->version, 2 * index + 1, memory_order_relaxed);
            PUT(r->device_start_ns, start_ns);
            PUT(r->device_end_ns, end_ns);
            atomic_store_explicit(&slot->version, 2 * index + 2, memory_order_release);
            records_count_device_time(state, r);
            if (zo_trace_enabled())
                zo_trace_device_times(seq, start_ns, end_ns);
            break;
        }
        if (r->seq < seq)
            break;
    }
    records_unlock(state);
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
    ze_event_handle_t (*waits)[ZEIL_RECORD_WAIT_EVENTS] = NULL;
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
