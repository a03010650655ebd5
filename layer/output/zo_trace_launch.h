/*
 * zo_trace_launch.h: a traced launch's one entry, written inline.
 *
 * A cached launch traced hands the trace its submission and its API span in
 * one entry (zeil_output.h, zo_trace_launch). It is the trace's most frequent
 * entry, so the whole of it, the ring's reserve and publish included, is
 * inline in the launch path: no call, a few stores into the first two cache
 * lines of the entry (zo_ring.h).
 */
#ifndef ZO_TRACE_LAUNCH_H
#define ZO_TRACE_LAUNCH_H

#include "zeil_output.h"
#include "zo_flusher.h"
#include "zo_ring.h"

#include <string.h>

/* The trace speaks of call numbers (host spans carry theirs, arrows join a
 * host append to its device span): a record's key of a numbered append is
 * its number shifted (zeil.h). A key with low bits set belongs to an
 * unnumbered launch; it stays as it is. */
static inline uint64_t zo_trace_seq(uint64_t key)
{
    uint64_t low = key & ((UINT64_C(1) << ZEIL_RECORD_SEQ_SHIFT) - 1);
    return low ? key : key >> ZEIL_RECORD_SEQ_SHIFT;
}

/* *ring_of_thread: the calling thread's ring as its caller keeps it (null
 * until the first entry asks for it), which spares a thread-local lookup. */
static inline __attribute__((always_inline)) void zo_trace_launch(
    zo_ring_t **ring_of_thread, uint32_t thread, const char *call, uint64_t number, uint64_t seq,
    uint64_t start_ns, uint64_t end_ns, ze_command_list_handle_t list,
    const uint32_t group_count[3], const zo_launch_shared_t *shared)
{
    if (!zo_trace_enabled())
        return;
    zo_ring_t *ring = *ring_of_thread;
    if (__builtin_expect(!ring, 0))
        ring = *ring_of_thread = zo_ring_mine();
    zo_entry_t *e = ring ? zo_ring_reserve(ring) : 0;
    if (!e)
        return;
    e->kind = ZO_ENTRY_LAUNCH;
    e->thread = thread;
    e->seq = zo_trace_seq(seq);
    e->start_ns = start_ns;
    e->end_ns = end_ns;
    e->list = (uint64_t)(uintptr_t)list;
    e->call = call;
    e->shared = shared;
    e->call_number = number;
    memcpy(e->group_count, group_count, sizeof e->group_count);
    if (zo_ring_publish(ring))
        zo_flusher_wake();
}

#endif
