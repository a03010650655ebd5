/*
 * rd_queue.h: command queues and fences.
 *
 * A queue runs the regular lists given to zeCommandQueueExecuteCommandLists
 * on its worker, in order; a fence given with them is signalled after the
 * last of them.
 */
#ifndef ZEIL_RD_QUEUE_H
#define ZEIL_RD_QUEUE_H

#include "rd_context.h"
#include "rd_worker.h"

#include <pthread.h>

typedef struct rd_queue {
    uint32_t magic;
    rd_context_t *context;
    rd_device_t *device;
    int synchronous;
    rd_worker_t *worker;
    uint32_t live_fences; /* atomic: the queue outlives its fences */
} rd_queue_t;

typedef struct rd_fence {
    uint32_t magic;
    rd_queue_t *queue;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int signaled;     /* atomic: polled without the lock */
    uint32_t pending; /* executions queued with this fence, not yet signalled */
} rd_fence_t;

/* An execution with this fence was queued / has finished (signals it). */
void rd_fence_pending(rd_fence_t *fence);
/* Signals after an execution whose result was r: a fence signalled after
 * ZE_RESULT_ERROR_DEVICE_LOST reports it until reset. */
void rd_fence_signal(rd_fence_t *fence, ze_result_t r);

#endif
