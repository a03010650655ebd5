/*
 * records.h: submission records. Each command list owns a ring of the last
 * ZEIL_RECORDS submissions (allocated at its first submission, so the launch
 * path allocates nothing in steady state) and per-(stream, kernel, primitive)
 * counters that keep every launch ever made, folded or not. Appends to one
 * list come from one thread at a time (the spec): that thread writes the
 * ring without a lock, and readers (zeil.h iteration) copy records under a
 * seqlock per entry (records_state.h).
 */
#ifndef ZEIL_RECORDS_H
#define ZEIL_RECORDS_H

#include "calls.h"
#include "registry.h"

#define ZEIL_RECORD_WAIT_EVENTS 8 /* wait events kept per record */

typedef struct zeil_submission {
    zeil_record_kind_t kind;
    const zeil_call_t *call;  /* its number is the record's seq; its
                                          start, when timed, the host time */
    const zeil_obj_t *kernel; /* launches */
    const ze_group_count_t *group_count;
    size_t bytes;
    ze_event_handle_t signal_event;
    uint32_t num_wait_events;
    const ze_event_handle_t *wait_events;
} zeil_submission_t;

typedef struct zeil_list_state zeil_list_state_t;

/* Gives a newly registered command list its record state (obj->records).
 * Out of memory it has none: its submissions are then counted as dropped. */
void records_list_created(const zeil_call_t *call, zeil_obj_t *list);
/* Folds the list's counters into the retired ones and frees its state. */
void records_list_destroyed(zeil_list_state_t *state);

/* Records one submission on the list; returns its order key, the record's
 * seq (calls_order_key), or 0 for a list without record state or a null
 * list, which zeil failed to register when the registry is incomplete: the
 * submission is then counted as dropped. */
uint64_t records_add(zeil_obj_t *list, const zeil_submission_t *submission);
/* The same in two steps, for the launch path: records_hold finds the list's
 * record state before the driver call (null when the list has no records),
 * records_add_held records into it, records_release is for a call that
 * failed. Neither takes a lock but on lists whose records a second writer
 * changes (ZEIL_TIMING). */
static inline zeil_list_state_t *records_hold(zeil_obj_t *list)
{
    return list ? list->records : NULL;
}
uint64_t records_add_held(zeil_list_state_t *state, zeil_obj_t *list,
                          const zeil_submission_t *submission);
void records_release(zeil_list_state_t *state);
/* ZEIL_TIMING: the device times of a record, once known. */
void records_set_device_times(zeil_list_state_t *state, uint64_t seq, uint64_t start_ns,
                              uint64_t end_ns);

/* An attribution no thread ever has (launch_cache_t.attribution). */
extern const zeil_attribution_t records_undescribed __attribute__((visibility("hidden")));
/* Whether attr (the calling thread's current attribution, or null) is
 * interned: the same value always at the same address, which no other value
 * ever takes (only when memory ran out is it the thread's copy). */
int records_attribution_interned(const zeil_attribution_t *attr);
/* How many attributions the calling thread has pushed and not popped (the
 * hazard checks match a declaration of accesses to the execute it belongs to). */
unsigned records_attribution_depth(void);
/* The calling thread's innermost attribution, or null. Inline: every record
 * asks, and it sits beside the thread's numbering (calls_thread_t). */
static inline const zeil_attribution_t *records_current_attribution(void)
{
    return calls_thread.attribution;
}

#endif
