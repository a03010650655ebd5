/* Event pools and events: creation, host signal / wait / query / reset and
 * kernel timestamps. */
#include "rd_api.h"
#include "rd_arena.h"
#include "rd_event.h"
#include "rd_poll.h"
#include "rd_sync.h"

#include <stdlib.h>

ze_result_t rd_event_from_handle(ze_event_handle_t handle, rd_event_t **event)
{
    ze_result_t r = rd_check_handle(handle, RD_MAGIC_EVENT);
    if (r == ZE_RESULT_ERROR_INVALID_ARGUMENT)
        return ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT;
    if (r == ZE_RESULT_SUCCESS)
        *event = (rd_event_t *)(void *)handle;
    return r;
}

ze_result_t rd_event_list(uint32_t count, const ze_event_handle_t *handles, rd_event_t ***events)
{
    *events = NULL;
    if (count == 0)
        return ZE_RESULT_SUCCESS;
    if (!handles)
        return ZE_RESULT_ERROR_INVALID_SIZE;
    rd_event_t **list = malloc(count * sizeof *list);
    if (!list)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < count; i++) {
        ze_result_t r = rd_event_from_handle(handles[i], &list[i]);
        if (r != ZE_RESULT_SUCCESS) {
            free(list);
            return r == ZE_RESULT_ERROR_INVALID_NULL_HANDLE
                       ? ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT
                       : r;
        }
    }
    *events = list;
    return ZE_RESULT_SUCCESS;
}

void rd_event_signal(rd_event_t *event, uint64_t start_ns, uint64_t end_ns)
{
    rd_event_signal_result(event, start_ns, end_ns, ZE_RESULT_SUCCESS);
}

void rd_event_signal_result(rd_event_t *event, uint64_t start_ns, uint64_t end_ns, ze_result_t r)
{
    rd_event_pool_t *pool = event->pool;
    pthread_mutex_lock(&pool->lock);
    event->timestamp.global.kernelStart = start_ns;
    event->timestamp.global.kernelEnd = end_ns;
    event->timestamp.context = event->timestamp.global;
    __atomic_store_n(&event->signaled, r == ZE_RESULT_ERROR_DEVICE_LOST ? RD_EVENT_LOST : 1,
                     __ATOMIC_RELEASE);
    pthread_cond_broadcast(&pool->cond);
    pthread_mutex_unlock(&pool->lock);
}

void rd_event_reset(rd_event_t *event)
{
    pthread_mutex_lock(&event->pool->lock);
    __atomic_store_n(&event->signaled, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&event->pool->lock);
}

static int event_signaled(const void *arg)
{
    const rd_event_t *event = arg;
    return __atomic_load_n(&event->signaled, __ATOMIC_ACQUIRE);
}

static ze_result_t signal_result(int signaled)
{
    return signaled == RD_EVENT_LOST ? ZE_RESULT_ERROR_DEVICE_LOST : ZE_RESULT_SUCCESS;
}

ze_result_t rd_event_wait(rd_event_t *event, uint64_t timeout_ns)
{
    rd_event_pool_t *pool = event->pool;
    rd_deadline_t deadline = rd_deadline_after(timeout_ns);
    if (rd_poll_until(event_signaled, event, rd_poll_budget(timeout_ns)))
        return signal_result(__atomic_load_n(&event->signaled, __ATOMIC_ACQUIRE));
    pthread_mutex_lock(&pool->lock);
    int timed_out = 0;
    while (!event->signaled && !timed_out && timeout_ns != 0)
        timed_out = rd_cond_wait_until(&pool->cond, &pool->lock, &deadline) != 0;
    int signaled = event->signaled;
    pthread_mutex_unlock(&pool->lock);
    return signaled ? signal_result(signaled) : ZE_RESULT_NOT_READY;
}

ze_kernel_timestamp_result_t rd_event_timestamp(rd_event_t *event)
{
    pthread_mutex_lock(&event->pool->lock);
    ze_kernel_timestamp_result_t ts = event->timestamp;
    pthread_mutex_unlock(&event->pool->lock);
    return ts;
}

ze_result_t ZE_APICALL rd_zeEventPoolCreate(ze_context_handle_t hContext,
                                            const ze_event_pool_desc_t *desc, uint32_t numDevices,
                                            ze_device_handle_t *phDevices,
                                            ze_event_pool_handle_t *phEventPool)
{
    RD_HANDLE(rd_context_t, ctx, hContext, RD_MAGIC_CONTEXT);
    RD_NOT_NULL(desc);
    RD_NOT_NULL(phEventPool);
    if (desc->flags > 0x7)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    if (desc->count == 0 || (numDevices > 0 && !phDevices))
        return ZE_RESULT_ERROR_INVALID_SIZE;
    for (uint32_t i = 0; i < numDevices; i++) {
        RD_HANDLE(rd_device_t, dev, phDevices[i], RD_MAGIC_DEVICE);
        if (!rd_context_has_device(ctx, dev))
            return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    rd_event_pool_t *pool = rd_object_new(RD_MAGIC_EVENT_POOL, sizeof *pool);
    rd_event_t **slots = calloc(desc->count, sizeof *slots);
    if (!pool || !slots) {
        rd_object_delete(pool, RD_MAGIC_EVENT_POOL, sizeof *pool);
        free(slots);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    pool->context = ctx;
    pool->flags = desc->flags;
    pool->count = desc->count;
    pool->slots = slots;
    atomic_init(&pool->refs, 1);
    pthread_mutex_init(&pool->lock, NULL);
    rd_cond_init(&pool->cond);
    pool->magic = RD_MAGIC_EVENT_POOL;
    *phEventPool = (ze_event_pool_handle_t)pool;
    return ZE_RESULT_SUCCESS;
}

static void pool_free(rd_event_pool_t *pool)
{
    while (pool->retired) {
        rd_event_t *next = pool->retired->next_retired;
        rd_object_delete(pool->retired, RD_MAGIC_EVENT, sizeof *pool->retired);
        pool->retired = next;
    }
    pthread_cond_destroy(&pool->cond);
    pthread_mutex_destroy(&pool->lock);
    free(pool->slots);
    rd_object_delete(pool, RD_MAGIC_EVENT_POOL, sizeof *pool);
}

static void pool_release(rd_event_pool_t *pool)
{
    if (atomic_fetch_sub_explicit(&pool->refs, 1, memory_order_acq_rel) == 1)
        pool_free(pool);
}

void rd_event_hold(rd_event_t *event)
{
    if (event)
        atomic_fetch_add_explicit(&event->pool->refs, 1, memory_order_relaxed);
}

void rd_event_release(rd_event_t *event)
{
    if (event)
        pool_release(event->pool);
}

ze_result_t ZE_APICALL rd_zeEventPoolDestroy(ze_event_pool_handle_t hEventPool)
{
    RD_HANDLE(rd_event_pool_t, pool, hEventPool, RD_MAGIC_EVENT_POOL);
    pthread_mutex_lock(&pool->lock);
    uint32_t live = pool->live_events;
    pthread_mutex_unlock(&pool->lock);
    /* Its events point at the pool; freeing it under them would turn the
     * application's next use of one into a crash. */
    if (live > 0)
        return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
    pool->magic = RD_MAGIC_DEAD;
    /* Commands still queued keep it (and its retired events) a while. */
    pool_release(pool);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeEventCreate(ze_event_pool_handle_t hEventPool,
                                        const ze_event_desc_t *desc, ze_event_handle_t *phEvent)
{
    RD_HANDLE(rd_event_pool_t, pool, hEventPool, RD_MAGIC_EVENT_POOL);
    RD_NOT_NULL(desc);
    RD_NOT_NULL(phEvent);
    if (desc->signal > 0x7 || desc->wait > 0x7)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    if (desc->index >= pool->count)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    rd_event_t *event = rd_object_new(RD_MAGIC_EVENT, sizeof *event);
    if (!event)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    pthread_mutex_lock(&pool->lock);
    if (pool->slots[desc->index]) { /* one event per index at a time */
        pthread_mutex_unlock(&pool->lock);
        rd_object_delete(event, RD_MAGIC_EVENT, sizeof *event);
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    event->pool = pool;
    event->index = desc->index;
    event->magic = RD_MAGIC_EVENT;
    pool->slots[desc->index] = event;
    pool->live_events++;
    pthread_mutex_unlock(&pool->lock);
    *phEvent = (ze_event_handle_t)event;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeEventDestroy(ze_event_handle_t hEvent)
{
    RD_HANDLE(rd_event_t, event, hEvent, RD_MAGIC_EVENT);
    rd_event_pool_t *pool = event->pool;
    pthread_mutex_lock(&pool->lock);
    pool->slots[event->index] = NULL;
    pool->live_events--;
    event->magic = RD_MAGIC_DEAD;
    /* As on a GPU, where an event is memory of its pool, commands already
     * appended may still signal or wait on it: its memory stays until the
     * pool goes (in reuse mode it is handed out again at once, as asked,
     * unless commands still hold the pool). */
    int keep = !rd_reuse_mode() || atomic_load_explicit(&pool->refs, memory_order_relaxed) > 1;
    if (keep) {
        event->next_retired = pool->retired;
        pool->retired = event;
    }
    pthread_mutex_unlock(&pool->lock);
    if (!keep)
        rd_object_delete(event, RD_MAGIC_EVENT, sizeof *event);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeEventHostSignal(ze_event_handle_t hEvent)
{
    rd_event_t *event = NULL;
    RD_TRY(rd_event_from_handle(hEvent, &event));
    uint64_t now = rd_now_ns();
    rd_event_signal(event, now, now);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeEventHostSynchronize(ze_event_handle_t hEvent, uint64_t timeout)
{
    rd_event_t *event = NULL;
    RD_TRY(rd_event_from_handle(hEvent, &event));
    return rd_event_wait(event, timeout);
}

ze_result_t ZE_APICALL rd_zeEventQueryStatus(ze_event_handle_t hEvent)
{
    rd_event_t *event = NULL;
    RD_TRY(rd_event_from_handle(hEvent, &event));
    return rd_event_wait(event, 0);
}

ze_result_t ZE_APICALL rd_zeEventHostReset(ze_event_handle_t hEvent)
{
    rd_event_t *event = NULL;
    RD_TRY(rd_event_from_handle(hEvent, &event));
    rd_event_reset(event);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeEventQueryKernelTimestamp(ze_event_handle_t hEvent,
                                                      ze_kernel_timestamp_result_t *dstptr)
{
    rd_event_t *event = NULL;
    RD_TRY(rd_event_from_handle(hEvent, &event));
    RD_NOT_NULL(dstptr);
    if (!(event->pool->flags & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP))
        return ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT;
    ze_result_t r = rd_event_wait(event, 0);
    if (r != ZE_RESULT_SUCCESS)
        return r == ZE_RESULT_ERROR_DEVICE_LOST ? r : ZE_RESULT_NOT_READY;
    *dstptr = rd_event_timestamp(event);
    return ZE_RESULT_SUCCESS;
}
