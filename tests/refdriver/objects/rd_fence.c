/* Fences: created on a queue, signalled by its worker after an execution. */
#include "rd_api.h"
#include "rd_queue.h"
#include "rd_poll.h"
#include "rd_sync.h"

#include <stdlib.h>

void rd_fence_pending(rd_fence_t *fence)
{
    pthread_mutex_lock(&fence->lock);
    fence->pending++;
    pthread_mutex_unlock(&fence->lock);
}

/* fence->signaled: 0, 1, or RD_SIGNALED_LOST (signalled after a lost
 * device). */
#define RD_SIGNALED_LOST 2

void rd_fence_signal(rd_fence_t *fence, ze_result_t r)
{
    pthread_mutex_lock(&fence->lock);
    fence->pending--;
    __atomic_store_n(&fence->signaled, r == ZE_RESULT_ERROR_DEVICE_LOST ? RD_SIGNALED_LOST : 1,
                     __ATOMIC_RELEASE);
    pthread_cond_broadcast(&fence->cond);
    pthread_mutex_unlock(&fence->lock);
}

ze_result_t ZE_APICALL rd_zeFenceCreate(ze_command_queue_handle_t hCommandQueue,
                                        const ze_fence_desc_t *desc, ze_fence_handle_t *phFence)
{
    RD_HANDLE(rd_queue_t, queue, hCommandQueue, RD_MAGIC_QUEUE);
    RD_NOT_NULL(desc);
    RD_NOT_NULL(phFence);
    if (desc->flags > ZE_FENCE_FLAG_SIGNALED)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    rd_fence_t *fence = rd_object_new(RD_MAGIC_FENCE, sizeof *fence);
    if (!fence)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    fence->queue = queue;
    fence->signaled = (desc->flags & ZE_FENCE_FLAG_SIGNALED) != 0;
    pthread_mutex_init(&fence->lock, NULL);
    rd_cond_init(&fence->cond);
    __atomic_add_fetch(&queue->live_fences, 1, __ATOMIC_RELAXED);
    fence->magic = RD_MAGIC_FENCE;
    *phFence = (ze_fence_handle_t)fence;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeFenceDestroy(ze_fence_handle_t hFence)
{
    RD_HANDLE(rd_fence_t, fence, hFence, RD_MAGIC_FENCE);
    /* An execution still queued with this fence would signal freed memory. */
    pthread_mutex_lock(&fence->lock);
    while (fence->pending > 0)
        pthread_cond_wait(&fence->cond, &fence->lock);
    pthread_mutex_unlock(&fence->lock);
    __atomic_sub_fetch(&fence->queue->live_fences, 1, __ATOMIC_RELAXED);
    fence->magic = RD_MAGIC_DEAD;
    pthread_cond_destroy(&fence->cond);
    pthread_mutex_destroy(&fence->lock);
    rd_object_delete(fence, RD_MAGIC_FENCE, sizeof *fence);
    return ZE_RESULT_SUCCESS;
}

static int fence_signaled(const void *arg)
{
    const rd_fence_t *fence = arg;
    return __atomic_load_n(&fence->signaled, __ATOMIC_ACQUIRE);
}

static ze_result_t fence_result(int signaled)
{
    return signaled == RD_SIGNALED_LOST ? ZE_RESULT_ERROR_DEVICE_LOST : ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeFenceHostSynchronize(ze_fence_handle_t hFence, uint64_t timeout)
{
    RD_HANDLE(rd_fence_t, fence, hFence, RD_MAGIC_FENCE);
    rd_deadline_t deadline = rd_deadline_after(timeout);
    if (rd_poll_until(fence_signaled, fence, rd_poll_budget(timeout)))
        return fence_result(__atomic_load_n(&fence->signaled, __ATOMIC_ACQUIRE));
    pthread_mutex_lock(&fence->lock);
    int timed_out = 0;
    while (!fence->signaled && !timed_out && timeout != 0)
        timed_out = rd_cond_wait_until(&fence->cond, &fence->lock, &deadline) != 0;
    int signaled = fence->signaled;
    pthread_mutex_unlock(&fence->lock);
    return signaled ? fence_result(signaled) : ZE_RESULT_NOT_READY;
}

ze_result_t ZE_APICALL rd_zeFenceQueryStatus(ze_fence_handle_t hFence)
{
    return rd_zeFenceHostSynchronize(hFence, 0);
}

ze_result_t ZE_APICALL rd_zeFenceReset(ze_fence_handle_t hFence)
{
    RD_HANDLE(rd_fence_t, fence, hFence, RD_MAGIC_FENCE);
    pthread_mutex_lock(&fence->lock);
    __atomic_store_n(&fence->signaled, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&fence->lock);
    return ZE_RESULT_SUCCESS;
}
