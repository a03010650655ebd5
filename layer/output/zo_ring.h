/*
 * zo_ring.h: per-thread trace buffers.
 *
 * Each thread that traces owns one single-producer/single-consumer ring of
 * fixed-size entries. The thread only writes its slot and publishes its head
 * (no lock, no allocation after the ring exists); the consumer (the flusher
 * thread, zo_finish, or a fatal-signal handler, one at a time under the drain
 * lock of zo_trace_writer.c) reads up to the head and publishes the tail.
 * Head and tail live on cache lines of their own, and each side reads the
 * other's rarely: the owner reads tail only when its last look says the ring
 * is full, the consumer publishes tail every ZO_RING_TAIL_BATCH entries. A
 * launch that traces then moves no cache line between the two cores.
 * Rings are kept in a lock-free list that only grows; a thread that exits
 * releases its ring for the next new thread to reuse.
 */
#ifndef ZO_RING_H
#define ZO_RING_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "zeil_output.h"

#define ZO_RING_ENTRIES 2048u  /* power of two */
#define ZO_ENTRY_MAX_WAITS 6   /* wait events kept per submission */
#define ZO_RING_TAIL_BATCH 64u /* entries a consumer frees at once */

typedef enum zo_entry_kind {
    ZO_ENTRY_API_CALL = 1,
    ZO_ENTRY_SUBMISSION,
    ZO_ENTRY_DEVICE_TIMES,
    ZO_ENTRY_TRACK_NAME,
    ZO_ENTRY_LAUNCH /* a submission and its API span (zo_trace_launch) */
} zo_entry_kind_t;

/* Strings are not copied: the layer hands over only strings that live as long
 * as the process (literals and interned names), so an entry is four cache
 * lines. Its fields are ordered by use: a launch (zo_trace_launch), the most
 * frequent, writes only the first two lines; an API call only the first. The
 * writer bounds and escapes strings when it formats. */
typedef struct zo_entry {
    /* First line: every kind's header, an API call, a launch. */
    uint8_t kind;        /* zo_entry_kind_t */
    uint8_t record_kind; /* zeil_record_kind_t of submissions */
    uint8_t num_waits;   /* kept in waits[] */
    uint8_t waits_cut;   /* the record had more than ZO_ENTRY_MAX_WAITS */
    uint32_t thread;
    uint64_t seq;      /* call number; a track's sort key */
    uint64_t start_ns; /* API call start; submission host time */
    uint64_t end_ns;   /* API call end */
    uint64_t list;
    const char *call;
    /* ZO_ENTRY_LAUNCH: what the other fields of its submission come from,
     * and its API call's number (seq is the submission's). A submission the
     * writer makes of a launch keeps it (its text: zo_launch_text.h); one
     * from zo_trace_submission has none. */
    const zo_launch_shared_t *shared;
    uint64_t call_number;
    /* Second line: the rest of a launch, and of a submission. */
    uint32_t group_count[3];
    uint32_t group_size[3];
    uint64_t stream_id;
    uint64_t device_start_ns;
    uint64_t device_end_ns;
    uint64_t signal_event;
    uint64_t bytes;
    /* The rest of a submission or track name. */
    uint64_t waits[ZO_ENTRY_MAX_WAITS];
    const char *name; /* kernel name; track name */
    const char *primitive;
    const char *impl;
    const char *memory_args;
} __attribute__((aligned(64))) zo_entry_t;

typedef struct zo_ring {
    /* The producer's cache line: the consumer reads head once per drain. */
    _Atomic uint64_t head;    /* written by the owning thread */
    uint64_t tail_seen;       /* the owner's last read of tail: a lower bound */
    _Atomic uint64_t dropped; /* entries lost because the ring was full */
    _Atomic int owned;        /* 1 while a live thread produces into it */
    struct zo_ring *next;     /* immutable once published */
    /* The consumer's: the owner reads tail only when tail_seen says full. */
    _Alignas(64) _Atomic uint64_t tail; /* written by the consumer */
    uint64_t drain_limit;               /* consumer only: head seen when a drain began */
    _Alignas(64) zo_entry_t entries[ZO_RING_ENTRIES];
} zo_ring_t;

/* The calling thread's ring, claimed or allocated on first use
 * (zo_ring_claim); null when memory runs out (the caller drops the entry and
 * counts it). The three calls a producer makes are inline: a traced launch
 * pays for no call of the ring's. */
extern __thread zo_ring_t *zo_ring_of_thread __attribute__((visibility("hidden")));
zo_ring_t *zo_ring_claim(void);

static inline zo_ring_t *zo_ring_mine(void)
{
    zo_ring_t *r = zo_ring_of_thread;
    return __builtin_expect(r != 0, 1) ? r : zo_ring_claim();
}

/* Starts writing an entry: the slot to fill, or null when the ring is full
 * (then counted as dropped, by the owner alone: no atomic read-modify-write).
 * zo_ring_publish makes it visible to the consumer and returns 1 each time
 * another half ring of entries was published (time to wake the flusher). */
static inline zo_entry_t *zo_ring_reserve(zo_ring_t *ring)
{
    uint64_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
    if (__builtin_expect(head - ring->tail_seen >= ZO_RING_ENTRIES, 0)) {
        ring->tail_seen = atomic_load_explicit(&ring->tail, memory_order_acquire);
        if (head - ring->tail_seen >= ZO_RING_ENTRIES) {
            atomic_store_explicit(&ring->dropped,
                                  atomic_load_explicit(&ring->dropped, memory_order_relaxed) + 1,
                                  memory_order_relaxed);
            return 0;
        }
    }
    return &ring->entries[head & (ZO_RING_ENTRIES - 1)];
}

static inline int zo_ring_publish(zo_ring_t *ring)
{
    uint64_t head = atomic_load_explicit(&ring->head, memory_order_relaxed) + 1;
    atomic_store_explicit(&ring->head, head, memory_order_release);
    return head % (ZO_RING_ENTRIES / 2) == 0;
}

/* First ring of the process-wide list (consumers walk ->next). */
zo_ring_t *zo_ring_first(void);

/* Entries dropped, and entries that could not get a ring, over all rings. */
uint64_t zo_ring_dropped_total(void);

/* Copies s into dst[size], cut with "..." when too long. */
void zo_copy_bounded(char *dst, size_t size, const char *s);

#endif
