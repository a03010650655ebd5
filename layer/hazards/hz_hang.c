/*
 * Hangs: walks of the wait graph. A pending op waits for the waits its
 * timeline recorded at or before it (in order) or for its own (out of
 * order); a wait is for the signal it saw pending when it was appended, or,
 * when it saw none, for whatever signals the event next. The walks follow
 * those edges from an op or an event and say the path they took. A walk that
 * ends at an event nothing pending signals has found a hang only if no other
 * thread signals it (HZ_HANG_DEAD_END); one that comes back to an op it is
 * inside of has found a cycle (HZ_HANG_CYCLE).
 */
#include "hz_state.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define WALK_DEPTH 12
#define WALK_SEEN 32

typedef struct walk {
    const void *target; /* cycle walks: the event the start op signals */
    char *path;
    size_t size, len;
    int depth, nseen;
    uint32_t seen_slot[WALK_SEEN];
    uint64_t seen_epoch[WALK_SEEN];
    uint32_t path_slot[WALK_DEPTH]; /* the ops the walk is inside of */
    uint64_t path_epoch[WALK_DEPTH];
} walk_t;

static void say(walk_t *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(walk_t *w, const char *fmt, ...)
{
    if (w->len + 1 >= w->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(w->path + w->len, w->size - w->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        w->len = w->len + (size_t)n < w->size ? w->len + (size_t)n : w->size - 1;
}

static void unsay(walk_t *w, size_t mark)
{
    w->len = mark;
    w->path[mark] = 0;
}

static int walk_op(walk_t *w, uint32_t slot, uint64_t epoch);

static int walk_event(walk_t *w, const void *handle, const hz_wait_t *wait)
{
    hz_event_t *e = hz_event_of(handle);
    if (!e || e->external)
        return 0; /* unknown to zeil: no judgement */
    if (e->state == HZ_EV_HOST || (wait && hz_wait_over(wait, e)))
        return 0; /* the host signalled it since: every wait on it is over */
    if (wait && wait->sig_slot != HZ_NO_SLOT) {
        if (hz_done(wait->sig_slot, wait->sig_epoch))
            return 0;
        say(w, "event %p (signalled by call #%llu), ", handle, (unsigned long long)wait->sig_call);
        return walk_op(w, wait->sig_slot, wait->sig_epoch);
    }
    if (w->target) {
        if (handle == w->target) {
            say(w, "event %p, which only this call signals", handle);
            return HZ_HANG_CYCLE;
        }
        if (e->state != HZ_EV_PENDING)
            return 0;
    }
    if (e->state == HZ_EV_HOST)
        return 0;
    if (e->state == HZ_EV_NONE) {
        say(w, "event %p, which nothing pending signals and the host has not signalled", handle);
        return HZ_HANG_DEAD_END;
    }
    if (hz_done(e->slot, e->epoch))
        return 0;
    char who[160];
    hz_who_text(&e->who, who, sizeof who);
    say(w, "event %p, signalled by %s (call #%llu), ", handle, who,
        (unsigned long long)e->who.call);
    return walk_op(w, e->slot, e->epoch);
}

static int walk_op(walk_t *w, uint32_t slot, uint64_t epoch)
{
    if (slot >= HZ_SLOTS || hz_done(slot, epoch) || w->depth >= WALK_DEPTH)
        return 0;
    hz_timeline_t *t = hz_slot_owner[slot];
    if (!t)
        return 0;
    /* Back at an op the walk is inside of (in order: at or after it): that
     * op waits on itself, a hang no signal of the program's order ends. */
    for (int i = 0; !w->target && i < w->depth; i++)
        if (w->path_slot[i] == slot &&
            (t->in_order ? epoch >= w->path_epoch[i] : epoch == w->path_epoch[i])) {
            say(w, "work queued behind the wait on list %p (a cycle)", t->handle);
            return HZ_HANG_CYCLE;
        }
    for (int i = 0; i < w->nseen; i++)
        if (w->seen_slot[i] == slot &&
            (t->in_order ? w->seen_epoch[i] >= epoch : w->seen_epoch[i] == epoch))
            return 0; /* explored from there already */
    if (w->nseen < WALK_SEEN) {
        w->seen_slot[w->nseen] = slot;
        w->seen_epoch[w->nseen++] = epoch;
    }
    w->path_slot[w->depth] = slot;
    w->path_epoch[w->depth] = epoch;
    w->depth++;
    int found = 0;
    for (uint32_t i = 0; i < t->nwaits && !found; i++) {
        const hz_wait_t *wait = &t->waits[i];
        if (t->in_order ? wait->epoch > epoch : wait->epoch != epoch)
            continue;
        if (hz_done(slot, wait->epoch))
            continue;
        size_t mark = w->len;
        say(w, "which waits (call #%llu on list %p) on ", (unsigned long long)wait->call,
            t->handle);
        found = walk_event(w, wait->event, wait);
        if (!found)
            unsay(w, mark);
    }
    w->depth--;
    return found;
}

static void walk_init(walk_t *w, const void *target, char *path, size_t size)
{
    memset(w, 0, sizeof *w);
    w->target = target;
    w->path = path;
    w->size = size;
    path[0] = 0;
}

int hz_hang_cycle(uint32_t slot, uint64_t epoch, const void *target, char *path, size_t size)
{
    walk_t w;
    walk_init(&w, target, path, size);
    /* The path reads on from "waits (call #N on list L) on event ...". */
    int found = walk_op(&w, slot, epoch);
    if (found && strncmp(path, "which ", 6) == 0)
        memmove(path, path + 6, strlen(path + 6) + 1);
    return found;
}

int hz_hang_dead_event(const void *event, char *path, size_t size)
{
    walk_t w;
    walk_init(&w, NULL, path, size);
    return walk_event(&w, event, NULL);
}

int hz_hang_dead_op(uint32_t slot, uint64_t epoch, char *path, size_t size)
{
    walk_t w;
    walk_init(&w, NULL, path, size);
    say(&w, "its work ");
    int found = walk_op(&w, slot, epoch);
    if (found && strncmp(path + 9, "which ", 6) == 0) /* "its work waits (call ..." */
        memmove(path + 9, path + 15, strlen(path + 15) + 1);
    return found;
}

void hz_waits_prune(hz_timeline_t *t)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < t->nwaits; i++) {
        const hz_wait_t *w = &t->waits[i];
        if (hz_done(t->slot, w->epoch))
            continue;
        if (w->sig_slot != HZ_NO_SLOT && hz_done(w->sig_slot, w->sig_epoch))
            continue;
        const hz_event_t *e = w->sig_slot == HZ_NO_SLOT ? hz_event_of(w->event) : NULL;
        if (e && hz_wait_over(w, e))
            continue; /* a host signal ended it */
        t->waits[kept++] = *w;
    }
    t->nwaits = kept;
}
