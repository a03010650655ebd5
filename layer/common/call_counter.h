/*
 * call_counter.h: the process-wide call counter, and the lock of the USM
 * allocation index that lives in its top bit.
 *
 * Every numbered call takes the next number with one atomic add; numbers
 * are unique and increase in time (calls.h). An allocation (after the
 * driver answered) and a free (before its driver call: it buries its
 * allocation first) also take the index's lock (registry_allocs.c), and
 * each read-modify-write costs about as much as the rest of zeil's work on
 * them (scripts/bench: two of them were 10 ns of an allocation and free).
 * So the lock is the counter's top bit, and an allocation or a free that has
 * no number yet takes its number and the lock in one compare-exchange
 * (call_counter_try_lock). The lock is given back by a plain release store
 * of zero into the word's top byte, which the other threads' adds never
 * disturb: an add is atomic as a whole, before or after that store, and the
 * count never comes near the top byte (2^56 calls). Under ThreadSanitizer,
 * which orders a release and an acquire only at the same address, the lock
 * is given back with a read-modify-write of the whole word instead.
 */
#ifndef ZEIL_CALL_COUNTER_H
#define ZEIL_CALL_COUNTER_H

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

#if defined(__SANITIZE_THREAD__)
#define CALL_COUNTER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CALL_COUNTER_TSAN 1
#endif
#endif

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "call_counter.h: the lock is the counter's most significant byte, its last in memory"
#endif

#define CALL_COUNTER_LOCK (UINT64_C(1) << 63)
#define CALL_COUNTER_NUMBERS (CALL_COUNTER_LOCK - 1)

/* Alone on its cache line: every numbered call writes it, every allocation
 * and free takes the lock, the launch fast path only reads it. */
typedef union call_counter {
    _Alignas(64) _Atomic uint64_t word; /* the last number | the lock << 63 */
    struct {
        unsigned char numbers[7];
        _Atomic unsigned char lock;
    } bytes;
} call_counter_t;
_Static_assert(sizeof(uint64_t) == 8 && __builtin_offsetof(call_counter_t, bytes.lock) == 7,
               "the top byte, which holds the lock's bit, is the word's last");
extern call_counter_t calls_counter __attribute__((visibility("hidden")));

static inline uint64_t calls_take_number(void)
{
    return (atomic_fetch_add_explicit(&calls_counter.word, 1, memory_order_relaxed) &
            CALL_COUNTER_NUMBERS) +
           1;
}

/* The last number taken anywhere. */
static inline uint64_t calls_last_number(void)
{
    return atomic_load_explicit(&calls_counter.word, memory_order_relaxed) & CALL_COUNTER_NUMBERS;
}

/* The lock if it is free, and a number in *number when it is 0: 1 when
 * taken, 0 (nothing taken) when another thread holds it. Free, the word is
 * the last number. */
static inline __attribute__((always_inline)) int call_counter_try_lock(uint64_t *number)
{
    uint64_t v = atomic_load_explicit(&calls_counter.word, memory_order_relaxed);
    uint64_t add = CALL_COUNTER_LOCK + (*number ? 0 : 1);
    do {
        if ((int64_t)v < 0) /* the lock's bit */
            return 0;
    } while (!atomic_compare_exchange_weak_explicit(&calls_counter.word, &v, v + add,
                                                    memory_order_acquire, memory_order_relaxed));
    if (!*number)
        *number = v + 1;
    return 1;
}

/* The lock, waiting for it (a waiter yields: the holder may be descheduled,
 * or growing a table), with no number. */
static inline void call_counter_lock(void)
{
    uint64_t none = 1;
    while (!call_counter_try_lock(&none))
        while ((int64_t)atomic_load_explicit(&calls_counter.word, memory_order_relaxed) < 0)
            sched_yield();
}

static inline void call_counter_unlock(void)
{
#ifdef CALL_COUNTER_TSAN
    atomic_fetch_sub_explicit(&calls_counter.word, CALL_COUNTER_LOCK, memory_order_release);
#else
    atomic_store_explicit(&calls_counter.bytes.lock, 0, memory_order_release);
#endif
}

#endif
