/* The in-order worker thread behind command queues and immediate lists. */
#include "rd_worker.h"
#include "rd_sync.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct rd_job {
    struct rd_job *next;
    rd_job_fn run;
    void *arg;
} rd_job_t;

struct rd_worker {
    pthread_mutex_t lock;
    pthread_cond_t work;  /* a job was queued, or stop */
    pthread_cond_t done;  /* a job finished */
    rd_job_t *head, *tail;
    uint64_t submitted;
    uint64_t completed;
    int stopping;
    pthread_t thread;
};

static void *worker_main(void *arg)
{
    rd_worker_t *w = arg;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->head && !w->stopping)
            pthread_cond_wait(&w->work, &w->lock);
        if (!w->head)
            break; /* stopping, and nothing left */
        rd_job_t *job = w->head;
        w->head = job->next;
        if (!w->head)
            w->tail = NULL;
        pthread_mutex_unlock(&w->lock);
        job->run(job->arg);
        free(job);
        pthread_mutex_lock(&w->lock);
        w->completed++;
        pthread_cond_broadcast(&w->done);
    }
    pthread_mutex_unlock(&w->lock);
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

uint64_t rd_worker_submit(rd_worker_t *w, rd_job_fn run, void *arg)
{
    rd_job_t *job = malloc(sizeof *job);
    if (!job)
        return 0;
    job->next = NULL;
    job->run = run;
    job->arg = arg;
    pthread_mutex_lock(&w->lock);
    if (w->tail)
        w->tail->next = job;
    else
        w->head = job;
    w->tail = job;
    uint64_t ticket = ++w->submitted;
    pthread_cond_signal(&w->work);
    pthread_mutex_unlock(&w->lock);
    return ticket;
}

uint64_t rd_worker_last_ticket(rd_worker_t *w)
{
    pthread_mutex_lock(&w->lock);
    uint64_t t = w->submitted;
    pthread_mutex_unlock(&w->lock);
    return t;
}

ze_result_t rd_worker_wait(rd_worker_t *w, uint64_t ticket, uint64_t timeout_ns)
{
    rd_deadline_t deadline = rd_deadline_after(timeout_ns);
    pthread_mutex_lock(&w->lock);
    int timed_out = 0;
    while (w->completed < ticket && !timed_out && timeout_ns != 0)
        timed_out = rd_cond_wait_until(&w->done, &w->lock, &deadline) != 0;
    int done = w->completed >= ticket;
    pthread_mutex_unlock(&w->lock);
    return done ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

void rd_worker_destroy(rd_worker_t *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->stopping = 1;
    pthread_cond_signal(&w->work);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->done);
    pthread_cond_destroy(&w->work);
    pthread_mutex_destroy(&w->lock);
    free(w);
}
