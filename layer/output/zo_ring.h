/*
 * zo_ring.h: per-thread trace buffers.
 *
 * Each thread that traces owns one single-producer/single-consumer ring of
 * fixed-size entries. The thread only writes its slot and publishes its head
 * (no lock, no allocation after the ring exists); the consumer (the flusher
 * thread, zo_finish, or a fatal-signal handler, one at a time under the drain
 * lock of zo_trace_writer.c) reads up to the head and publishes the tail.
 * Rings are kept in a lock-free list that only grows; a thread that exits
 * releases its ring for the next new thread to reuse.
 */
#ifndef ZO_RING_H
#define ZO_RING_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "zeil_output.h"

#define ZO_RING_ENTRIES 2048u /* power of two */
#define ZO_ENTRY_MAX_WAITS 6  /* wait events kept per submission */

typedef enum zo_entry_kind {
    ZO_ENTRY_API_CALL = 1,
    ZO_ENTRY_SUBMISSION,
    ZO_ENTRY_DEVICE_TIMES,
    ZO_ENTRY_TRACK_NAME,
    ZO_ENTRY_LAUNCH /* a submission and its API span (zo_trace_launch) */
} zo_entry_kind_t;

/* Strings are not copied: the layer hands over only strings that live as long
 * as the process (literals and interned names), so an entry is three cache
 * lines a submission and one an API call. The writer bounds and escapes them
 * when it formats. */
typedef struct zo_entry {
    uint8_t kind;        /* zo_entry_kind_t */
    uint8_t record_kind; /* zeil_record_kind_t of submissions */
    uint8_t num_waits;   /* kept in waits[] */
    uint8_t waits_cut;   /* the record had more than ZO_ENTRY_MAX_WAITS */
    uint32_t thread;
    uint64_t seq;      /* call number; a track's sort key */
    uint64_t start_ns; /* API call start; submission host time */
    uint64_t end_ns;   /* API call end */
    uint64_t device_start_ns;
    uint64_t device_end_ns;
    uint64_t list;
    uint64_t stream_id;
    uint64_t signal_event;
    uint64_t bytes;
    uint32_t group_count[3];
    uint32_t group_size[3];
    uint64_t waits[ZO_ENTRY_MAX_WAITS];
    const char *call;
    const char *name; /* kernel name; track name */
    const char *primitive;
    const char *impl;
    const char *memory_args;
    /* ZO_ENTRY_LAUNCH: what the other fields of its submission come from,
     * and its API call's number (seq is the submission's). */
    const zo_launch_shared_t *shared;
    uint64_t call_number;
} zo_entry_t;

typedef struct zo_ring {
    _Atomic uint64_t head;    /* written by the owning thread */
    _Atomic uint64_t tail;    /* written by the consumer */
    _Atomic uint64_t dropped; /* entries lost because the ring was full */
    _Atomic int owned;        /* 1 while a live thread produces into it */
    struct zo_ring *next;     /* immutable once published */
    uint64_t drain_limit;     /* consumer only: head seen when a drain began */
    zo_entry_t entries[ZO_RING_ENTRIES];
} zo_ring_t;

/* The calling thread's ring, claimed or allocated on first use; null when
 * memory runs out (the caller drops the entry and counts it). */
zo_ring_t *zo_ring_mine(void);

/* Starts writing an entry: the slot to fill, or null when the ring is full
 * (then counted as dropped). zo_ring_publish makes it visible to the consumer
 * and returns 1 when the ring just became half full (time to wake the
 * flusher). */
zo_entry_t *zo_ring_reserve(zo_ring_t *ring);
int zo_ring_publish(zo_ring_t *ring);

/* First ring of the process-wide list (consumers walk ->next). */
zo_ring_t *zo_ring_first(void);

/* Entries dropped, and entries that could not get a ring, over all rings. */
uint64_t zo_ring_dropped_total(void);

/* Copies s into dst[size], cut with "..." when too long. */
void zo_copy_bounded(char *dst, size_t size, const char *s);

#endif
