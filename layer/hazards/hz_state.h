/*
 * hz_state.h: the hazard checker's state, shared by the hz_*.c files only.
 * Everything here is guarded by hz_lock (hz_vector_clock.c): the checker is off by
 * default, and when on it trades the layer's lock-free launch path for one
 * uncontended lock per append (see README.md in this folder).
 */
#ifndef ZEIL_HZ_STATE_H
#define ZEIL_HZ_STATE_H

#include "hazards.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <uthash.h>

/* Timelines with a slot in the vector clocks: command lists that execute
 * (immediate lists, queues); a destroyed one hands its slot on, its epochs
 * continuing, so old clocks stay comparable (at worst they claim an order
 * that was not: a race missed, never one invented). */
#define HZ_SLOTS 64u
#define HZ_NO_SLOT UINT32_MAX
#define HZ_WAITS 16u       /* pending waits kept per timeline (hang walks) */
#define HZ_HISTORY 8u      /* accesses kept per allocation and timeline */
#define HZ_OP_ACCESSES 16u /* accesses one op is checked with */
#define HZ_OP_WAITS 16u    /* wait events one op is ordered by */

typedef struct hz_vector_clock {
    uint64_t at[HZ_SLOTS];
} hz_vector_clock_t;

/* Who made an access or a signal, for messages. */
typedef struct hz_who {
    uint64_t call;
    const char *call_name;
    const char *what; /* primitive kind or kernel name (interned), or null */
    int is_primitive;
    uint64_t stream_id;
    const void *list; /* the list (or queue) handle */
} hz_who_t;

struct hz_history;
typedef struct hz_access {
    uintptr_t base, lo, hi; /* the allocation, and [lo, hi) in it */
    uint8_t write, guess;
    /* Its history when known (a kernel's argument: found when it was set),
     * valid while the history's generation is gen. */
    uint32_t gen;
    struct hz_history *history;
} hz_access_t;

enum hz_op_kind {
    HZ_OP_WORK = 1,
    HZ_OP_BARRIER,
    HZ_OP_SIGNAL,
    HZ_OP_WAIT,
    HZ_OP_RESET
};

/* One append, as it is applied to a timeline (now for immediate lists, at
 * execution for regular ones). */
typedef struct hz_op {
    int kind;
    hz_who_t who;
    uint32_t naccess;
    uint32_t nwaits;
    hz_access_t access[HZ_OP_ACCESSES];
    const void *waits[HZ_OP_WAITS];
    /* More waits than waits[] holds: the caller's array, valid only during
     * the append (immediate lists; a regular list's op is not kept). */
    const ze_event_handle_t *many_waits;
    const void *signal; /* event handles */
    const void *reset;
    /* Its accesses when not in access[] (an immediate list's memo of its
     * last launch's kernel arguments: read only while the op is applied). */
    const hz_access_t *accesses;
} hz_op_t;

/* A wait of a pending op, kept for hang walks until the op is known done. */
typedef struct hz_wait {
    uint64_t epoch; /* of the waiting op */
    uint64_t call;
    const void *event;
    uint32_t sig_slot; /* the signal it waits for, HZ_NO_SLOT: none yet */
    uint64_t sig_epoch;
    uint64_t sig_call;
    uint32_t host_signals; /* the event's host signals then: one more ends the wait */
} hz_wait_t;

/* Where a memo's access is kept: block, the sole holder of the access (null:
 * none, it is checked and kept anew), at the sequence the list left it;
 * others, the word of its history that tells which other timelines to read
 * (exact_slots for a guess, slots else). */
typedef struct hz_memo_hold {
    struct hz_block *block;
    const uint64_t *others;
    uint32_t seq;
} hz_memo_hold_t;

typedef struct hz_timeline {
    uint32_t slot; /* HZ_NO_SLOT until it first executes */
    int in_order, synchronous, is_regular;
    const void *handle;
    hz_vector_clock_t clock; /* in order: the last op's; else the last barrier's */
    hz_vector_clock_t all;   /* out of order: every op's since, for barriers */
    uint64_t host_version;   /* of the host clock last joined */
    uint64_t last_epoch;     /* HZ_LOAD off its owner's thread */
    int timeout_warned;      /* W095 said once */
    uint32_t nwaits;
    hz_wait_t waits[HZ_WAITS];
    /* immediate lists: the accesses of the last launch's kernel, while its
     * arguments stay as they were (kernel and version), written by the
     * list's appends only */
    const void *memo_kernel;
    uint32_t memo_version, memo_count;
    /* memo_who and memo_hold describe memo: a launch of it kept them (an
     * in-order list's; cleared when memo is replaced) */
    uint32_t memo_ready;
    uint64_t memo_forgotten; /* hz_histories_forgotten when they were found */
    hz_access_t memo[HZ_OP_ACCESSES];
    hz_who_t memo_who;                        /* of the last launch of memo */
    hz_memo_hold_t memo_hold[HZ_OP_ACCESSES]; /* where memo[i] is kept */
    /* regular lists: the ops recorded, applied by each execution */
    hz_op_t *program;
    size_t count, capacity;
} hz_timeline_t;

enum hz_event_state {
    HZ_EV_NONE = 0,
    HZ_EV_PENDING,
    HZ_EV_HOST
};

typedef struct hz_event {
    hazards_event_host_t host; /* first: the host's hooks write it without a lock */
    uint64_t host_seen;        /* the word state last took in (hz_event_sync) */
    int state;
    uint32_t slot; /* PENDING: the signalling op */
    uint64_t epoch;
    hz_who_t who;
    uint32_t unresolved;     /* waits recorded before any signal */
    int timeout_warned;      /* W095 said once */
    int external;            /* IPC pool: another process may signal it */
    hz_vector_clock_t clock; /* what the signal carries (none for the host's) */
} hz_event_t;

static inline uint32_t hz_host_signals(uint64_t word)
{
    return (uint32_t)(word >> 32);
}

/* Under hz_lock: takes in the host's signals and resets since state was
 * last set. The host's signal carries no clock: every op joins the host's
 * clock after its waits (hz_apply), and that holds all the host knew when
 * it signalled. Waits recorded before a host signal are over (their
 * host_signals is behind). */
static inline void hz_event_sync(hz_event_t *e)
{
    uint64_t w = atomic_load_explicit(&e->host.word, memory_order_acquire);
    if (w == e->host_seen)
        return;
    if (hz_host_signals(w) != hz_host_signals(e->host_seen))
        e->unresolved = 0;
    e->host_seen = w;
    e->state = (w & HAZARDS_HOST_SIGNALLED) ? HZ_EV_HOST : HZ_EV_NONE;
}

/* A wait recorded before any signal of e that a host signal ended since. */
static inline int hz_wait_over(const hz_wait_t *wait, const hz_event_t *e)
{
    return wait->sig_slot == HZ_NO_SLOT && wait->host_signals != hz_host_signals(e->host_seen);
}

typedef struct hz_fence {
    hz_timeline_t *queue;
    uint32_t slot;
    uint64_t epoch;
    hz_vector_clock_t clock;
    int valid;
    int timeout_warned; /* W095 said once per execution */
} hz_fence_t;

typedef struct hz_kernel {
    uint64_t pointer_args; /* bit i: argument i points into USM */
    uint32_t version;      /* unique, new at every change (hz_kernel_versions) */
    hz_access_t arg[64];   /* its guessed access, found when the argument was set */
} hz_kernel_t;

/* One access kept: [lo, hi) of an allocation, by the op at epoch of the
 * block's slot; who made it beside (read only to report it). */
typedef struct hz_mark {
    uintptr_t lo, hi;
    uint64_t epoch;
    uint64_t call; /* its who's (who.call is not kept up to date) */
    uint32_t write, guess;
} hz_mark_t;

/* One timeline's accesses to one allocation not yet passed (at most
 * HZ_HISTORY: the oldest goes first, a race missed at worst). Written only
 * by its slot's owner, which the program's order on that list serializes;
 * read by every other timeline through seq, a seqlock (hz_access.c). */
typedef struct hz_block {
    uint32_t seq;   /* odd while the owner writes */
    uint32_t gen;   /* the history's generation its entries belong to */
    uint32_t count; /* entries */
    uint32_t exact; /* entries that are no guess: a guess needs to read no others */
    hz_mark_t mark[HZ_HISTORY];
    hz_who_t who[HZ_HISTORY];
} hz_block_t;

/* The accesses to one allocation, per timeline slot (hz_histories.c). Never
 * freed: a forgotten history (its allocation freed) advances gen and goes
 * to a free list, so a reader holding one reads memory that stays a
 * history. Fields other threads read are accessed atomically. */
typedef struct hz_history {
    /* first, on one line: what every access to it reads */
    uintptr_t base; /* 0 once forgotten */
    uint32_t gen;
    uint64_t slots;       /* bit s: block[s] is made */
    uint64_t exact_slots; /* bit s: block[s] holds an access that is no guess */
    UT_hash_handle hh;    /* in the table, under its lock */
    hz_block_t *block[HZ_SLOTS];
    struct hz_history *next_free;
} hz_history_t;

/* Relaxed atomic loads and stores of plain fields other threads read (on
 * x86 plain moves; ThreadSanitizer sees them as atomic). */
#define HZ_LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define HZ_STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

/* ---- hz_histories.c: the histories by allocation base ---- */
/* The live history of base (made when create), and its generation; null
 * when there is none, or no memory. No lock when the thread looked it up
 * before (a per-thread cache); the table's lock otherwise. */
hz_history_t *hz_history_of(uintptr_t base, int create, uint32_t *gen);
/* Drops base's history (its allocation is freed): readers holding it see
 * its generation move on, then hz_histories_forgotten move. */
void hz_history_forget(uintptr_t base);
/* How many histories were forgotten: unchanged, every history found live
 * before it was read is still live (a launch's memo asks none of them). */
extern uint64_t hz_histories_forgotten;
static inline uint64_t hz_histories_forgotten_now(void)
{
    return __atomic_load_n(&hz_histories_forgotten, __ATOMIC_ACQUIRE);
}

/* The access a pointer into a live USM allocation makes (guess: the whole
 * allocation, read and written): 1, or 0 when ptr is no USM (hz_hooks.c). */
int hz_access_of(const void *ptr, size_t size, int write, int guess, hz_access_t *out);

/* ---- hz_vector_clock.c: the lock, slots, the host's clock ---- */
/* The checker's global lock: slots, events, fences, the host's clock's
 * writers, wait records and the walks of the wait graph (README.md,
 * "Cost"). An append on an immediate list that waits on nothing and
 * signals nothing takes no lock. An exchange takes it; a waiter yields, as
 * the holder may be descheduled. */
extern atomic_int hz_lock;
static inline void hz_lock_take(void)
{
    while (atomic_exchange_explicit(&hz_lock, 1, memory_order_acquire))
        while (atomic_load_explicit(&hz_lock, memory_order_relaxed))
            sched_yield();
}
static inline void hz_unlock(void)
{
    atomic_store_explicit(&hz_lock, 0, memory_order_release);
}
/* Written under hz_lock, read by appends without it (HZ_LOAD): entries
 * only grow, and hz_host_version moves (a release) after them. */
extern uint32_t hz_width;         /* slots ever handed out */
extern hz_vector_clock_t hz_host; /* what the host knows is done */
extern uint64_t hz_host_version;
/* The last epoch of each slot's last owner, for the next (hazards_retired
 * writes it under hz_lock): a live owner keeps its own in last_epoch, so
 * that appends on different lists write no line they share. */
extern uint64_t hz_slot_epoch[HZ_SLOTS];
extern hz_timeline_t *hz_slot_owner[HZ_SLOTS];
/* Set when zeil lost track of something the checks depend on (its memory
 * ran out, the registry is incomplete, more timelines than slots): from then
 * on the checks stay silent rather than judge from half the facts. */
extern int hz_degraded;
void hz_lost(const char *doing); /* out of memory: degrade, count */
/* Takes hz_lock; 0 (and the lock given back) when the checks are degraded. */
int hz_enter(void);

void hz_join(hz_vector_clock_t *into, const hz_vector_clock_t *from);
/* into joins the host's clock (no lock): the version it holds after. */
uint64_t hz_join_host(hz_vector_clock_t *into);
static inline uint64_t hz_host_version_now(void)
{
    return __atomic_load_n(&hz_host_version, __ATOMIC_ACQUIRE);
}
static inline uint32_t hz_width_now(void)
{
    return __atomic_load_n(&hz_width, __ATOMIC_ACQUIRE);
}
int hz_slot_take(hz_timeline_t *timeline); /* 0, or -1 when none is free */
/* The timeline's next epoch, now its last (its owner's thread). */
static inline uint64_t hz_next_epoch(hz_timeline_t *t)
{
    uint64_t epoch = t->last_epoch + 1;
    HZ_STORE(t->last_epoch, epoch);
    return epoch;
}
void hz_host_learns(const hz_vector_clock_t *clock);
static inline int hz_done(uint32_t slot, uint64_t epoch)
{
    return slot < HZ_SLOTS && HZ_LOAD(hz_host.at[slot]) >= epoch;
}
hz_timeline_t *hz_timeline_of(zeil_obj_t *obj); /* list or queue, created */
hz_event_t *hz_event_of(const void *handle);    /* null: not a live event */
hz_event_t *hz_event_obj(zeil_obj_t *obj);

/* ---- hz_apply.c: one op on a timeline ---- */
/* Findings are formatted under the lock into *out and said after it. */
typedef struct hz_findings {
    int count;
    int rule[4];
    char text[4][640];
} hz_findings_t;
void hz_apply(hz_timeline_t *timeline, const hz_op_t *op, hz_findings_t *out);
void hz_findings_say(const hz_findings_t *findings, const char *call_name);
void hz_who_text(const hz_who_t *who, char *out, size_t size);

/* ---- hz_access.c: races, frees (no lock) ---- */
/* Checks each access of op against its allocation's history, then keeps it. */
void hz_access_check_op(uint32_t slot, uint64_t epoch, const hz_vector_clock_t *clock,
                        const hz_op_t *op, hz_findings_t *out);
/* The same for a launch on an in-order immediate list, its clock the
 * timeline's; a launch of the list's memo (op->accesses is t->memo) keeps
 * memo_who and memo_hold for the next (hz_launch_again.h). */
void hz_access_check_launch(hz_timeline_t *t, uint64_t epoch, const hz_op_t *op,
                            hz_findings_t *out);
/* The memo's accesses again, by memo_who (its call number set), at epoch on
 * an in-order immediate list whose memo is ready: each whose block the list
 * left as it was is checked against the other timelines and moves only its
 * entry's epoch and call; any other is checked and kept anew. */
void hz_access_launch_again(hz_timeline_t *t, uint64_t epoch, hz_findings_t *out);
/* Memo access i checked and kept anew by memo_who, its hold found again. */
void hz_access_memo_keep(hz_timeline_t *t, uint32_t i, uint64_t epoch, hz_findings_t *out)
    __attribute__((noinline));
/* Memo access i against the other timelines in others (its hold's word
 * without the list's own slot): the oldest it races with is reported. */
void hz_access_memo_others(hz_timeline_t *t, uint32_t i, uint64_t others, hz_findings_t *out)
    __attribute__((noinline));

/* hz_apply of work (accesses only: no waits, signal or reset) on an in-order
 * timeline with its slot, at epoch (hz_next_epoch): its clock is the
 * timeline's, moved on in place. Inline: the usual launch's path. */
static inline void hz_apply_work_in_order(hz_timeline_t *t, const hz_op_t *op, uint64_t epoch,
                                          hz_findings_t *out)
{
    if (t->host_version != hz_host_version_now())
        t->host_version = hz_join_host(&t->clock);
    t->clock.at[t->slot] = epoch;
    if (op->naccess)
        hz_access_check_launch(t, epoch, op, out);
    if (HZ_LOAD(t->synchronous))
        hz_host_learns(&t->clock);
}
/* 0 when nothing in flight uses [base, ...), else fills text. */
int hz_access_in_flight(uintptr_t base, char *text, size_t size);
void hz_access_forget(uintptr_t base);

/* ---- hz_hang.c: walks of the wait graph ---- */
/* What a walk found: nothing (0), an event nothing pending signals (which
 * another thread may still signal: not proven), or a cycle (proven). */
#define HZ_HANG_DEAD_END 1
#define HZ_HANG_CYCLE 2
/* HZ_HANG_CYCLE when the op (slot, epoch) transitively waits on a wait for
 * target recorded before any signal of it (a cycle once target is signalled
 * after that op); path says how. */
int hz_hang_cycle(uint32_t slot, uint64_t epoch, const void *target, char *path, size_t size);
/* HZ_HANG_DEAD_END or HZ_HANG_CYCLE when the event can never be signalled
 * by what is pending, 0 otherwise; path says how. */
int hz_hang_dead_event(const void *event, char *path, size_t size);
/* The same for the op (slot, epoch) completing. */
int hz_hang_dead_op(uint32_t slot, uint64_t epoch, char *path, size_t size);
void hz_waits_prune(hz_timeline_t *timeline);

#endif
