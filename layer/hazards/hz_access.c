/*
 * Memory accesses: per USM allocation, the accesses not yet passed by every
 * timeline (at most HZ_HISTORY; the oldest goes first, a race missed at
 * worst). An access is passed once the host knows it done: every later
 * append joins the host's clock, so nothing can race with it any more. Two
 * accesses race when they come from different timelines, overlap, one
 * writes, and neither clock holds the other.
 */
#include "hz_state.h"

#include "diag.h"

#include <stdio.h>
#include <stdlib.h>

static hz_history_t *histories; /* by allocation base */
_Atomic uint32_t hazards_histories_at[HAZARDS_FILTER];

/* A loop touches the same few allocations launch after launch: a
 * direct-mapped cache in front of the hash (a hash lookup cost more than
 * the rest of an access's check). Entries go with their history. */
#define CACHE_SLOTS 256u
static hz_history_t *cache[CACHE_SLOTS];

static inline unsigned cache_slot(uintptr_t base)
{
    return (unsigned)((base >> 6) ^ (base >> 14)) & (CACHE_SLOTS - 1);
}

/* The hash behind the cache, and a new history (create). */
static __attribute__((noinline)) hz_history_t *history_found(uintptr_t base, int create)
{
    unsigned slot = cache_slot(base);
    hz_history_t *h = NULL;
    HASH_FIND(hh, histories, &base, sizeof base, h);
    if (h) {
        cache[slot] = h;
        return h;
    }
    if (!create)
        return NULL;
    h = calloc(1, sizeof *h);
    if (!h)
        return NULL; /* accesses to it go unchecked */
    h->base = base;
    HASH_ADD(hh, histories, base, sizeof h->base, h);
    atomic_fetch_add_explicit(&hazards_histories_at[hazards_filter_slot(base)], 1,
                              memory_order_release);
    cache[slot] = h;
    return h;
}

/* Inline, always: every access of every launch asks, and the cache answers. */
static inline __attribute__((always_inline)) hz_history_t *history_of(uintptr_t base, int create)
{
    hz_history_t *h = cache[cache_slot(base)];
    return h && h->base == base ? h : history_found(base, create);
}

static int overlap(const hz_entry_t *e, const hz_access_t *a)
{
    return e->lo < a->hi && a->lo < e->hi;
}

static int covers(const hz_access_t *a, const hz_entry_t *e)
{
    return a->lo <= e->lo && e->hi <= a->hi;
}

static void report_race(const hz_who_t *who, const hz_access_t *a, const hz_entry_t *e,
                        hz_findings_t *out)
{
    if (out->count == (int)(sizeof out->rule / sizeof out->rule[0]))
        return;
    char now[160], before[160];
    hz_who_text(who, now, sizeof now);
    hz_who_text(&e->who, before, sizeof before);
    const char *verb = a->guess ? "may read or write" : a->write ? "writes" : "reads";
    const char *past = e->guess ? "possibly written" : e->write ? "written" : "read";
    int guess = a->guess || e->guess;
    snprintf(out->text[out->count], sizeof out->text[0],
             "%s %s %#lx+%lu, %s by %s (call #%llu) with no event between them%s", now, verb,
             (unsigned long)a->lo, (unsigned long)(a->hi - a->lo), past, before,
             (unsigned long long)e->who.call,
             guess ? " (a kernel's pointer argument: zeil assumes it reads and writes the "
                     "whole allocation)"
                   : "");
    out->rule[out->count++] = guess ? ZEIL_RULE_W091 : ZEIL_RULE_E090;
}

static inline void check_and_keep(uint32_t slot, uint64_t epoch, const hz_vector_clock_t *clock,
                                  const hz_who_t *who, const hz_access_t *a, hz_findings_t *out)
{
    hz_history_t *h = history_of(a->base, 1);
    if (!h)
        return;
    uint32_t kept = 0;
    int reported = 0;
    for (uint32_t i = 0; i < h->count; i++) {
        const hz_entry_t *e = &h->entry[i];
        if (hz_done(e->slot, e->epoch))
            continue;
        int ordered = e->slot == slot || clock->at[e->slot] >= e->epoch;
        /* Two guesses are not reported: zeil knows neither side's access. */
        if (!ordered && !reported && (e->write || a->write) && !(e->guess && a->guess) &&
            overlap(e, a)) {
            report_race(who, a, e, out);
            reported = 1;
        }
        /* Superseded: whatever would race with it races with this access. */
        if (covers(a, e) && (a->write || !e->write) && (e->slot == slot || (ordered && a->write)))
            continue;
        if (kept != i)
            h->entry[kept] = *e;
        kept++;
    }
    if (kept == HZ_HISTORY) {
        for (uint32_t i = 1; i < HZ_HISTORY; i++)
            h->entry[i - 1] = h->entry[i];
        kept--;
    }
    h->entry[kept] = (hz_entry_t){.lo = a->lo,
                                  .hi = a->hi,
                                  .slot = slot,
                                  .write = a->write,
                                  .guess = a->guess,
                                  .epoch = epoch,
                                  .who = *who};
    h->count = kept + 1;
}

void hz_access_check_op(uint32_t slot, uint64_t epoch, const hz_vector_clock_t *clock,
                        const hz_op_t *op, hz_findings_t *out)
{
    for (uint32_t i = 0; i < op->naccess; i++)
        check_and_keep(slot, epoch, clock, &op->who, &op->access[i], out);
}

int hz_access_in_flight(uintptr_t base, char *text, size_t size)
{
    hz_history_t *h = history_of(base, 0);
    for (uint32_t i = 0; h && i < h->count; i++) {
        const hz_entry_t *e = &h->entry[i];
        if (hz_done(e->slot, e->epoch))
            continue;
        char who[160];
        hz_who_text(&e->who, who, sizeof who);
        snprintf(text, size,
                 "%#lx is %s by %s (call #%llu), which is not known to be complete: "
                 "synchronize with it first (its event, a fence, or the queue or list)",
                 (unsigned long)base, e->write ? "written" : "read", who,
                 (unsigned long long)e->who.call);
        return 1;
    }
    return 0;
}

void hz_access_forget(uintptr_t base)
{
    hz_history_t *h = history_of(base, 0);
    if (!h)
        return;
    HASH_DEL(histories, h);
    atomic_fetch_sub_explicit(&hazards_histories_at[hazards_filter_slot(base)], 1,
                              memory_order_relaxed);
    if (cache[cache_slot(base)] == h)
        cache[cache_slot(base)] = NULL;
    free(h);
}
