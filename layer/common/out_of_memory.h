/*
 * out_of_memory.h: what zeil does when an allocation of its own fails. It
 * never crashes and never changes what a call returns: it drops what it
 * cannot keep, counts it (zeil_get_dropped_counts, the exit report, the
 * summary) and says so once (ZEIL-W070). Which checks then stop refusing,
 * and why: out_of_memory.c.
 */
#ifndef ZEIL_OUT_OF_MEMORY_H
#define ZEIL_OUT_OF_MEMORY_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

typedef enum oom_loss {
    OOM_OBJECT,     /* a handle zeil could not register */
    OOM_ALLOCATION, /* a USM allocation zeil could not register */
    OOM_RECORD,     /* a submission missing from the records or the counters */
    OOM_OTHER,      /* names, freed-allocation history, timing state, settings */
    OOM_LOSSES
} oom_loss_t;

/* Counts n items of one kind lost. The first loss in the process is said
 * (ZEIL-W070) with call (the intercepted API call, or null) and what zeil
 * was doing ("registering a command list"). A lost object or allocation
 * marks the registry incomplete. Takes no lock of zeil's: callable under
 * any of them. */
void oom_dropped(oom_loss_t loss, uint64_t n, const char *call, const char *doing);
/* oom_dropped of a USM allocation zeil could not register (out of line: the
 * allocation hooks stay small enough to be inlined into their intercepts). */
void oom_dropped_allocation(const char *call, const void *ptr, size_t size)
    __attribute__((noinline, cold));

/* A call that only a complete registry could have refused went through. */
void oom_unchecked(void);

/* Set once an object or USM allocation went unregistered, never cleared.
 * Inline: the refusing side of every handle check asks. */
extern _Atomic int oom_incomplete __attribute__((visibility("hidden")));
static inline int oom_registry_incomplete(void)
{
    return atomic_load_explicit(&oom_incomplete, memory_order_relaxed);
}

#endif
