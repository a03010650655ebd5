/*
 * records_plain_launch.h: the record of a cached plain launch, inline in the
 * launch's fast path (intercept_launch.c), which then calls nothing of its
 * own but the driver and the clock. What it leaves to the general path is in
 * records_ring.c.
 */
#ifndef ZEIL_RECORDS_PLAIN_LAUNCH_H
#define ZEIL_RECORDS_PLAIN_LAUNCH_H

#include "coarse_clock.h"
#include "records_state.h"

#include <string.h>

/* The launch recorded by records_add_held: the list's first (no ring yet),
 * or one whose thread ran out of unnumbered keys (calls.h: once in 1023). */
ze_result_t records_plain_launch_in_general(launch_cache_t *cached, const ze_group_count_t *groups,
                                            const char *call_name) __attribute__((noinline));
/* The same, for an entry whose description is not made yet or no longer
 * holds: then made anew. */
ze_result_t records_plain_launch_described(calls_thread_t *t, launch_cache_t *cached,
                                           const ze_group_count_t *groups, const char *call_name)
    __attribute__((noinline));
/* The same two for a timed call (records_add_timed_launch). */
void records_timed_launch_in_general(launch_cache_t *cached, const ze_group_count_t *groups,
                                     const zeil_call_t *call) __attribute__((noinline));
void records_timed_launch_described(calls_thread_t *t, launch_cache_t *cached,
                                    const ze_group_count_t *groups, const zeil_call_t *call)
    __attribute__((noinline));

/* ZE_RESULT_SUCCESS made afresh: the compiler, which knows the driver's
 * result is success here, would otherwise keep that result across the clock
 * and the record (calls_success, whose asm takes the value in, lets it keep
 * it in the same register): a saved register on every launch. */
static inline ze_result_t plain_launch_success(void)
{
#if defined(__x86_64__)
    ze_result_t success;
    __asm__("xorl %k0, %k0" : "=r"(success) : : "cc");
    return success;
#else
    return calls_success();
#endif
}

/* Whether the entry is described (desc, word and stats set, and its list
 * has its ring, made before and kept for life) and its description holds:
 * the thread's attribution and the kernel's group size are those it was
 * made for (the list's stream changes the generation). */
static inline int plain_launch_described(const calls_thread_t *t, const launch_cache_t *cached)
{
    return t->attribution == cached->attribution &&
           atomic_load_explicit(&cached->kernel->group_size_epoch, memory_order_relaxed) ==
               cached->group_size_epoch;
}

/* The record of a described entry's launch: its key, host time, call and
 * group count, and a pointer to the description. */
static inline __attribute__((always_inline)) void plain_launch_put(
    zeil_list_state_t *state, ring_slot_t *ring, uint64_t seq, uint64_t host_ns,
    const launch_cache_t *cached, const char *call_name, const ze_group_count_t *groups)
{
    uint64_t index;
    ring_slot_t *slot = slot_begin(state, ring, &index);
    ring_record_t *r = &slot->record;
    RECORD_PUT(r->seq, seq);
    RECORD_PUT(r->host_ns, host_ns);
    RECORD_PUT(r->word, cached->word);
    RECORD_PUT(r->call, call_name);
    RECORD_PUT(r->desc, cached->desc);
    uint64_t xy;
    memcpy(&xy, &groups->groupCountX, sizeof xy);
    RECORD_PUT(r->group_count_xy, xy);
    RECORD_PUT(r->group_count_z, groups->groupCountZ);
    slot_done(state, slot, index);
}

/* The record of a plain launch (plain_launch_put), then its counter, the
 * entry's, without a lookup. */
static inline __attribute__((always_inline)) ze_result_t records_add_plain_launch(
    calls_thread_t *t, launch_cache_t *cached, const ze_group_count_t *groups,
    const char *call_name)
{
    /* The clock first: nothing but the arguments is then kept across it. */
    uint64_t host_ns = coarse_clock_coarse_ns();
    zeil_list_state_t *state = cached->records;
    ring_slot_t *ring = atomic_load_explicit(&state->ring, memory_order_relaxed);
    if (__builtin_expect(!plain_launch_described(t, cached), 0))
        return records_plain_launch_described(t, cached, groups, call_name);
    uint64_t g = calls_last_number();
    uint32_t low = calls_unnumbered_low(t);
    if (__builtin_expect(!low, 0))
        return records_plain_launch_in_general(cached, groups, call_name);
    uint64_t seq = list_key(state, g << ZEIL_RECORD_SEQ_SHIFT | low);
    plain_launch_put(state, ring, seq, host_ns, cached, call_name, groups);
    stats_count_one(cached->stats);
    return plain_launch_success();
}

/* The same for a cached launch of a timed call (the trace on, the calls log
 * off), whose start is its host time: the description, and the record's key
 * in *seq, for the caller to hand the trace (zo_trace_launch); or null when
 * the launch was recorded (and traced) the general way. */
static inline __attribute__((always_inline)) const records_launch_desc_t *records_add_timed_launch(
    calls_thread_t *t, launch_cache_t *cached, const zeil_call_t *call,
    const ze_group_count_t *groups, uint64_t *seq)
{
    zeil_list_state_t *state = cached->records;
    ring_slot_t *ring = atomic_load_explicit(&state->ring, memory_order_relaxed);
    if (__builtin_expect(!plain_launch_described(t, cached), 0)) {
        records_timed_launch_described(t, cached, groups, call);
        return NULL;
    }
    uint64_t g = calls_last_number();
    uint32_t low = calls_unnumbered_low(t);
    if (__builtin_expect(!low, 0)) {
        records_timed_launch_in_general(cached, groups, call);
        return NULL;
    }
    *seq = list_key(state, g << ZEIL_RECORD_SEQ_SHIFT | low);
    plain_launch_put(state, ring, *seq, call->start_ns, cached, call->name, groups);
    stats_count_one(cached->stats);
    return cached->desc;
}

#endif
