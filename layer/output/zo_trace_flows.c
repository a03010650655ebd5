/* zo_trace_flows.c: event → signalling submissions (see zo_trace_flows.h). */
#include "zo_trace_flows.h"

#include <string.h>

#define SIGNAL_SLOTS 4096
#define SIGNALS_PER_EVENT 4
#define PROBES 8

typedef struct signal_slot {
    uint64_t event;
    uint64_t seqs[SIGNALS_PER_EVENT];   /* newest first, 0: empty */
    uint64_t end_ns[SIGNALS_PER_EVENT]; /* 0: span not written yet */
} signal_slot_t;

static signal_slot_t slots[SIGNAL_SLOTS];

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

static signal_slot_t *slot_of(uint64_t event, int create)
{
    uint32_t first = (uint32_t)(mix(event) % SIGNAL_SLOTS);
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
        if (s->seqs[i] == seq)
            return;
    memmove(&s->seqs[1], &s->seqs[0], sizeof s->seqs[0] * (SIGNALS_PER_EVENT - 1));
    memmove(&s->end_ns[1], &s->end_ns[0], sizeof s->end_ns[0] * (SIGNALS_PER_EVENT - 1));
    s->seqs[0] = seq;
    s->end_ns[0] = 0;
}

uint64_t zo_flows_signaller(uint64_t event, uint64_t waiter_seq)
{
    signal_slot_t *s = slot_of(event, 0);
    if (!s)
        return 0;
    uint64_t before = 0, after = 0;
    for (int i = 0; i < SIGNALS_PER_EVENT; i++) {
        uint64_t q = s->seqs[i];
        if (q && q < waiter_seq && q > before)
            before = q;
        if (q > waiter_seq && (!after || q < after))
            after = q;
    }
    return before ? before : after;
}

void zo_flows_span_written(uint64_t event, uint64_t seq, uint64_t end_ns)
{
    signal_slot_t *s = slot_of(event, 0);
    for (int i = 0; s && i < SIGNALS_PER_EVENT; i++)
        if (s->seqs[i] == seq)
            s->end_ns[i] = end_ns ? end_ns : 1;
}

int zo_flows_span_end(uint64_t event, uint64_t seq, uint64_t *end_ns)
{
    signal_slot_t *s = slot_of(event, 0);
    for (int i = 0; s && i < SIGNALS_PER_EVENT; i++) {
        if (s->seqs[i] == seq && s->end_ns[i]) {
            *end_ns = s->end_ns[i];
            return 1;
        }
    }
    return 0;
}
