/*
 * Memory accesses: per USM allocation and timeline, the accesses not yet
 * passed (hz_block_t, at most HZ_HISTORY; the oldest goes first, a race
 * missed at worst). An access is passed once the host knows it done: every
 * later append joins the host's clock, so nothing can race with it any
 * more; or once a later access of the same timeline covers its range. Two
 * accesses race when they come from different timelines, overlap, one
 * writes, and neither clock holds the other.
 *
 * No lock: a timeline writes only its own block of each allocation (the
 * program's order on the list serializes its appends), and reads the other
 * timelines' blocks through their seqlocks. An append checks before it
 * keeps its access, so of two appends racing at the same moment the later
 * sees the earlier (x86 keeps a load before a later store): the race is
 * said once. A block that keeps changing under a reader is skipped (a race
 * missed, never invented: a stale entry is older, and an op ordered after
 * the newer one is ordered after it too).
 */
#include "hz_state.h"
#include "hz_launch_again.h"

#include "diag.h"

#include <stdio.h>
#include <stdlib.h>

#define READ_TRIES 8

/* A block's fields: its writer stores each with release (none is seen before
 * its odd sequence), its readers load each with acquire (the sequence read
 * again comes after them): the seqlock without fences, which
 * ThreadSanitizer follows (on x86 all plain moves). */
#define SEQ_LOAD(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define SEQ_STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELEASE)

#if defined(__x86_64__) || defined(__i386__)
#define HZ_RELAX() __builtin_ia32_pause()
#else
#define HZ_RELAX() ((void)0)
#endif

static void who_load(const hz_who_t *from, hz_who_t *to)
{
    to->call = SEQ_LOAD(from->call);
    to->call_name = SEQ_LOAD(from->call_name);
    to->what = SEQ_LOAD(from->what);
    to->is_primitive = SEQ_LOAD(from->is_primitive);
    to->stream_id = SEQ_LOAD(from->stream_id);
    to->list = SEQ_LOAD(from->list);
}

/* The owner's store: launch after launch only the call number changes. */
static void who_store(hz_who_t *to, const hz_who_t *from)
{
    SEQ_STORE(to->call, from->call);
    if (to->call_name != from->call_name || to->what != from->what || to->list != from->list ||
        to->stream_id != from->stream_id || to->is_primitive != from->is_primitive) {
        SEQ_STORE(to->call_name, from->call_name);
        SEQ_STORE(to->what, from->what);
        SEQ_STORE(to->is_primitive, from->is_primitive);
        SEQ_STORE(to->stream_id, from->stream_id);
        SEQ_STORE(to->list, from->list);
    }
}

static void mark_store(hz_mark_t *to, const hz_mark_t *from)
{
    SEQ_STORE(to->lo, from->lo);
    SEQ_STORE(to->hi, from->hi);
    SEQ_STORE(to->epoch, from->epoch);
    SEQ_STORE(to->call, from->call);
    SEQ_STORE(to->write, from->write);
    SEQ_STORE(to->guess, from->guess);
}

static int overlap(uintptr_t lo, uintptr_t hi, const hz_access_t *a)
{
    return lo < a->hi && a->lo < hi;
}

static __attribute__((noinline)) void report_race(const hz_who_t *who, const hz_access_t *a,
                                                  const hz_mark_t *e, const hz_who_t *e_who,
                                                  hz_findings_t *out)
{
    if (out->count == (int)(sizeof out->rule / sizeof out->rule[0]))
        return;
    char now[160], before[160];
    hz_who_text(who, now, sizeof now);
    hz_who_text(e_who, before, sizeof before);
    const char *verb = a->guess ? "may read or write" : a->write ? "writes" : "reads";
    const char *past = e->guess ? "possibly written" : e->write ? "written" : "read";
    int guess = a->guess || e->guess;
    snprintf(out->text[out->count], sizeof out->text[0],
             "%s %s %#lx+%lu, %s by %s (call #%llu) with no event between them%s", now, verb,
             (unsigned long)a->lo, (unsigned long)(a->hi - a->lo), past, before,
             (unsigned long long)e_who->call,
             guess ? " (a kernel's pointer argument: zeil assumes it reads and writes the "
                     "whole allocation)"
                   : "");
    out->rule[out->count++] = guess ? ZEIL_RULE_W091 : ZEIL_RULE_E090;
}

/* What a reader found in a block: the oldest entry that races (or, for a
 * free, that is in flight). */
typedef struct found {
    int any;
    hz_mark_t mark;
    hz_who_t who;
} found_t;

/* Reads another slot's block (a null access: any entry not passed) and
 * keeps in *f the oldest entry found; a block that kept changing is
 * skipped. */
static void block_scan(const hz_block_t *b, uint32_t gen, uint32_t o,
                       const hz_vector_clock_t *clock, const hz_access_t *a, found_t *f)
{
    for (int tries = 0; tries < READ_TRIES; tries++) {
        uint32_t seq = __atomic_load_n(&b->seq, __ATOMIC_ACQUIRE);
        if (seq & 1) {
            HZ_RELAX();
            continue;
        }
        uint32_t count = SEQ_LOAD(b->count);
        if (SEQ_LOAD(b->gen) != gen || count > HZ_HISTORY)
            count = 0;
        found_t mine;
        mine.any = 0;
        for (uint32_t i = 0; i < count; i++) {
            const hz_mark_t *m = &b->mark[i];
            uint64_t epoch = SEQ_LOAD(m->epoch);
            if (hz_done(o, epoch) || (clock && clock->at[o] >= epoch))
                continue; /* passed, or ordered before this access */
            hz_mark_t e = {SEQ_LOAD(m->lo),   SEQ_LOAD(m->hi),    epoch,
                           SEQ_LOAD(m->call), SEQ_LOAD(m->write), SEQ_LOAD(m->guess)};
            /* Two guesses are not reported: zeil knows neither side's access. */
            if (a && (!(e.write || a->write) || (e.guess && a->guess) || !overlap(e.lo, e.hi, a)))
                continue;
            hz_who_t who;
            who_load(&b->who[i], &who);
            who.call = e.call;
            if (!mine.any || who.call < mine.who.call) {
                mine.any = 1;
                mine.mark = e;
                mine.who = who;
            }
        }
        if (HZ_LOAD(b->seq) != seq)
            continue;
        if (mine.any && (!f->any || mine.who.call < f->who.call))
            *f = mine;
        return;
    }
}

/* Every other slot's block of h (a null clock and access: every slot's). */
static __attribute__((noinline)) void scan(const hz_history_t *h, uint32_t gen, uint64_t slots,
                                           const hz_vector_clock_t *clock, const hz_access_t *a,
                                           found_t *f)
{
    for (; slots; slots &= slots - 1) {
        uint32_t o = (uint32_t)__builtin_ctzll(slots);
        const hz_block_t *b = __atomic_load_n(&h->block[o], __ATOMIC_ACQUIRE);
        if (b)
            block_scan(b, gen, o, clock, a, f);
    }
}

/* The other slots (all but mine's) whose blocks a must be checked against:
 * two guesses are never reported, so a guess reads only blocks holding an
 * exact access (exact_slots, a part of slots; a block changing meanwhile: a
 * race missed at worst). */
static inline uint64_t to_scan(const hz_history_t *h, uint64_t mine, const hz_access_t *a)
{
    return (a->guess ? HZ_LOAD(h->exact_slots) : HZ_LOAD(h->slots)) & ~mine;
}

/* The slot's own block of h, made on its first access (null: no memory). */
static __attribute__((noinline)) hz_block_t *own_block(hz_history_t *h, uint32_t slot)
{
    hz_block_t *b = __atomic_load_n(&h->block[slot], __ATOMIC_ACQUIRE);
    if (b)
        return b;
    hz_block_t *fresh = calloc(1, sizeof *fresh);
    if (!fresh)
        return NULL;
    /* Only the slot's owner makes it; the exchange guards a program that
     * breaks that rule from leaking one. */
    if (!__atomic_compare_exchange_n(&h->block[slot], &b, fresh, 0, __ATOMIC_RELEASE,
                                     __ATOMIC_ACQUIRE)) {
        free(fresh);
        return b;
    }
    __atomic_fetch_or(&h->slots, 1ull << slot, __ATOMIC_RELEASE);
    return fresh;
}

/* Whether the owner's entry e is gone once a is kept: passed, or covered
 * (whatever would race with it races with a). */
static int superseded(uint32_t slot, const hz_mark_t *e, const hz_access_t *a)
{
    return hz_done(slot, e->epoch) || (a->lo <= e->lo && e->hi <= a->hi && (a->write || !e->write));
}

/* The owner keeps the access (plain reads of its own block: only it
 * writes there). */
static __attribute__((noinline)) void keep(hz_history_t *h, hz_block_t *b, uint32_t gen,
                                           uint32_t slot, uint64_t epoch, const hz_who_t *who,
                                           const hz_access_t *a)
{
    uint32_t count = b->gen == gen ? b->count : 0;
    uint32_t seq = b->seq;
    SEQ_STORE(b->seq, seq + 1);
    uint32_t n = 0, exact = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (superseded(slot, &b->mark[i], a))
            continue;
        if (n != i) {
            mark_store(&b->mark[n], &b->mark[i]);
            who_store(&b->who[n], &b->who[i]);
        }
        n++;
    }
    if (n == HZ_HISTORY) { /* full: the oldest goes */
        for (uint32_t i = 1; i < n; i++) {
            mark_store(&b->mark[i - 1], &b->mark[i]);
            who_store(&b->who[i - 1], &b->who[i]);
        }
        n--;
    }
    const hz_mark_t add = {a->lo, a->hi, epoch, who->call, a->write, a->guess};
    mark_store(&b->mark[n], &add);
    who_store(&b->who[n], who);
    for (uint32_t i = 0; i <= n; i++)
        exact += !b->mark[i].guess;
    if (!exact != !b->exact) { /* rare: guesses and exact accesses mix */
        if (exact)
            __atomic_fetch_or(&h->exact_slots, 1ull << slot, __ATOMIC_RELEASE);
        else
            __atomic_fetch_and(&h->exact_slots, ~(1ull << slot), __ATOMIC_RELEASE);
    }
    SEQ_STORE(b->exact, exact);
    SEQ_STORE(b->count, n + 1);
    SEQ_STORE(b->gen, gen);
    __atomic_store_n(&b->seq, seq + 2, __ATOMIC_RELEASE);
}

static inline hz_history_t *history_of_access(const hz_access_t *a, uint32_t *gen)
{
    hz_history_t *h = a->history;
    if (h && HZ_LOAD(h->base) == a->base && HZ_LOAD(h->gen) == a->gen) {
        *gen = a->gen;
        return h;
    }
    return hz_history_of(a->base, 1, gen);
}

/* The same access as the slot's only one, by the same list and kernel (a
 * loop): only its epoch and call number move. 0 when it is not. */
static inline int kept_again(hz_block_t *b, uint32_t gen, uint64_t epoch, const hz_who_t *who,
                             const hz_access_t *a)
{
    const hz_mark_t *m = &b->mark[0];
    const hz_who_t *w = &b->who[0];
    if (b->gen != gen || b->count != 1 || m->lo != a->lo || m->hi != a->hi ||
        m->write != a->write || m->guess != a->guess || w->list != who->list ||
        w->what != who->what || w->call_name != who->call_name || w->stream_id != who->stream_id ||
        w->is_primitive != who->is_primitive)
        return 0;
    uint32_t seq = b->seq;
    SEQ_STORE(b->seq, seq + 1);
    SEQ_STORE(b->mark[0].epoch, epoch);
    SEQ_STORE(b->mark[0].call, who->call);
    __atomic_store_n(&b->seq, seq + 2, __ATOMIC_RELEASE);
    return 1;
}

/* a against the other timelines' accesses to h: the oldest it races with
 * is reported. */
static __attribute__((noinline)) void check_others_found(const hz_history_t *h, uint32_t gen,
                                                         uint64_t others,
                                                         const hz_vector_clock_t *clock,
                                                         const hz_who_t *who, const hz_access_t *a,
                                                         hz_findings_t *out)
{
    found_t f;
    f.any = 0;
    scan(h, gen, others, clock, a, &f);
    if (f.any)
        report_race(who, a, &f.mark, &f.who, out);
}

static inline void check_others(const hz_history_t *h, uint32_t gen, uint32_t slot,
                                const hz_vector_clock_t *clock, const hz_who_t *who,
                                const hz_access_t *a, hz_findings_t *out)
{
    uint64_t others = to_scan(h, 1ull << slot, a);
    if (others)
        check_others_found(h, gen, others, clock, who, a, out);
}

static inline void check_and_keep(uint32_t slot, uint64_t epoch, const hz_vector_clock_t *clock,
                                  const hz_who_t *who, const hz_access_t *a, hz_findings_t *out)
{
    uint32_t gen;
    hz_history_t *h = history_of_access(a, &gen);
    if (!h)
        return;
    check_others(h, gen, slot, clock, who, a, out);
    hz_block_t *b = __atomic_load_n(&h->block[slot], __ATOMIC_ACQUIRE);
    if (b && kept_again(b, gen, epoch, who, a))
        return;
    if (b || (b = own_block(h, slot)))
        keep(h, b, gen, slot, epoch, who, a);
}

void hz_access_check_op(uint32_t slot, uint64_t epoch, const hz_vector_clock_t *clock,
                        const hz_op_t *op, hz_findings_t *out)
{
    const hz_access_t *accesses = op->accesses ? op->accesses : op->access;
    for (uint32_t i = 0; i < op->naccess; i++)
        check_and_keep(slot, epoch, clock, &op->who, &accesses[i], out);
}

static int who_same(const hz_who_t *x, const hz_who_t *y)
{
    return x->list == y->list && x->what == y->what && x->call_name == y->call_name &&
           x->stream_id == y->stream_id && x->is_primitive == y->is_primitive;
}

/* The block the list's launch keeps its access a in, when a is that
 * block's only entry (then the next launch of the same arguments moves only
 * its epoch and call, while the block's sequence stays where the list left
 * it); null otherwise. */
static hz_block_t *sole_block(const hz_access_t *a, uint32_t slot)
{
    uint32_t gen;
    hz_history_t *h = history_of_access(a, &gen);
    hz_block_t *b = h ? __atomic_load_n(&h->block[slot], __ATOMIC_ACQUIRE) : NULL;
    const hz_mark_t *m = b ? &b->mark[0] : NULL;
    return b && a->history == h && b->gen == gen && b->count == 1 && m->lo == a->lo &&
                   m->hi == a->hi && m->write == a->write && m->guess == a->guess
               ? b
               : NULL;
}

/* The memo's access i checked and kept by memo_who, its hold (the block and
 * the sequence the list leaves it at) found for the next launch. */
void hz_access_memo_keep(hz_timeline_t *t, uint32_t i, uint64_t epoch, hz_findings_t *out)
{
    const hz_access_t *a = &t->memo[i];
    check_and_keep(t->slot, epoch, &t->clock, &t->memo_who, a, out);
    hz_memo_hold_t *m = &t->memo_hold[i];
    hz_block_t *b = m->block = sole_block(a, t->slot);
    m->seq = b ? b->seq : 0;
    /* b: a->history is its history (sole_block) */
    m->others = b ? (a->guess ? &a->history->exact_slots : &a->history->slots) : NULL;
}

void hz_access_memo_others(hz_timeline_t *t, uint32_t i, uint64_t others, hz_findings_t *out)
{
    const hz_access_t *a = &t->memo[i];
    check_others_found(a->history, a->gen, others, &t->clock, &t->memo_who, a, out);
}

void hz_access_check_launch(hz_timeline_t *t, uint64_t epoch, const hz_op_t *op, hz_findings_t *out)
{
    if (op->accesses == t->memo) {
        if (t->memo_ready && who_same(&t->memo_who, &op->who)) {
            t->memo_who.call = op->who.call;
            hz_memo_launch_again(t, epoch, out);
            return;
        }
        /* before the blocks are found: a history forgotten after moves it */
        uint64_t forgotten = hz_histories_forgotten_now();
        t->memo_who = op->who;
        for (uint32_t i = 0; i < op->naccess && i < HZ_OP_ACCESSES; i++)
            hz_access_memo_keep(t, i, epoch, out);
        t->memo_forgotten = forgotten;
        t->memo_ready = 1;
        return;
    }
    for (uint32_t i = 0; i < op->naccess && i < HZ_OP_ACCESSES; i++)
        check_and_keep(t->slot, epoch, &t->clock, &op->who, &op->access[i], out);
}

/* The general way of hz_launch_again.h's loop, once a history was forgotten
 * since the holds were found: each history is asked whether it is still its
 * access's. */
void hz_access_launch_again(hz_timeline_t *t, uint64_t epoch, hz_findings_t *out)
{
    const uint64_t forgotten = hz_histories_forgotten_now();
    for (uint32_t i = 0; i < t->memo_count; i++) {
        const hz_access_t *a = &t->memo[i];
        const hz_history_t *h = a->history;
        hz_memo_hold_t *m = &t->memo_hold[i];
        if (!m->block || m->block->seq != m->seq || HZ_LOAD(h->base) != a->base ||
            HZ_LOAD(h->gen) != a->gen) {
            hz_access_memo_keep(t, i, epoch, out);
            continue;
        }
        hz_memo_again(t, m, i, 1ull << t->slot, epoch, t->memo_who.call, out);
    }
    t->memo_forgotten = forgotten;
}

int hz_access_in_flight(uintptr_t base, char *text, size_t size)
{
    uint32_t gen;
    hz_history_t *h = hz_history_of(base, 0, &gen);
    if (!h)
        return 0;
    found_t f;
    f.any = 0;
    scan(h, gen, HZ_LOAD(h->slots), NULL, NULL, &f);
    if (!f.any)
        return 0;
    char who[160];
    hz_who_text(&f.who, who, sizeof who);
    snprintf(text, size,
             "%#lx is %s by %s (call #%llu), which is not known to be complete: "
             "synchronize with it first (its event, a fence, or the queue or list)",
             (unsigned long)base, f.mark.write ? "written" : "read", who,
             (unsigned long long)f.who.call);
    return 1;
}

void hz_access_forget(uintptr_t base)
{
    hz_history_forget(base);
}
