/*
 * hz_launch_again.h: a launch that repeats its list's memo (the same kernel
 * with the same arguments, by the same who), applied inline on the launch's
 * own path: per access, while the list left its block as it was (the hold's
 * sequence) and no history was forgotten since the holds were found, the
 * other timelines that may race with it are read from the hold's word, and
 * only the block's entry's epoch and call move. Anything else takes
 * hz_access.c's general way.
 */
#ifndef HZ_LAUNCH_AGAIN_H
#define HZ_LAUNCH_AGAIN_H

#include "hz_state.h"

/* Memo access i again, its hold m (block and sequence) as the list left it:
 * checked against the other timelines (its hold's word but mine, the list's
 * own slot's bit), then its block's one entry moves to epoch and call under
 * the block's seqlock (hz_access.c). */
static inline __attribute__((always_inline)) void hz_memo_again(hz_timeline_t *t,
                                                                hz_memo_hold_t *m, uint32_t i,
                                                                uint64_t mine, uint64_t epoch,
                                                                uint64_t call, hz_findings_t *out)
{
    hz_block_t *b = m->block;
    const uint32_t seq = m->seq;
    const uint64_t others = HZ_LOAD(*m->others) & ~mine;
    if (__builtin_expect(others != 0, 0))
        hz_access_memo_others(t, i, others, out);
    __atomic_store_n(&b->seq, seq + 1, __ATOMIC_RELEASE);
    __atomic_store_n(&b->mark[0].epoch, epoch, __ATOMIC_RELEASE);
    __atomic_store_n(&b->mark[0].call, call, __ATOMIC_RELEASE);
    __atomic_store_n(&b->seq, seq + 2, __ATOMIC_RELEASE);
    m->seq = seq + 2;
}

/* The memo's accesses again at epoch, by memo_who (its call number set), on
 * an in-order immediate list whose memo is ready: each whose hold stands
 * moves only its entry (hz_memo_again), any other is checked and kept anew. */
static inline __attribute__((always_inline)) void hz_memo_launch_again(hz_timeline_t *t,
                                                                       uint64_t epoch,
                                                                       hz_findings_t *out)
{
    if (__builtin_expect(hz_histories_forgotten_now() != t->memo_forgotten, 0)) {
        hz_access_launch_again(t, epoch, out);
        return;
    }
    /* Locals: the blocks' stores would have each read from t again. */
    const uint32_t count = t->memo_count;
    const uint64_t mine = 1ull << t->slot, call = t->memo_who.call;
    for (uint32_t i = 0; i < count; i++) {
        hz_memo_hold_t *m = &t->memo_hold[i];
        if (__builtin_expect(!m->block || m->block->seq != m->seq, 0))
            hz_access_memo_keep(t, i, epoch, out);
        else
            hz_memo_again(t, m, i, mine, epoch, call, out);
    }
}

/* hz_apply_work_in_order of the list's memo again (an asynchronous list:
 * the host learns nothing from it). */
static inline __attribute__((always_inline)) void hz_apply_launch_again(hz_timeline_t *t,
                                                                        hz_findings_t *out)
{
    const uint64_t epoch = hz_next_epoch(t);
    if (t->host_version != hz_host_version_now())
        t->host_version = hz_join_host(&t->clock);
    t->clock.at[t->slot] = epoch;
    hz_memo_launch_again(t, epoch, out);
}

#endif
