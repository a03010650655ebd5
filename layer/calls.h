/*
 * calls.h: what every intercepted call shares: its sequence number, the
 * calling thread's small number, timing for the calls log.
 */
#ifndef ZEIL_CALLS_H
#define ZEIL_CALLS_H

#include "env.h"

#include <level_zero/ze_api.h>
#include <stdatomic.h>
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

/* The process-wide call counter (calls.c). */
extern _Atomic uint64_t calls_counter __attribute__((visibility("hidden")));
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
    call->number = atomic_fetch_add_explicit(&calls_counter, 1, memory_order_relaxed) + 1;
    call->start_ns = calls_timed() ? calls_now_ns() : 0;
}

/* The same for hot calls that create, destroy and submit nothing (host-side
 * event signal, reset, wait, query): they take a number only when the calls
 * log shows one (calls_number otherwise, should anything need it), so they
 * cost no shared atomic. Numbers stay unique and increasing in time. */
static inline void calls_begin_unnumbered(zeil_call_t *call, const char *name)
{
    call->name = name;
    call->number = zeil_settings()->log_level >= ZEIL_LOG_CALLS
                       ? atomic_fetch_add_explicit(&calls_counter, 1, memory_order_relaxed) + 1
                       : 0;
    call->start_ns = calls_timed() ? calls_now_ns() : 0;
}

static inline uint64_t calls_number(zeil_call_t *call)
{
    if (!call->number)
        call->number = atomic_fetch_add_explicit(&calls_counter, 1, memory_order_relaxed) + 1;
    return call->number;
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
