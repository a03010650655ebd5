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

#endif
