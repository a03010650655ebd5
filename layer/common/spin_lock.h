/*
 * spin_lock.h: the lock of short critical sections that the hot paths take
 * (a list's record state, records_state.h; the USM allocation index has one
 * of its own in the call counter, call_counter.h). Uncontended it costs one atomic
 * exchange to take and a plain release store to give back: one
 * read-modify-write a section, where a pthread mutex costs two (and about 80
 * instructions of type and owner checks). A waiter yields, since the holder
 * may have been descheduled (or be growing a table). Acquire on taking,
 * release on giving back: the happens-before that ThreadSanitizer follows.
 */
#ifndef ZEIL_SPIN_LOCK_H
#define ZEIL_SPIN_LOCK_H

#include <sched.h>
#include <stdatomic.h>

typedef atomic_int spin_lock_t;

static inline void spin_lock(spin_lock_t *lock)
{
    while (atomic_exchange_explicit(lock, 1, memory_order_acquire))
        while (atomic_load_explicit(lock, memory_order_relaxed))
            sched_yield();
}

/* 1 when the lock was free and is now taken; 0 without waiting. A hot path
 * that takes it so, and hands the contended case to a slower function that
 * waits (spin_lock), calls nothing itself: no registers to save on its way. */
static inline int spin_try_lock(spin_lock_t *lock)
{
    return !atomic_exchange_explicit(lock, 1, memory_order_acquire);
}

static inline void spin_unlock(spin_lock_t *lock)
{
    atomic_store_explicit(lock, 0, memory_order_release);
}

#endif
