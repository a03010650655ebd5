/*
 * rd_worker.h: an in-order worker thread.
 *
 * Each command queue and each immediate command list owns one: jobs run one
 * after the other in the order they were submitted, on the worker's thread.
 * Every job gets a ticket (1, 2, ...) so that a caller can wait for it and
 * for everything submitted before it.
 */
#ifndef ZEIL_RD_WORKER_H
#define ZEIL_RD_WORKER_H

#include <level_zero/ze_api.h>

#include <stdint.h>

typedef struct rd_worker rd_worker_t;

/* A job is the first member of what the submitter allocated for it (one
 * allocation per submission, not two); run(job) owns that and frees it. It
 * returns ZE_RESULT_SUCCESS, or an error (ZE_RESULT_ERROR_DEVICE_LOST: a
 * kernel faulted) that the next rd_worker_sync reports. */
typedef struct rd_job {
    struct rd_job *next; /* the worker's */
    ze_result_t (*run)(struct rd_job *job);
} rd_job_t;

rd_worker_t *rd_worker_create(void);

/* Queues a job (job->run set); returns its ticket. */
uint64_t rd_worker_submit(rd_worker_t *worker, rd_job_t *job);

/* The ticket of the last job submitted (0 when none). */
uint64_t rd_worker_last_ticket(rd_worker_t *worker);

/* Waits until the job with that ticket and all before it have run:
 * ZE_RESULT_SUCCESS, or ZE_RESULT_NOT_READY after timeout_ns. */
ze_result_t rd_worker_wait(rd_worker_t *worker, uint64_t ticket, uint64_t timeout_ns);

/* A synchronization of the application (zeCommandQueueSynchronize,
 * zeCommandListHostSynchronize, a synchronous append): rd_worker_wait, then
 * the first error a job returned since the last synchronization, which it
 * clears, as a GPU reports a lost device from the next synchronization. */
ze_result_t rd_worker_sync(rd_worker_t *worker, uint64_t ticket, uint64_t timeout_ns);

/* Runs what is queued, then stops and joins the thread. */
void rd_worker_destroy(rd_worker_t *worker);

#endif
