/*
 * rd_poll.h: polling before sleeping.
 *
 * Sleeping on a condition variable and being woken costs a futex call on
 * each side and a thread wake-up (several microseconds each on a VM); the
 * short commands of a launch loop complete well within a few of those, as
 * GPU drivers find when they poll event memory before sleeping. So every
 * wait of the driver (host waits on events, fences, queues and lists; a
 * worker's wait events; an idle worker) polls first, for at most
 * RD_POLL_NS, and only then sleeps.
 *
 * A polling thread takes CPU time that others may want (with 2 CPUs, the
 * application thread, the worker and the worker's OpenMP team already
 * compete): the budget is short and the poller yields every few polls.
 * Stopping polling for a while after a yield that returned late (the CPUs
 * oversubscribed by other processes) was tried: in 20 interleaved rounds on
 * a loaded 2-CPU VM it made a small execute slower (median +14.6 us over
 * oneDNN alone instead of +10.6) and did not make slow rounds rarer.
 */
#ifndef ZEIL_RD_POLL_H
#define ZEIL_RD_POLL_H

#include <stdint.h>

#define RD_POLL_NS 20000u

/* Polls ready(arg) (a lock-free read) until it is true or budget_ns have
 * passed: 1 when ready, 0 when the caller should block. */
int rd_poll_until(int (*ready)(const void *arg), const void *arg, uint64_t budget_ns);

/* The polling budget of a wait with this timeout: the timeout when shorter. */
static inline uint64_t rd_poll_budget(uint64_t timeout_ns)
{
    return timeout_ns < RD_POLL_NS ? timeout_ns : RD_POLL_NS;
}

#endif
