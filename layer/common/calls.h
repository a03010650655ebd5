/*
 * calls.h: what every intercepted call shares: its sequence number, the
 * calling thread's small number, timing for the calls log.
 */
#ifndef ZEIL_CALLS_H
#define ZEIL_CALLS_H

#include "call_counter.h"
#include "env.h"

#include <level_zero/ze_api.h>
#include <stdatomic.h>
#include <zeil/zeil.h>
#include <stddef.h>
#include <stdint.h>

#include "zeil_output.h"

typedef struct zeil_call {
    const char *name;  /* the API function, e.g. "zeMemFree" */
    uint64_t number;   /* process-wide call sequence number, from 1 */
    uint64_t start_ns; /* set only when the calls log is on */
    /* The calling thread's state (calls_thread), when the intercept had it
     * at hand (the generated fast block), else null: calls_thread_number_of
     * then needs no thread-local lookup of its own. */
    struct calls_thread *thread;
} zeil_call_t;

uint64_t calls_now_ns(void);

struct zeil_obj;            /* registry.h */
struct zeil_list_state;     /* records.h */
struct stats_entry;         /* records_state.h */
struct records_launch_desc; /* records_state.h */

/* One of the thread's last plain launches (launch_cache.h). */
#define LAUNCH_CACHE_ENTRIES 4
typedef struct launch_cache {
    const void *list_handle;
    const void *kernel_handle;
    struct zeil_obj *list, *kernel;
    const _Atomic int *closed;       /* the list's is_closed, or 0 for ever */
    struct zeil_list_state *records; /* the list's (it keeps them while alive) */
    uint64_t generation;             /* 0: empty (generations start at 1) */
    /* What its records say besides their times, group count and key
     * (records_add_plain_launch), while the attribution (an interned one) and
     * the kernel's group size (group_size_epoch) stay those it was made for;
     * the list's stream changes the generation. Until it is made (desc
     * null), attribution is records_undescribed, which no thread has. */
    const struct records_launch_desc *desc;
    const zeil_attribution_t *attribution;
    uint32_t group_size_epoch;
    uint64_t word;             /* the records' word (thread, kind) */
    struct stats_entry *stats; /* the list's counter of such launches */
} launch_cache_t;

/* The generation of every thread's launch cache entries, alone on its cache
 * line: launches only read it. Destroying a list or kernel, or binding a
 * list to a stream, advances it (launch_cache_forget_all): entries of an
 * older generation are not used. */
typedef struct launch_cache_generation {
    _Alignas(64) _Atomic uint64_t value;
} launch_cache_generation_t;
extern launch_cache_generation_t launch_cache_generation __attribute__((visibility("hidden")));
/* Every thread's entries are stale from now on. */
void launch_cache_forget_all(void);

/* What a launch reads and writes of its thread, in one thread-local so that
 * it resolves one thread-local address (each costs a call into the dynamic
 * loader's TLS descriptor code). */
typedef struct calls_thread {
    uint32_t number;  /* zeil's small number of the thread, 0: none yet */
    uint32_t key_low; /* thread << 10 | k of its last unnumbered key
                         (calls_order_key); CALLS_KEY_NONE while it cannot
                         have one (no number yet, or one too large) */
    /* The innermost stored attribution (records_attribution.c keeps the
     * stack and sets this), or null. */
    const zeil_attribution_t *attribution;
    launch_cache_t launch[LAUNCH_CACHE_ENTRIES];
    unsigned launch_victim; /* the entry launch_cache_remember replaces next */
    /* The thread's trace ring once a traced launch asked for it
     * (zo_trace_launch.h): no second thread-local lookup per launch. */
    struct zo_ring *trace_ring;
    /* The last live object check_handle_live found of each kind (checks.h). */
    struct checked_handle {
        const void *handle;
        struct zeil_obj *obj;
        uint64_t generation; /* registry_retirements when found; 0: never a hit */
    } checked[ZEIL_KIND_COUNT];
} calls_thread_t;
extern _Thread_local calls_thread_t calls_thread __attribute__((visibility("hidden")));

/* The calling thread's state, its address resolved once: the compiler would
 * find a thread-local's address again at each use (a call into the TLS
 * descriptor code each time) rather than keep it; hiding where the pointer
 * came from makes it keep it in a register. */
static inline calls_thread_t *calls_thread_here(void)
{
    calls_thread_t *t = &calls_thread;
    __asm__("" : "+r"(t));
    return t;
}

/* zeil's small number of the calling thread (1 for the first thread seen);
 * inline, records take it on every launch. */
uint32_t calls_number_this_thread(void);
static inline uint32_t calls_thread_number(void)
{
    uint32_t n = calls_thread.number;
    return n ? n : calls_number_this_thread();
}

/* &calls_thread, looked up once: opaque to the compiler, which would
 * otherwise look it up again at each use (a call into the dynamic loader's
 * TLS descriptor code each time) rather than keep it. */
static inline calls_thread_t *calls_thread_self(void)
{
    calls_thread_t *self = &calls_thread;
    __asm__("" : "+r"(self));
    if (!self) /* never: what the compiler may assume of it */
        __builtin_unreachable();
    return self;
}

/* calls_thread_number, from the thread's state the call carries if any. */
static inline uint32_t calls_thread_number_of(const zeil_call_t *call)
{
    calls_thread_t *t = call->thread;
    return t && t->number ? t->number : calls_thread_number();
}

/* 1 when every call is timed: calls log or trace on. Inline: every call asks. */
static inline int calls_timed(void)
{
    if (zo_trace_enabled())
        return 1;
    return zeil_settings()->log_level >= ZEIL_LOG_CALLS;
}

/* 1 once the settings are read and the output started with neither the calls
 * log nor the trace on (calls_settle): a call then needs no clock, no span and
 * no log line, and an unnumbered one no number. One load tells every call; 0
 * (before, or whenever either is on) sends it to the slow path below, which
 * asks the settings and the trace itself. Tracing starts only when the output
 * starts (zo_init, before calls_settle) and may stop later (exit, a forked
 * child): a stopped trace leaves the word 0, and the slow path sees it off. */
extern _Atomic int calls_quiet __attribute__((visibility("hidden")));
static inline int calls_are_quiet(void)
{
    return __builtin_expect(atomic_load_explicit(&calls_quiet, memory_order_relaxed), 1);
}
/* The bootstrap, once the output started (bootstrap.c). */
void calls_settle(void);

/* The slow paths of calls_begin and calls_begin_unnumbered. */
void calls_begin_timed(zeil_call_t *call, const char *name);
void calls_begin_unnumbered_timed(zeil_call_t *call, const char *name);

/* Inline: every intercepted call begins here, numbered. */
static inline void calls_begin(zeil_call_t *call, const char *name)
{
    if (!calls_are_quiet()) {
        calls_begin_timed(call, name);
        return;
    }
    call->name = name;
    call->number = calls_take_number();
    call->start_ns = 0;
    call->thread = NULL;
}

/* The same for hot calls that create, destroy and report nothing (host-side
 * event signal, reset, wait and query, and a launch until it turns out not to
 * be plain): they take a number only when the calls log shows one
 * (calls_number otherwise, should anything need it), so they cost no shared
 * atomic. Allocations and frees start so too: the USM index takes their
 * number with its lock (call_counter.h). Numbers stay unique and increasing
 * in time. */
static inline void calls_begin_unnumbered(zeil_call_t *call, const char *name)
{
    if (!calls_are_quiet()) {
        calls_begin_unnumbered_timed(call, name);
        return;
    }
    call->name = name;
    call->number = 0;
    call->start_ns = 0;
    call->thread = NULL;
}

/* ZE_RESULT_SUCCESS, which the compiler cannot tell from any other value:
 * where an intercept returns success after its hooks, the compiler would
 * otherwise return the driver's result, known to be success there, and keep
 * it across the hooks' calls (a stack frame for one spill on every call). */
static inline ze_result_t calls_success(void)
{
    ze_result_t success = ZE_RESULT_SUCCESS;
    __asm__("" : "+r"(success));
    return success;
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
 * where k counts the thread's unnumbered keys, 1 to 1023. So keys are unique
 * (the thread is in them), increase along each thread (k grows while g stays,
 * and k restarts only after the thread took a number of its own, which is
 * above every g it read before), and order every unnumbered call after each
 * numbered call it can have seen (g or earlier) and before each one that can
 * have seen it (g + 1 or later, which its load preceded). Two unnumbered
 * calls of different threads under the same g were concurrent as far as zeil
 * can tell: they order by thread. When k runs out the call takes a number
 * after all: once in 1023 plain launches of a thread; always for a thread
 * numbered 1024 or above, which does not fit its 10 bits.
 */
#define CALLS_KEY_THREAD_BITS 10u
#define CALLS_KEY_COUNT_BITS 10u
/* A key_low whose k ran out and that has no thread part. */
#define CALLS_KEY_NONE ((1u << CALLS_KEY_COUNT_BITS) - 1)
_Static_assert(CALLS_KEY_THREAD_BITS + CALLS_KEY_COUNT_BITS == ZEIL_RECORD_SEQ_SHIFT,
               "an unnumbered key fits below the number");

/* k ran out, or the thread has no number yet or too large a one. */
uint64_t calls_order_key_numbered(void);

/* The low bits of thread t's next unnumbered key (t == &calls_thread), or 0
 * when k ran out or the thread has no thread part: it must then take a
 * number (calls_order_key_numbered). */
static inline uint32_t calls_unnumbered_low(calls_thread_t *t)
{
    uint32_t low = t->key_low + 1;
    const uint32_t k_mask = (1u << CALLS_KEY_COUNT_BITS) - 1;
    /* A thread part is never 0: without one, key_low is CALLS_KEY_NONE,
     * whose next k runs out at once. */
    if (__builtin_expect((low & k_mask) == 0, 0))
        return 0;
    t->key_low = low;
    return low;
}

static inline uint64_t calls_order_key(const zeil_call_t *call)
{
    if (call->number)
        return call->number << ZEIL_RECORD_SEQ_SHIFT;
    uint64_t g = calls_last_number();
    uint32_t low = calls_unnumbered_low(&calls_thread);
    if (!low)
        return calls_order_key_numbered();
    return g << ZEIL_RECORD_SEQ_SHIFT | low;
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
#define CALLS_END(call, result, ...) \
    (!(call)->start_ns                              ? (result) \
     : zeil_settings()->log_level >= ZEIL_LOG_CALLS ? calls_end((call), (result), __VA_ARGS__) \
                                                    : calls_end_span((call), (result)))

const char *calls_result_name(ze_result_t result);

#endif
