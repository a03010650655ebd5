/*
 * One op applied to the timeline that executes it: its clock from the
 * timeline's order, its wait events and what the host knows; then its
 * accesses checked against every allocation's history, its signal recorded,
 * and the wait cycle it may close looked for.
 */
#include "hz_state.h"

#include "diag.h"

#include <stdio.h>
#include <string.h>

static void copy_clock(hz_vector_clock_t *to, const hz_vector_clock_t *from)
{
    /* Entries at and past hz_width are zero in every clock kept. */
    memcpy(to->at, from->at, hz_width_now() * sizeof to->at[0]);
}

void hz_who_text(const hz_who_t *who, char *out, size_t size)
{
    if (who->is_primitive && who->what)
        snprintf(out, size, "%s on stream %#llx", who->what, (unsigned long long)who->stream_id);
    else if (who->what && who->stream_id)
        snprintf(out, size, "kernel '%s' on stream %#llx", who->what,
                 (unsigned long long)who->stream_id);
    else if (who->what)
        snprintf(out, size, "kernel '%s' on list %p", who->what, who->list);
    else
        snprintf(out, size, "%s on list %p", who->call_name ? who->call_name : "an append",
                 who->list);
}

static void record_wait(hz_timeline_t *t, uint64_t epoch, uint64_t call, const void *handle,
                        hz_event_t *e)
{
    if (e->state == HZ_EV_HOST || e->external ||
        (e->state == HZ_EV_PENDING && hz_done(e->slot, e->epoch)))
        return;
    if (t->nwaits == HZ_WAITS) { /* the oldest goes: a hang missed at worst */
        memmove(&t->waits[0], &t->waits[1], (HZ_WAITS - 1) * sizeof t->waits[0]);
        t->nwaits--;
    }
    hz_wait_t *w = &t->waits[t->nwaits++];
    *w = (hz_wait_t){.epoch = epoch,
                     .call = call,
                     .event = handle,
                     .sig_slot = HZ_NO_SLOT,
                     .host_signals = hz_host_signals(e->host_seen)};
    if (e->state == HZ_EV_PENDING) {
        w->sig_slot = e->slot;
        w->sig_epoch = e->epoch;
        w->sig_call = e->who.call;
    } else {
        e->unresolved++;
    }
}

/* Waits recorded before any signal of the event now wait for this one. */
static void resolve_waits(const void *handle, hz_event_t *e)
{
    for (uint32_t s = 0; s < hz_width_now() && e->unresolved; s++) {
        hz_timeline_t *t = hz_slot_owner[s];
        for (uint32_t i = 0; t && i < t->nwaits; i++) {
            hz_wait_t *w = &t->waits[i];
            if (w->event != handle || w->sig_slot != HZ_NO_SLOT || hz_wait_over(w, e))
                continue;
            w->sig_slot = e->slot;
            w->sig_epoch = e->epoch;
            w->sig_call = e->who.call;
        }
    }
    e->unresolved = 0;
}

static void add_finding(hz_findings_t *out, int rule, const char *text)
{
    if (out->count == (int)(sizeof out->rule / sizeof out->rule[0]))
        return;
    out->rule[out->count] = rule;
    snprintf(out->text[out->count], sizeof out->text[0], "%s", text);
    out->count++;
}

static void signal_event(hz_timeline_t *t, const hz_op_t *op, uint64_t epoch,
                         const hz_vector_clock_t *clock, hz_findings_t *out)
{
    hz_event_t *e = hz_event_of(op->signal);
    if (!e)
        return;
    if (e->unresolved && t->nwaits) {
        char path[512];
        if (hz_hang_cycle(t->slot, epoch, op->signal, path, sizeof path)) {
            char who[160], text[640];
            hz_who_text(&op->who, who, sizeof who);
            snprintf(text, sizeof text,
                     "wait cycle: %s signals event %p, but its list first %s; none of these "
                     "lists can go on",
                     who, op->signal, path);
            add_finding(out, ZEIL_RULE_E093, text);
        }
    }
    e->state = HZ_EV_PENDING;
    e->slot = t->slot;
    e->epoch = epoch;
    e->who = op->who;
    e->timeout_warned = 0;
    copy_clock(&e->clock, clock);
    if (e->unresolved)
        resolve_waits(op->signal, e);
}

/* Under hz_lock, or without it for an op on an immediate list that waits
 * on nothing and signals nothing (hazards_appended): then it touches only
 * its timeline, the host's clock (read) and the histories (hz_access.c). */
void hz_apply(hz_timeline_t *t, const hz_op_t *op, hz_findings_t *out)
{
    if (t->slot == HZ_NO_SLOT && hz_slot_take(t) != 0) {
        char text[640];
        snprintf(text, sizeof text,
                 "the hazard checks stop: %p is the %uth command list or queue alive and "
                 "executing at once, and the checks keep clocks for %u; from now on they "
                 "report nothing",
                 t->handle, HZ_SLOTS + 1, HZ_SLOTS);
        add_finding(out, ZEIL_RULE_W096, text);
        return;
    }
    const uint32_t slot = t->slot;
    const uint64_t epoch = hz_next_epoch(t);
    if (t->in_order && op->kind == HZ_OP_WORK && !op->nwaits && !op->signal && !op->reset) {
        hz_apply_work_in_order(t, op, epoch, out);
        return;
    }
    hz_vector_clock_t clock;
    copy_clock(&clock, &t->clock);
    const void *const *waits = op->many_waits ? (const void *const *)op->many_waits : op->waits;
    for (uint32_t i = 0; i < op->nwaits; i++) {
        hz_event_t *e = hz_event_of(waits[i]);
        if (!e)
            continue;
        if (e->state == HZ_EV_PENDING)
            hz_join(&clock, &e->clock);
        record_wait(t, epoch, op->who.call, waits[i], e);
    }
    /* After the waits: an event the host signalled carries what the host
     * knew then, which the host's clock still holds. */
    if (t->host_version != hz_host_version_now()) {
        t->host_version = hz_join_host(&t->clock);
        hz_join_host(&clock);
        if (!t->in_order)
            hz_join_host(&t->all);
    }
    clock.at[slot] = epoch;
    if (op->kind == HZ_OP_BARRIER && !t->in_order)
        hz_join(&clock, &t->all);
    if (op->naccess)
        hz_access_check_op(slot, epoch, &clock, op, out);
    if (op->signal)
        signal_event(t, op, epoch, &clock, out);
    if (op->reset) {
        hz_event_t *e = hz_event_of(op->reset);
        if (e)
            e->state = HZ_EV_NONE;
    }
    /* In order, the next op follows this one; out of order, only barriers
     * and waits order what comes after them. */
    if (t->in_order || op->kind == HZ_OP_BARRIER || op->kind == HZ_OP_WAIT)
        copy_clock(&t->clock, &clock);
    if (!t->in_order)
        hz_join(&t->all, &clock);
    if (HZ_LOAD(t->synchronous))
        hz_host_learns(&clock);
}

void hz_findings_say(const hz_findings_t *findings, const char *call_name)
{
    for (int i = 0; i < findings->count; i++)
        diag_report((zeil_rule_t)findings->rule[i], call_name, "%s", findings->text[i]);
}
