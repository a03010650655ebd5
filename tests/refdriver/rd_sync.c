/* The monotonic clock and deadline-based condition waits. */
#include "rd_sync.h"

#include <errno.h>
#include <sched.h>

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

static inline void cpu_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Polls between yields. Yielding this often was measured to matter: the
 * worker's oneDNN primitive runs an OpenMP team as wide as the machine, so a
 * host thread polling for its event competes with it for a CPU, and polls
 * with a yield every 16 (or after 1-3 us of pure polling) made a small
 * primitive's execute 2-6 us slower than with a yield every 4. When nothing
 * else is runnable a yield returns at once. */
#define POLLS_PER_YIELD 4

int rd_spin_until(int (*ready)(const void *arg), const void *arg, uint64_t budget_ns)
{
    if (ready(arg))
        return 1;
    if (budget_ns == 0)
        return 0;
    uint64_t start = rd_now_ns();
    for (;;) {
        for (int i = 0; i < POLLS_PER_YIELD; i++) {
            cpu_pause();
            if (ready(arg))
                return 1;
        }
        if (rd_now_ns() - start >= budget_ns)
            return 0;
        sched_yield();
    }
}
