/* The monotonic clock and deadline-based condition waits. */
#include "rd_sync.h"

#include <errno.h>

uint64_t rd_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void rd_cond_init(pthread_cond_t *cond)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(cond, &attr);
    pthread_condattr_destroy(&attr);
}

rd_deadline_t rd_deadline_after(uint64_t timeout_ns)
{
    rd_deadline_t d = {0, {0, 0}};
    if (timeout_ns == UINT64_MAX) {
        d.forever = 1;
        return d;
    }
    uint64_t now = rd_now_ns();
    /* Saturate instead of wrapping: a timeout of centuries is forever. */
    uint64_t at = now + timeout_ns < now ? UINT64_MAX - 1 : now + timeout_ns;
    d.at.tv_sec = (time_t)(at / 1000000000u);
    d.at.tv_nsec = (long)(at % 1000000000u);
    return d;
}

int rd_cond_wait_until(pthread_cond_t *cond, pthread_mutex_t *mutex, const rd_deadline_t *deadline)
{
    if (deadline->forever)
        return pthread_cond_wait(cond, mutex);
    int r = pthread_cond_timedwait(cond, mutex, &deadline->at);
    return r == ETIMEDOUT ? ETIMEDOUT : 0;
}
