/*
 * The work-group pool. A job (one launch) lives on the stack of the thread
 * that runs rd_threadpool_run; pool threads take chunks of its indices
 * under the pool lock, so that none touches a job after its last index was
 * handed out and the submitter may have returned.
 *
 * The pool is never stopped: it lives as long as the driver, and its idle
 * threads wait on a condition variable until the process exits (the
 * library is linked -z nodelete so the loader's dlclose at exit does not
 * unmap code they wait in).
 */
#include "rd_threadpool.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct rd_pool_job {
    struct rd_pool_job *next;
    rd_task_fn fn;
    void *ctx;
    uint64_t count;
    uint64_t next_index; /* under the pool lock */
    uint64_t chunk;
    uint64_t remaining; /* atomic: indices not yet finished */
} rd_pool_job_t;

struct rd_threadpool {
    pthread_mutex_t lock;
    pthread_cond_t work; /* a job was added */
    pthread_cond_t done; /* a job finished its last index */
    rd_pool_job_t *jobs; /* jobs with indices left to hand out */
    uint32_t size;
};

/* Takes the next chunk [*first, *first + *n) of job; caller holds the lock.
 * The job leaves the list once all of its indices are handed out. */
static void take_chunk(rd_threadpool_t *pool, rd_pool_job_t *job, uint64_t *first, uint64_t *n)
{
    *first = job->next_index;
    uint64_t left = job->count - job->next_index;
    *n = left < job->chunk ? left : job->chunk;
    job->next_index += *n;
    if (job->next_index == job->count) {
        rd_pool_job_t **p = &pool->jobs;
        while (*p && *p != job)
            p = &(*p)->next;
        if (*p)
            *p = job->next;
    }
}

/* Runs a chunk, then (outside the lock) counts it as done. */
static void run_chunk(rd_threadpool_t *pool, rd_pool_job_t *job, uint64_t first, uint64_t n)
{
    rd_task_fn fn = job->fn;
    void *ctx = job->ctx;
    for (uint64_t i = first; i < first + n; i++)
        fn(ctx, i);
    if (__atomic_sub_fetch(&job->remaining, n, __ATOMIC_ACQ_REL) == 0) {
        pthread_mutex_lock(&pool->lock);
        pthread_cond_broadcast(&pool->done);
        pthread_mutex_unlock(&pool->lock);
    }
}

static void *pool_main(void *arg)
{
    rd_threadpool_t *pool = arg;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->jobs)
            pthread_cond_wait(&pool->work, &pool->lock);
        rd_pool_job_t *job = pool->jobs;
        uint64_t first, n;
        take_chunk(pool, job, &first, &n);
        pthread_mutex_unlock(&pool->lock);
        run_chunk(pool, job, first, n);
        pthread_mutex_lock(&pool->lock);
    }
    return NULL;
}

rd_threadpool_t *rd_threadpool_create(uint32_t threads)
{
    rd_threadpool_t *pool = calloc(1, sizeof *pool);
    if (!pool)
        return NULL;
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->work, NULL);
    pthread_cond_init(&pool->done, NULL);
    if (threads == 0)
        threads = 1;
    for (uint32_t i = 0; i < threads; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, pool_main, pool) != 0)
            break; /* fewer threads; the submitter still runs everything */
        pthread_setname_np(t, "zeil-cpu-pool"); /* visible in gdb, top, traces */
        pthread_detach(t);
        pool->size++;
    }
    return pool;
}

uint32_t rd_threadpool_size(const rd_threadpool_t *pool)
{
    return pool ? pool->size : 0;
}

void rd_threadpool_run(rd_threadpool_t *pool, uint64_t count, rd_task_fn fn, void *ctx)
{
    if (count == 0)
        return;
    if (!pool || pool->size == 0 || count == 1) {
        for (uint64_t i = 0; i < count; i++)
            fn(ctx, i);
        return;
    }
    /* A few chunks per thread: balance without a lock round trip per index. */
    uint64_t chunk = count / ((uint64_t)(pool->size + 1) * 4);
    rd_pool_job_t job = {NULL, fn, ctx, count, 0, chunk ? chunk : 1, count};
    pthread_mutex_lock(&pool->lock);
    rd_pool_job_t **tail = &pool->jobs;
    while (*tail)
        tail = &(*tail)->next;
    *tail = &job;
    pthread_cond_broadcast(&pool->work);
    while (job.next_index < job.count) {
        uint64_t first, n;
        take_chunk(pool, &job, &first, &n);
        pthread_mutex_unlock(&pool->lock);
        run_chunk(pool, &job, first, n);
        pthread_mutex_lock(&pool->lock);
    }
    while (__atomic_load_n(&job.remaining, __ATOMIC_ACQUIRE) > 0)
        pthread_cond_wait(&pool->done, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
}
