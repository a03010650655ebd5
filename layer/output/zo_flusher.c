/* zo_flusher.c: the background output thread (see zo_flusher.h). */
#include "zo_flusher.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>

static sem_t wake;
static pthread_t thread;
static int running;
static _Atomic int stopping;
static zo_flusher_hook drain_hook, snapshot_hook;

static void deadline_after_ms(struct timespec *t, long ms)
{
    clock_gettime(CLOCK_MONOTONIC, t);
    t->tv_nsec += ms * 1000000L;
    t->tv_sec += t->tv_nsec / 1000000000L;
    t->tv_nsec %= 1000000000L;
}

static void *flusher_main(void *unused)
{
    (void)unused;
    int cycles_per_snapshot = ZO_SNAPSHOT_INTERVAL_MS / ZO_FLUSH_INTERVAL_MS;
    int cycle = 0;
    while (!atomic_load(&stopping)) {
        struct timespec deadline;
        deadline_after_ms(&deadline, ZO_FLUSH_INTERVAL_MS);
        while (sem_clockwait(&wake, CLOCK_MONOTONIC, &deadline) != 0 && errno == EINTR)
            ;
        if (atomic_load(&stopping))
            break;
        if (drain_hook)
            drain_hook();
        if (snapshot_hook && ++cycle % cycles_per_snapshot == 0)
            snapshot_hook();
    }
    return 0;
}

int zo_flusher_start(zo_flusher_hook drain, zo_flusher_hook snapshot)
{
    if (running)
        return 0;
    drain_hook = drain;
    snapshot_hook = snapshot;
    if (sem_init(&wake, 0, 0) != 0)
        return -1;
    /* The application's signals go to its own threads, not to ours. */
    sigset_t all, old;
    sigfillset(&all);
    sigdelset(&all, SIGSEGV);
    sigdelset(&all, SIGBUS);
    sigdelset(&all, SIGFPE);
    sigdelset(&all, SIGILL);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&thread, 0, flusher_main, 0);
    pthread_sigmask(SIG_SETMASK, &old, 0);
    if (rc != 0)
        return -1;
    running = 1;
    return 0;
}

void zo_flusher_wake(void)
{
    if (running)
        sem_post(&wake);
}

void zo_flusher_stop(void)
{
    if (!running)
        return;
    atomic_store(&stopping, 1);
    sem_post(&wake);
    pthread_join(thread, 0);
    running = 0;
}

void zo_flusher_forget(void)
{
    running = 0;
}
