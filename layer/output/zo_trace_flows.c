/* zo_trace_flows.c: event → signalling submissions (see zo_trace_flows.h). */
#include "zo_trace_flows.h"
#include "zo_hash.h"

#include <string.h>

#define SIGNAL_SLOTS 4096
#define SIGNALS_PER_EVENT 4
#define PROBES 8

typedef struct signaller {
    uint64_t seq; /* 0: empty */
    int written;  /* its span is in the trace, at span */
    zo_flow_span_t span;
    uint64_t waiter_flow; /* a waiter written before it, 0: none */
    zo_flow_span_t waiter;
} signaller_t;

typedef struct signal_slot {
    uint64_t event;
    signaller_t by[SIGNALS_PER_EVENT]; /* newest first */
} signal_slot_t;

static signal_slot_t slots[SIGNAL_SLOTS];

static signal_slot_t *slot_of(uint64_t event, int create)
{
    uint32_t first = (uint32_t)(zo_hash_mix(event) % SIGNAL_SLOTS);
    for (uint32_t probe = 0; probe < PROBES; probe++) {
        signal_slot_t *s = &slots[(first + probe) % SIGNAL_SLOTS];
        if (s->event == event)
            return s;
        if (!s->event && create) {
            s->event = event;
            return s;
        }
    }
    if (!create)
        return 0;
    signal_slot_t *s = &slots[first]; /* forget an older event rather than grow */
    memset(s, 0, sizeof *s);
    s->event = event;
    return s;
}

void zo_flows_note_signal(uint64_t event, uint64_t seq)
{
    signal_slot_t *s = slot_of(event, 1);
    for (int i = 0; i < SIGNALS_PER_EVENT; i++)
        if (s->by[i].seq == seq)
            return;
    memmove(&s->by[1], &s->by[0], sizeof s->by[0] * (SIGNALS_PER_EVENT - 1));
    memset(&s->by[0], 0, sizeof s->by[0]);
    s->by[0].seq = seq;
}

uint64_t zo_flows_signaller(uint64_t event, uint64_t waiter_seq)
{
    signal_slot_t *s = slot_of(event, 0);
    if (!s)
        return 0;
    uint64_t before = 0, after = 0;
    for (int i = 0; i < SIGNALS_PER_EVENT; i++) {
        uint64_t q = s->by[i].seq;
        if (q && q < waiter_seq && q > before)
            before = q;
        if (q > waiter_seq && (!after || q < after))
            after = q;
    }
    return before ? before : after;
}

static signaller_t *signaller_of(uint64_t event, uint64_t seq)
{
    signal_slot_t *s = slot_of(event, 0);
    for (int i = 0; s && i < SIGNALS_PER_EVENT; i++)
        if (s->by[i].seq == seq)
            return &s->by[i];
    return 0;
}

int zo_flows_span_written(uint64_t event, uint64_t seq, const zo_flow_span_t *span,
                          zo_flow_span_t *waiter, uint64_t *flow_id)
{
    signaller_t *b = signaller_of(event, seq);
    if (!b)
        return 0;
    b->written = 1;
    b->span = *span;
    if (!b->waiter_flow)
        return 0;
    *waiter = b->waiter;
    *flow_id = b->waiter_flow;
    b->waiter_flow = 0;
    return 1;
}

int zo_flows_span_of(uint64_t event, uint64_t seq, zo_flow_span_t *span)
{
    signaller_t *b = signaller_of(event, seq);
    if (!b || !b->written)
        return 0;
    *span = b->span;
    return 1;
}

void zo_flows_note_waiter(uint64_t event, uint64_t seq, const zo_flow_span_t *waiter,
                          uint64_t flow_id)
{
    signaller_t *b = signaller_of(event, seq);
    if (b && !b->written && !b->waiter_flow) {
        b->waiter = *waiter;
        b->waiter_flow = flow_id;
    }
}
