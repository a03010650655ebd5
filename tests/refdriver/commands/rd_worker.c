/* The in-order worker thread behind command queues and immediate lists.
 *
 * Hand-offs poll before they sleep (rd_poll_until): an idle worker polls the
 * submission count for a while before it waits on `work`, and a thread
 * waiting for a ticket polls the completion count before it waits on `done`.
 * A submitter signals `work` only when the worker said, under the lock, that
 * it sleeps: the worker sets `sleeping` and checks for jobs under the same
 * lock the submitter holds while it queues one and reads the flag, so no
 * wake-up is lost. */
#include "rd_worker.h"
#include "rd_poll.h"
#include "rd_sync.h"

#include <pthread.h>
#include <stdlib.h>

struct rd_worker {
    pthread_mutex_t lock;
    pthread_cond_t work; /* a job was queued, or stop; signalled only when sleeping */
    pthread_cond_t done; /* a job finished */
    rd_job_t *head, *tail;
    uint64_t submitted; /* written under the lock; polled without it (atomic) */
    uint64_t completed; /* written under the lock; polled without it (atomic) */
    int stopping;       /* written under the lock; polled without it (atomic) */
    int sleeping;       /* under the lock: the worker waits on `work` */
    ze_result_t error;  /* under the lock: a job's first error since the last sync */
    pthread_t thread;
};

typedef struct idle_poll {
    const rd_worker_t *worker;
    uint64_t taken; /* jobs the worker has taken so far */
} idle_poll_t;

static int work_arrived(const void *arg)
{
    const idle_poll_t *p = arg;
    return __atomic_load_n(&p->worker->submitted, __ATOMIC_ACQUIRE) != p->taken ||
           __atomic_load_n(&p->worker->stopping, __ATOMIC_ACQUIRE);
}

static void *worker_main(void *arg)
{
    rd_worker_t *w = arg;
    idle_poll_t poll = {w, 0};
    for (;;) {
        rd_poll_until(work_arrived, &poll, RD_POLL_NS);
        pthread_mutex_lock(&w->lock);
        while (!w->head && !w->stopping) {
            w->sleeping = 1;
            pthread_cond_wait(&w->work, &w->lock);
            w->sleeping = 0;
        }
        rd_job_t *job = w->head;
        if (!job) {
            pthread_mutex_unlock(&w->lock);
            break; /* stopping, and nothing left */
        }
        w->head = job->next;
        if (!w->head)
            w->tail = NULL;
        poll.taken++;
        pthread_mutex_unlock(&w->lock);
        ze_result_t r = job->run(job);
        pthread_mutex_lock(&w->lock);
        if (r != ZE_RESULT_SUCCESS && w->error == ZE_RESULT_SUCCESS)
            w->error = r;
        __atomic_store_n(&w->completed, w->completed + 1, __ATOMIC_RELEASE);
        pthread_cond_broadcast(&w->done); /* no system call when nobody sleeps on it */
        pthread_mutex_unlock(&w->lock);
    }
    return NULL;
}

rd_worker_t *rd_worker_create(void)
{
    rd_worker_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->work, NULL);
    rd_cond_init(&w->done);
    if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
        pthread_cond_destroy(&w->done);
        pthread_cond_destroy(&w->work);
        pthread_mutex_destroy(&w->lock);
        free(w);
        return NULL;
    }
    pthread_setname_np(w->thread, "zeil-cpu-queue"); /* visible in gdb, top, traces */
    return w;
}

uint64_t rd_worker_submit(rd_worker_t *w, rd_job_t *job)
{
    job->next = NULL;
    pthread_mutex_lock(&w->lock);
    if (w->tail)
        w->tail->next = job;
    else
        w->head = job;
    w->tail = job;
    uint64_t ticket = w->submitted + 1;
    __atomic_store_n(&w->submitted, ticket, __ATOMIC_RELEASE);
    if (w->sleeping)
        pthread_cond_signal(&w->work);
    pthread_mutex_unlock(&w->lock);
    return ticket;
}

uint64_t rd_worker_last_ticket(rd_worker_t *w)
{
    return __atomic_load_n(&w->submitted, __ATOMIC_ACQUIRE);
}

typedef struct ticket_poll {
    const rd_worker_t *worker;
    uint64_t ticket;
} ticket_poll_t;

static int ticket_done(const void *arg)
{
    const ticket_poll_t *p = arg;
    return __atomic_load_n(&p->worker->completed, __ATOMIC_ACQUIRE) >= p->ticket;
}

ze_result_t rd_worker_wait(rd_worker_t *w, uint64_t ticket, uint64_t timeout_ns)
{
    rd_deadline_t deadline = rd_deadline_after(timeout_ns);
    ticket_poll_t poll = {w, ticket};
    if (rd_poll_until(ticket_done, &poll, rd_poll_budget(timeout_ns)))
        return ZE_RESULT_SUCCESS;
    pthread_mutex_lock(&w->lock);
    int timed_out = 0;
    while (w->completed < ticket && !timed_out && timeout_ns != 0)
        timed_out = rd_cond_wait_until(&w->done, &w->lock, &deadline) != 0;
    int done = w->completed >= ticket;
    pthread_mutex_unlock(&w->lock);
    return done ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ze_result_t rd_worker_sync(rd_worker_t *w, uint64_t ticket, uint64_t timeout_ns)
{
    ze_result_t r = rd_worker_wait(w, ticket, timeout_ns);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    pthread_mutex_lock(&w->lock);
    r = w->error;
    w->error = ZE_RESULT_SUCCESS;
    pthread_mutex_unlock(&w->lock);
    return r;
}

void rd_worker_destroy(rd_worker_t *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    __atomic_store_n(&w->stopping, 1, __ATOMIC_RELEASE);
    if (w->sleeping)
        pthread_cond_signal(&w->work);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->done);
    pthread_cond_destroy(&w->work);
    pthread_mutex_destroy(&w->lock);
    free(w);
}
