/* Polling before sleeping (see rd_poll.h). */
#include "rd_poll.h"
#include "rd_sync.h"

#include <sched.h>

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

int rd_poll_until(int (*ready)(const void *arg), const void *arg, uint64_t budget_ns)
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
