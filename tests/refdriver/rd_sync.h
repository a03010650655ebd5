/*
 * rd_sync.h: the clock and the timed waits every part of the driver uses.
 *
 * All time in the driver is CLOCK_MONOTONIC nanoseconds: the device timer
 * (timerResolution 1 ns), kernel timestamps, and the deadlines of
 * zeEventHostSynchronize, zeFenceHostSynchronize and zeCommandQueueSynchronize.
 */
#ifndef ZEIL_RD_SYNC_H
#define ZEIL_RD_SYNC_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

uint64_t rd_now_ns(void);

/* A condition variable whose timed waits use the monotonic clock. */
void rd_cond_init(pthread_cond_t *cond);

/* When a wait gives up. A timeout of UINT64_MAX never expires. */
typedef struct rd_deadline {
    int forever;
    struct timespec at;
} rd_deadline_t;

rd_deadline_t rd_deadline_after(uint64_t timeout_ns);

/* pthread_cond_wait until the deadline: 0 when woken, ETIMEDOUT after it. */
int rd_cond_wait_until(pthread_cond_t *cond, pthread_mutex_t *mutex, const rd_deadline_t *deadline);

/* How long a waiter polls before it sleeps. Sleeping on a condition variable
 * and being woken costs a futex call on each side and a thread wake-up
 * (several microseconds each on a VM); the short commands of a launch loop
 * complete well within this, as GPU drivers find when they poll event memory
 * before sleeping. Short, because a polling thread takes CPU time others may
 * want even though it yields between polls. */
#define RD_SPIN_NS 20000u

/* Polls ready(arg) (a lock-free read) until it is true or budget_ns have
 * passed: 1 when ready, 0 when the caller should block. Every poll pauses the
 * CPU and every few polls the thread yields, so that a thread runnable on its
 * CPU (the worker, its OpenMP team, the application) is not held off. */
int rd_spin_until(int (*ready)(const void *arg), const void *arg, uint64_t budget_ns);

/* The spin budget of a wait with this timeout: the timeout when shorter. */
static inline uint64_t rd_spin_budget(uint64_t timeout_ns)
{
    return timeout_ns < RD_SPIN_NS ? timeout_ns : RD_SPIN_NS;
}

#endif
