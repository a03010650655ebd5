/* Command queues: create, destroy, execute regular lists, synchronize. */
#include "rd_api.h"
#include "rd_cmdlist.h"
#include "rd_queue.h"

#include <stdlib.h>
#include <string.h>

/* One zeCommandQueueExecuteCommandLists call, run on the queue's worker. */
typedef struct rd_execution {
    rd_job_t job; /* first: the worker's handle on it */
    rd_fence_t *fence;
    uint32_t count;
    rd_cmdlist_t *lists[];
} rd_execution_t;

static ze_result_t execution_job(rd_job_t *job)
{
    rd_execution_t *e = (rd_execution_t *)job;
    ze_result_t first = ZE_RESULT_SUCCESS;
    for (uint32_t i = 0; i < e->count; i++) {
        ze_result_t r = rd_cmdlist_run(e->lists[i]);
        if (first == ZE_RESULT_SUCCESS)
            first = r;
        rd_cmdlist_execution_end(e->lists[i]);
    }
    if (e->fence)
        rd_fence_signal(e->fence, first);
    free(e);
    return first;
}

ze_result_t ZE_APICALL rd_zeCommandQueueCreate(ze_context_handle_t hContext,
                                               ze_device_handle_t hDevice,
                                               const ze_command_queue_desc_t *desc,
                                               ze_command_queue_handle_t *phCommandQueue)
{
    RD_HANDLE(rd_context_t, ctx, hContext, RD_MAGIC_CONTEXT);
    RD_HANDLE(rd_device_t, dev, hDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(desc);
    RD_NOT_NULL(phCommandQueue);
    if ((desc->flags & ~RD_QUEUE_FLAGS_KNOWN) || desc->mode > ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS ||
        desc->priority > ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    if (!rd_context_has_device(ctx, dev) || desc->ordinal >= RD_QUEUE_GROUPS ||
        desc->index >= RD_QUEUES_PER_GROUP)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    rd_queue_t *queue = rd_object_new(RD_MAGIC_QUEUE, sizeof *queue);
    if (!queue)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    queue->worker = rd_worker_create();
    if (!queue->worker) {
        rd_object_delete(queue, RD_MAGIC_QUEUE, sizeof *queue);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    queue->context = ctx;
    queue->device = dev;
    queue->synchronous = desc->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
    queue->magic = RD_MAGIC_QUEUE;
    *phCommandQueue = (ze_command_queue_handle_t)queue;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeCommandQueueDestroy(ze_command_queue_handle_t hCommandQueue)
{
    RD_HANDLE(rd_queue_t, queue, hCommandQueue, RD_MAGIC_QUEUE);
    /* Its fences point at it (the application must destroy them first). */
    if (__atomic_load_n(&queue->live_fences, __ATOMIC_RELAXED) > 0)
        return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
    queue->magic = RD_MAGIC_DEAD;
    rd_worker_destroy(queue->worker); /* runs what is queued first */
    rd_object_delete(queue, RD_MAGIC_QUEUE, sizeof *queue);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeCommandQueueExecuteCommandLists(
    ze_command_queue_handle_t hCommandQueue, uint32_t numCommandLists,
    ze_command_list_handle_t *phCommandLists, ze_fence_handle_t hFence)
{
    RD_HANDLE(rd_queue_t, queue, hCommandQueue, RD_MAGIC_QUEUE);
    RD_NOT_NULL(phCommandLists);
    if (numCommandLists == 0)
        return ZE_RESULT_ERROR_INVALID_SIZE;
    rd_fence_t *fence = NULL;
    if (hFence) {
        ze_result_t r = rd_check_handle(hFence, RD_MAGIC_FENCE);
        fence = (rd_fence_t *)(void *)hFence;
        if (r != ZE_RESULT_SUCCESS || fence->queue != queue)
            return ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT;
    }
    for (uint32_t i = 0; i < numCommandLists; i++) {
        RD_HANDLE(rd_cmdlist_t, list, phCommandLists[i], RD_MAGIC_CMDLIST);
        if (list->immediate)
            return ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE;
        if (!list->closed || list->device != queue->device || list->context != queue->context)
            return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    rd_execution_t *e = malloc(sizeof *e + numCommandLists * sizeof e->lists[0]);
    if (!e)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    e->fence = fence;
    e->count = numCommandLists;
    for (uint32_t i = 0; i < numCommandLists; i++) {
        e->lists[i] = (rd_cmdlist_t *)(void *)phCommandLists[i];
        rd_cmdlist_execution_begin(e->lists[i]);
    }
    if (fence)
        rd_fence_pending(fence);
    e->job.run = execution_job;
    uint64_t ticket = rd_worker_submit(queue->worker, &e->job);
    if (queue->synchronous)
        return rd_worker_sync(queue->worker, ticket, UINT64_MAX);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeCommandQueueSynchronize(ze_command_queue_handle_t hCommandQueue,
                                                    uint64_t timeout)
{
    RD_HANDLE(rd_queue_t, queue, hCommandQueue, RD_MAGIC_QUEUE);
    return rd_worker_sync(queue->worker, rd_worker_last_ticket(queue->worker), timeout);
}
