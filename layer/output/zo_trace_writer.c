/* zo_trace_writer.c: ring → trace file (see zo_trace_writer.h). */
#include "zo_trace_writer.h"
#include "zo_now.h"
#include "zo_file.h"
#include "zo_hash.h"
#include "zo_launch_text.h"
#include "zo_ring.h"
#include "zo_trace_flows.h"
#include "zo_trace_format.h"

#include <zeil/zeil.h>

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* ---- state, all owned by whoever holds the drain lock ---- */

#define CHUNK_BYTES (64 * 1024)
#define EVENT_MAX_BYTES 4096   /* an event is far smaller: strings are bounded */
#define MAX_TRACKS 256         /* device tracks; the last one collects the rest */
#define MAX_NAMED_THREADS 4096 /* host threads named by metadata */
#define PARK_SLOTS 1024        /* nominal layout: waiters whose signaller comes later */
#define HOLD_SLOTS 4096        /* timing mode: spans waiting for device times */

typedef struct track {
    uint64_t stream_id, list;
    uint32_t tid; /* 0: slot unused */
    int name_written;
    uint64_t free_from_ns; /* nominal layout: where the next span may start */
    int32_t park_head;     /* parked entries of this track, oldest first; -1: none */
    int32_t park_tail;
    int clock_aligned; /* device_offset_ns is set */
    int64_t device_offset_ns;
    uint64_t sort_key; /* 0: none given */
    char name[240];    /* copied: the track outlives no string, but names change */
} track_t;

typedef struct held_span {
    int used;
    zo_entry_t entry;
} held_span_t;

static int trace_fd = -1;
static zo_trace_clock_t clock_base;
static _Atomic pid_t drain_owner;
static _Atomic int closed;

static char chunk_data[CHUNK_BYTES];
static zo_buf_t chunk;
static size_t chunk_committed;
static int write_failed;

static track_t tracks[MAX_TRACKS];
static uint32_t track_count;
static unsigned char host_thread_named[MAX_NAMED_THREADS];
/* Per host thread, the call number of the last submission consumed: the
 * API span that follows it on the same ring is the append that made it. */
static uint64_t last_submission_seq[MAX_NAMED_THREADS];
/* Parked: nominal spans waiting for their signaller's span (see lay_out). */
typedef struct parked {
    zo_entry_t entry;
    uint64_t drain; /* the drain that parked it */
    int32_t next;
} parked_t;
static parked_t parked[PARK_SLOTS];
static int32_t park_free_list = -1;
static uint32_t parked_count;
static int signaller_written; /* since the parked entries were last tried */
static uint64_t drain_number;
#define FORCE_NONE 0
#define FORCE_ALL UINT64_MAX
static held_span_t *held;    /* HOLD_SLOTS, allocated at open in timing mode */
static uint64_t held_oldest; /* FIFO positions: held[pos % HOLD_SLOTS] */
static uint64_t held_next;

/* ---- output chunk ---- */

static void write_chunk(void)
{
    if (chunk.len && !write_failed && zo_write_all(trace_fd, chunk.data, chunk.len) != 0) {
        write_failed = 1;
        zo_warn("ZEIL_TRACE: writing the trace failed; the rest of the trace is lost", 0, 0);
    }
    chunk.len = 0;
    chunk_committed = 0;
}

/* Before an event: room for it in the chunk. After: it counts as written. */
static void event_begin(void)
{
    if (chunk.cap - chunk.len < EVENT_MAX_BYTES)
        write_chunk();
}

static void event_end(void)
{
    chunk_committed = chunk.len;
}

/* ---- tracks ---- */

/* Track numbers (tids): viewers list a process's tracks by tid, so a track
 * the layer labelled before its first span gets one from its sort key
 * (streams in binding order, then lists in creation order); one first seen
 * with a span gets the next small number. */
#define LABELLED_TID_BASE 1000u

/* The track of (stream_id, list), made when new; sort_key orders a new one
 * (0: none known yet). */
static track_t *track_sorted(uint64_t stream_id, uint64_t list, uint64_t sort_key)
{
    uint32_t i = (uint32_t)(zo_hash_mix(stream_id * 31 + list) % (MAX_TRACKS - 1));
    for (uint32_t probe = 0; probe < MAX_TRACKS - 1; probe++, i = (i + 1) % (MAX_TRACKS - 1)) {
        track_t *t = &tracks[i];
        if (t->tid && t->stream_id == stream_id && t->list == list)
            return t;
        if (!t->tid) {
            t->tid = sort_key && sort_key < UINT32_MAX - LABELLED_TID_BASE
                         ? LABELLED_TID_BASE + (uint32_t)sort_key
                         : ++track_count;
            t->stream_id = stream_id;
            t->list = list;
            t->park_head = t->park_tail = -1;
            return t;
        }
    }
    track_t *overflow = &tracks[MAX_TRACKS - 1];
    if (!overflow->tid) {
        overflow->tid = MAX_TRACKS;
        overflow->park_head = overflow->park_tail = -1;
        zo_copy_bounded(overflow->name, sizeof overflow->name, "other lists");
    }
    return overflow;
}

/* The last track asked for: a launch asks for its own three times. */
static track_t *last_track;

static track_t *track_of(uint64_t stream_id, uint64_t list)
{
    track_t *t = last_track;
    if (t && t->stream_id == stream_id && t->list == list)
        return t;
    t = track_sorted(stream_id, list, 0);
    if (t != &tracks[MAX_TRACKS - 1]) /* the overflow track has no key */
        last_track = t;
    return t;
}

static void name_track(track_t *t)
{
    if (t->name_written)
        return;
    event_begin();
    zo_format_device_track_name(&chunk, t->tid, t->stream_id, t->list, t->name);
    if (t->sort_key)
        zo_format_device_track_order(&chunk, t->tid, t->sort_key);
    event_end();
    t->name_written = 1;
}

static void name_host_thread(uint32_t thread)
{
    if (thread >= MAX_NAMED_THREADS || host_thread_named[thread])
        return;
    event_begin();
    zo_format_host_thread_name(&chunk, thread);
    event_end();
    host_thread_named[thread] = 1;
}

/* ---- device spans ---- */

/* Both ends of one arrow, at the start of the spans they join. */
static void write_arrow(zo_arrow_t arrow, uint64_t flow_id, int from_pid, uint32_t from_tid,
                        uint64_t from_ns, uint32_t to_tid, uint64_t to_ns)
{
    event_begin();
    zo_format_flow(&chunk, &clock_base, 's', arrow, flow_id, from_pid, from_tid, from_ns);
    zo_format_flow(&chunk, &clock_base, 'f', arrow, flow_id, ZO_PID_DEVICE, to_tid, to_ns);
    event_end();
}

static void write_span(const zo_entry_t *e, uint64_t start, uint64_t end, zo_span_timing_t timing)
{
    track_t *t = track_of(e->stream_id, e->list);
    name_track(t);
    if (end > t->free_from_ns)
        t->free_from_ns = end;
    uint64_t from[ZO_ENTRY_MAX_WAITS], waits_on[ZO_ENTRY_MAX_WAITS];
    uint32_t num_waits_on = 0;
    for (uint32_t i = 0; i < e->num_waits; i++) {
        from[i] = zo_flows_signaller(e->waits[i], e->seq);
        if (from[i])
            waits_on[num_waits_on++] = from[i];
    }
    event_begin();
    zo_format_device_span(&chunk, &clock_base, e, t->tid, start, end, timing, waits_on,
                          num_waits_on, zo_launch_text_of(e));
    event_end();
    /* From the host append (its API span starts at the record's host time). */
    if (e->thread && e->seq)
        write_arrow(ZO_ARROW_SUBMIT, ZO_FLOW_HOST(e->seq), ZO_PID_HOST, e->thread, e->start_ns,
                    t->tid, start);
    if (e->signal_event) {
        zo_flow_span_t mine = {t->tid, start, end}, waiter;
        uint64_t flow_id;
        if (zo_flows_span_written(e->signal_event, e->seq, &mine, &waiter, &flow_id))
            write_arrow(ZO_ARROW_EVENT, flow_id, ZO_PID_DEVICE, t->tid, start, waiter.tid,
                        waiter.start_ns);
        signaller_written = 1;
    }
    for (uint32_t i = 0; i < e->num_waits; i++) {
        if (!from[i])
            continue;
        zo_flow_span_t signaller;
        uint64_t flow_id = ZO_FLOW_EVENT(e->seq, i);
        if (zo_flows_span_of(e->waits[i], from[i], &signaller))
            write_arrow(ZO_ARROW_EVENT, flow_id, ZO_PID_DEVICE, signaller.tid, signaller.start_ns,
                        t->tid, start);
        else
            zo_flows_note_waiter(e->waits[i], from[i], &(zo_flow_span_t){t->tid, start, end},
                                 flow_id);
    }
}

/* Device times should come in CLOCK_MONOTONIC (zeil_output.h). When they
 * are plainly in another clock (a device counter: more than 10 s away from
 * the submission), the track's first timed span is put at its submission
 * time and the others keep their distance to it. */
#define FOREIGN_CLOCK_NS 10000000000ll

static void write_device_span(const zo_entry_t *e, uint64_t start, uint64_t end)
{
    track_t *t = track_of(e->stream_id, e->list);
    if (!t->clock_aligned) {
        int64_t gap = (int64_t)(e->start_ns - start);
        t->device_offset_ns = gap > FOREIGN_CLOCK_NS || gap < -FOREIGN_CLOCK_NS ? gap : 0;
        t->clock_aligned = 1;
    }
    write_span(e, start + (uint64_t)t->device_offset_ns, end + (uint64_t)t->device_offset_ns,
               ZO_TIMING_DEVICE);
}

/* ---- nominal layout ----
 * Without device times a span starts when its track is free (spans of a
 * list run in order), at its host submission time at the earliest, and after
 * the spans that signal the events it waits on. A waiter whose signaller's
 * span is not written yet is parked, with everything after it on its track,
 * until it is; the signaller may also be appended later (the wait came
 * first), so parked entries wait up to one more drain. Then, at zo_flush and
 * at the end they are written as they are (events signalled from the host,
 * or by submissions zeil never saw). */

static int try_lay_out(const zo_entry_t *e, int force)
{
    track_t *t = track_of(e->stream_id, e->list);
    /* 1 ns after the append began, at the earliest: DevTools keys the ends
     * of an arrow by their time and drops an arrow whose ends share one. */
    uint64_t earliest = e->start_ns + 1;
    uint64_t start = t->free_from_ns > earliest ? t->free_from_ns : earliest;
    for (uint32_t i = 0; i < e->num_waits; i++) {
        uint64_t from = zo_flows_signaller(e->waits[i], e->seq);
        zo_flow_span_t signaller;
        if (from && zo_flows_span_of(e->waits[i], from, &signaller)) {
            if (signaller.end_ns > start)
                start = signaller.end_ns;
        } else if (!force) {
            return 0; /* signaller not written yet, or not seen yet */
        }
    }
    write_span(e, start, start + ZO_NOMINAL_DURATION_NS, ZO_TIMING_NOMINAL);
    return 1;
}

/* Writes the parked entries that can go now; those parked by a drain
 * before `force_before` go in any case. */
static void retry_parked(uint64_t force_before)
{
    int progress = 1;
    while (parked_count && progress) {
        progress = 0;
        for (uint32_t i = 0; i < MAX_TRACKS; i++) {
            track_t *t = &tracks[i];
            while (t->tid && t->park_head >= 0) {
                int32_t p = t->park_head;
                if (!try_lay_out(&parked[p].entry, parked[p].drain < force_before))
                    break;
                t->park_head = parked[p].next;
                if (t->park_head < 0)
                    t->park_tail = -1;
                parked[p].next = park_free_list;
                park_free_list = p;
                parked_count--;
                progress = 1;
            }
        }
    }
    signaller_written = 0;
}

static void park(track_t *t, const zo_entry_t *e)
{
    if (park_free_list < 0)
        retry_parked(FORCE_ALL);
    int32_t p = park_free_list;
    park_free_list = parked[p].next;
    parked[p].entry = *e;
    parked[p].drain = drain_number;
    parked[p].next = -1;
    if (t->park_tail >= 0)
        parked[t->park_tail].next = p;
    else
        t->park_head = p;
    t->park_tail = p;
    parked_count++;
}

static void lay_out(const zo_entry_t *e)
{
    track_t *t = track_of(e->stream_id, e->list);
    if (t->park_head >= 0 || !try_lay_out(e, 0))
        park(t, e);
}

static void write_nominal_span(const zo_entry_t *e)
{
    (void)try_lay_out(e, 1);
}

/* Writes held spans from the oldest on, as far as their order allows. Only
 * launches get device times: a copy, fill or barrier is held just to keep
 * its place behind older launches, and is laid out as soon as it is the
 * oldest. force lays out the oldest launch without its device times. */
static void release_oldest_held(int force)
{
    while (held_oldest < held_next) {
        held_span_t *h = &held[held_oldest % HOLD_SLOTS];
        if (h->used) {
            if (h->entry.record_kind == ZEIL_RECORD_LAUNCH) {
                if (!force)
                    return;
                force = 0;
            }
            write_nominal_span(&h->entry);
            h->used = 0;
        }
        held_oldest++;
    }
}

static void hold_span(const zo_entry_t *e)
{
    if (held_next - held_oldest == HOLD_SLOTS)
        release_oldest_held(1);
    held_span_t *h = &held[held_next++ % HOLD_SLOTS];
    h->entry = *e;
    h->used = 1;
    release_oldest_held(0);
}

static void complete_held_span(uint64_t seq, uint64_t start, uint64_t end)
{
    /* Device times come roughly in submission order: look from the oldest. */
    for (uint64_t pos = held_oldest; pos < held_next; pos++) {
        held_span_t *h = &held[pos % HOLD_SLOTS];
        if (h->used && h->entry.seq == seq) {
            write_device_span(&h->entry, start, end);
            h->used = 0;
            break;
        }
    }
    release_oldest_held(0);
}

static void write_submission(const zo_entry_t *e)
{
    if (e->device_end_ns)
        write_device_span(e, e->device_start_ns, e->device_end_ns);
    else if (held)
        hold_span(e);
    else
        lay_out(e);
}

static void write_entry(const zo_entry_t *e);

/* The API span of e, call number `number`; call: the call's name as JSON,
 * or null to escape e->call. */
static void write_api_span(const zo_entry_t *e, uint64_t number, const zo_text_piece_t *call)
{
    name_host_thread(e->thread);
    event_begin();
    zo_format_api_span(&chunk, &clock_base, e, number,
                       number && number == last_submission_seq[e->thread % MAX_NAMED_THREADS],
                       call);
    event_end();
}

/* A launch's entry as the two it stands for (zo_trace_launch); their text
 * of its description and call comes from zo_launch_text_of. */
static void write_launch(const zo_entry_t *e)
{
    const zo_launch_shared_t *s = e->shared;
    zo_entry_t submission = {
        .kind = ZO_ENTRY_SUBMISSION,
        .record_kind = (uint8_t)ZEIL_RECORD_LAUNCH,
        .thread = e->thread,
        .seq = e->seq,
        .start_ns = e->start_ns,
        .list = e->list,
        .stream_id = s->stream_id,
        .call = e->call,
        .shared = s,
        .name = s->kernel,
        .primitive = s->primitive,
        .impl = s->impl,
        .memory_args = s->memory_args,
    };
    memcpy(submission.group_count, e->group_count, sizeof submission.group_count);
    memcpy(submission.group_size, s->group_size, sizeof submission.group_size);
    write_entry(&submission);
    /* Its API span: the entry's thread, times and call, and its number. */
    const zo_launch_text_t *text = zo_launch_text_of(&submission);
    write_api_span(e, e->call_number, text ? &text->call : 0);
}

static void write_entry(const zo_entry_t *e)
{
    switch (e->kind) {
    case ZO_ENTRY_LAUNCH:
        write_launch(e);
        break;
    case ZO_ENTRY_API_CALL:
        write_api_span(e, e->seq, zo_call_text_of(e->call));
        break;
    case ZO_ENTRY_SUBMISSION:
        last_submission_seq[e->thread % MAX_NAMED_THREADS] = e->seq;
        write_submission(e);
        break;
    case ZO_ENTRY_DEVICE_TIMES:
        if (held)
            complete_held_span(e->seq, e->device_start_ns, e->device_end_ns);
        break;
    case ZO_ENTRY_TRACK_NAME: {
        track_t *t = track_sorted(e->stream_id, e->list, e->seq);
        t->sort_key = e->seq;
        if (strncmp(t->name, e->name ? e->name : "", sizeof t->name - 1) != 0) {
            int renamed = t->name_written;
            zo_copy_bounded(t->name, sizeof t->name, e->name);
            t->name_written = 0;
            if (renamed)
                name_track(t);
        }
        /* A stream's track shows from its binding on; a list's waits for
         * its first span (a list bound to a stream may have none). */
        if (e->stream_id && !t->name_written) {
            name_track(t);
            event_begin();
            zo_format_stream_bound(&chunk, &clock_base, t->tid, e->start_ns);
            event_end();
        }
        break;
    }
    default:
        break;
    }
}

/* ---- draining ---- */

static pid_t current_tid(void)
{
    return (pid_t)syscall(SYS_gettid);
}

static int try_lock_drain(void)
{
    pid_t expected = 0;
    return atomic_compare_exchange_strong(&drain_owner, &expected, current_tid());
}

static void unlock_drain(void)
{
    atomic_store(&drain_owner, 0);
}

/* Two passes over the same entries: first learn which submissions signal
 * which events (a waiter on another thread's ring may come first), then
 * write. Entries are consumed one by one so a crash mid-drain repeats none. */
/* force_all: also the parked spans of this very drain (else only older). */
static void drain_locked(int force_all)
{
    for (zo_ring_t *r = zo_ring_first(); r; r = r->next) {
        r->drain_limit = atomic_load_explicit(&r->head, memory_order_acquire);
        for (uint64_t i = atomic_load_explicit(&r->tail, memory_order_relaxed); i < r->drain_limit;
             i++) {
            const zo_entry_t *e = &r->entries[i & (ZO_RING_ENTRIES - 1)];
            if (e->kind == ZO_ENTRY_SUBMISSION && e->signal_event)
                zo_flows_note_signal(e->signal_event, e->seq);
        }
    }
    for (zo_ring_t *r = zo_ring_first(); r; r = r->next) {
        for (uint64_t i = atomic_load_explicit(&r->tail, memory_order_relaxed); i < r->drain_limit;
             i++) {
            write_entry(&r->entries[i & (ZO_RING_ENTRIES - 1)]);
            if ((i + 1) % ZO_RING_TAIL_BATCH == 0 || i + 1 == r->drain_limit)
                atomic_store_explicit(&r->tail, i + 1, memory_order_release);
            if (signaller_written && parked_count)
                retry_parked(FORCE_NONE);
        }
    }
    retry_parked(force_all ? FORCE_ALL : drain_number);
    drain_number++;
    write_chunk();
}

/* CLOCK_REALTIME at base_ns: where zeil-report merge aligns the traces of
 * several processes (machines share wall-clock time, not CLOCK_MONOTONIC). */
static uint64_t realtime_at(uint64_t base_ns)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    uint64_t real = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
    uint64_t since = zo_now_ns() - base_ns;
    return real > since ? real - since : 0;
}

int zo_writer_open(const char *path, uint64_t base_ns, int timing, int rank)
{
    trace_fd = zo_open_output(path, ZO_OPEN_TRUNCATE, "ZEIL_TRACE");
    if (trace_fd < 0)
        return -1;
    clock_base.base_ns = base_ns;
    if (timing) {
        held = calloc(HOLD_SLOTS, sizeof *held);
        if (!held)
            zo_warn("ZEIL_TRACE: out of memory; device spans get nominal times", 0, 0);
    }
    for (int32_t i = PARK_SLOTS - 1; i >= 0; i--) {
        parked[i].next = park_free_list;
        park_free_list = i;
    }
    zo_buf_init(&chunk, chunk_data, sizeof chunk_data);
    zo_format_trace_header(&chunk);
    zo_format_process_info(&chunk, (uint64_t)getpid(), rank, realtime_at(base_ns));
    event_end();
    write_chunk();
    return 0;
}

int zo_writer_is_open(void)
{
    return trace_fd >= 0 && !atomic_load(&closed);
}

static int drain_with(int force_all)
{
    if (!zo_writer_is_open())
        return 1;
    if (!try_lock_drain())
        return 0;
    if (zo_writer_is_open())
        drain_locked(force_all);
    unlock_drain();
    return 1;
}

int zo_writer_drain_now(void)
{
    return drain_with(1);
}

void zo_writer_drain(void)
{
    (void)drain_with(0);
}

/* The lock for closing: waits for another thread's drain to end (it takes
 * milliseconds), and takes over an interrupted drain of this very thread. */
static int lock_for_close(void)
{
    pid_t self = current_tid();
    for (int waited_ms = 0; waited_ms < 200; waited_ms++) {
        pid_t expected = 0;
        if (atomic_compare_exchange_strong(&drain_owner, &expected, self))
            return 1;
        if (expected == self) {
            chunk.len = chunk_committed; /* drop the event cut short */
            return 1;
        }
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, 0);
    }
    return 0;
}

void zo_writer_close(const char *reason, int signo)
{
    if (!zo_writer_is_open() || !lock_for_close())
        return;
    if (atomic_exchange(&closed, 1)) {
        unlock_drain();
        return;
    }
    drain_locked(1);
    if (held)
        while (held_oldest < held_next)
            release_oldest_held(1);
    retry_parked(FORCE_ALL);
    event_begin();
    zo_format_trace_end(&chunk, reason, signo, zo_ring_dropped_total());
    zo_format_trace_close(&chunk);
    event_end();
    write_chunk();
    close(trace_fd);
    unlock_drain();
}
