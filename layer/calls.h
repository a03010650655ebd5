/*
 * calls.h: what every intercepted call shares: its sequence number, the
 * calling thread's small number, timing for the calls log.
 */
#ifndef ZEIL_CALLS_H
#define ZEIL_CALLS_H

#include "env.h"

#include <level_zero/ze_api.h>
#include <stdatomic.h>
#include <zeil/zeil.h>
#include <stdint.h>

#ifdef ZEIL_HAVE_OUTPUT
#include "zeil_output.h"
#endif

typedef struct zeil_call {
    const char *name;     /* the API function, e.g. "zeMemFree" */
    uint64_t number;      /* process-wide call sequence number, from 1 */
    uint64_t start_ns;    /* set only when the calls log is on */
} zeil_call_t;

uint64_t calls_now_ns(void);
/* zeil's small number of the calling thread (1 for the first thread seen);
 * inline, records take it on every launch. */
extern _Thread_local uint32_t calls_this_thread __attribute__((visibility("hidden")));
uint32_t calls_number_this_thread(void);
static inline uint32_t calls_thread_number(void)
{
    uint32_t n = calls_this_thread;
    return n ? n : calls_number_this_thread();
}

/* The process-wide call counter (calls.c), alone on its cache line: every
 * numbered call writes it, and the launch fast path only reads it. */
typedef struct calls_counter {
    _Alignas(64) _Atomic uint64_t value;
} calls_counter_t;
extern calls_counter_t calls_counter __attribute__((visibility("hidden")));

static inline uint64_t calls_take_number(void)
{
    return atomic_fetch_add_explicit(&calls_counter.value, 1, memory_order_relaxed) + 1;
}

/* 1 when every call is timed: calls log or trace on. Inline: every call asks. */
static inline int calls_timed(void)
{
#ifdef ZEIL_HAVE_OUTPUT
    if (zo_trace_enabled())
        return 1;
#endif
    return zeil_settings()->log_level >= ZEIL_LOG_CALLS;
}

/* Inline: every intercepted call begins here, numbered. */
static inline void calls_begin(zeil_call_t *call, const char *name)
{
    call->name = name;
    call->number = calls_take_number();
    call->start_ns = calls_timed() ? calls_now_ns() : 0;
}

/* The same for hot calls that create, destroy and report nothing (host-side
 * event signal, reset, wait and query, and a launch until it turns out not to
 * be plain): they take a number only when the calls log shows one
 * (calls_number otherwise, should anything need it), so they cost no shared
 * atomic. Numbers stay unique and increasing in time. */
static inline void calls_begin_unnumbered(zeil_call_t *call, const char *name)
{
    call->name = name;
    call->number = zeil_settings()->log_level >= ZEIL_LOG_CALLS ? calls_take_number() : 0;
    call->start_ns = calls_timed() ? calls_now_ns() : 0;
}

static inline uint64_t calls_number(zeil_call_t *call)
{
    if (!call->number)
        call->number = calls_take_number();
    return call->number;
}

/*
 * The order key of a submission (zeil_record_t.seq), without a shared
 * read-modify-write for an unnumbered call. A numbered call's key is its
 * number << ZEIL_RECORD_SEQ_SHIFT. An unnumbered one (a plain launch) reads
 * the counter, the last number taken anywhere (g), and gets
 *     g << ZEIL_RECORD_SEQ_SHIFT | thread << 10 | k
 * where k counts the thread's unnumbered keys since g. So keys are unique
 * (the thread is in them), increase along each thread, and order every
 * unnumbered call after each numbered call it can have seen (g or later) and
 * before each one that can have seen it (g + 1 or later, which its load
 * preceded). Two unnumbered calls of different threads under the same g
 * were concurrent as far as zeil can tell: they order by thread. When k or
 * the thread number does not fit its 10 bits, the call takes a number after
 * all: once in 1023 plain launches of a thread, or always for a thread
 * numbered 1024 or above.
 */
#define CALLS_KEY_THREAD_BITS 10u
#define CALLS_KEY_COUNT_BITS 10u
_Static_assert(CALLS_KEY_THREAD_BITS + CALLS_KEY_COUNT_BITS == ZEIL_RECORD_SEQ_SHIFT,
               "an unnumbered key fits below the number");
typedef struct calls_unnumbered {
    uint64_t epoch; /* g of the thread's last unnumbered key */
    uint32_t count; /* k of it */
} calls_unnumbered_t;
extern _Thread_local calls_unnumbered_t calls_unnumbered __attribute__((visibility("hidden")));

static inline uint64_t calls_order_key(const zeil_call_t *call)
{
    if (call->number)
        return call->number << ZEIL_RECORD_SEQ_SHIFT;
    uint64_t g = atomic_load_explicit(&calls_counter.value, memory_order_relaxed);
    calls_unnumbered_t *u = &calls_unnumbered;
    uint32_t k = u->epoch == g ? u->count + 1 : 1;
    uint32_t thread = calls_thread_number();
    if (k < (1u << CALLS_KEY_COUNT_BITS) && thread < (1u << CALLS_KEY_THREAD_BITS)) {
        u->epoch = g;
        u->count = k;
        return g << ZEIL_RECORD_SEQ_SHIFT | (uint64_t)thread << CALLS_KEY_COUNT_BITS | k;
    }
    uint64_t n = calls_take_number();
    u->epoch = n; /* k restarts above n's own key */
    u->count = 0;
    return n << ZEIL_RECORD_SEQ_SHIFT;
}

/* Ends a call: at ZEIL_LOG=calls writes one line with the key arguments
 * (formatted only then), the result and the duration. Returns result. */
ze_result_t calls_end(const zeil_call_t *call, ze_result_t result, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Ends a call that is timed but not logged (trace on, calls log off): its
 * API span only. Returns result. */
ze_result_t calls_end_span(const zeil_call_t *call, ze_result_t result);

/* calls_end, with the key arguments evaluated only when the calls log shows
 * them: a traced call writes its span without them, an untimed call does
 * nothing at all. */
#define CALLS_END(call, result, ...)                                               \
    (!(call)->start_ns ? (result)                                                  \
     : zeil_settings()->log_level >= ZEIL_LOG_CALLS ? calls_end((call), (result), __VA_ARGS__) \
                                                    : calls_end_span((call), (result)))

const char *calls_result_name(ze_result_t result);

#endif
