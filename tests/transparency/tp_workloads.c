/*
 * The two workloads that made zeil change a correct program's outcome:
 * sixteen threads creating and destroying event pools and events at once
 * (handles reused by the driver the moment they are freed), and sixteen
 * threads allocating, using and freeing USM of every kind (addresses reused
 * the same way).
 */
#include "transparency.h"

#include <stdio.h>
#include <string.h>

#define POOL_EVENTS_MAX 8u
#define LIVE_ALLOCS 4u
#define ALLOC_BYTES_MAX 4096u

ze_result_t tp_record(tp_thread_t *t, int line, const char *what, ze_result_t r)
{
    t->calls++;
    t->hash = (t->hash ^ ((uint64_t)(uint32_t)line << 32 | (uint32_t)r)) * 0x100000001b3ull;
    if (r != ZE_RESULT_SUCCESS && r != ZE_RESULT_NOT_READY && !t->failures++)
        snprintf(t->first_failure, sizeof t->first_failure, "line %d: %s returned 0x%x", line, what,
                 (unsigned)r);
    return r;
}

void tp_expect(tp_thread_t *t, int line, const char *what, int ok)
{
    tp_record(t, line, what, ok ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_UNKNOWN);
}

uint32_t tp_random(tp_thread_t *t, uint32_t below)
{
    t->rng = t->rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(t->rng >> 33) % below;
}

void tp_events_workload(tp_thread_t *t)
{
    for (uint32_t round = 0; round < t->iterations; round++) {
        uint32_t count = 1 + tp_random(t, POOL_EVENTS_MAX);
        ze_event_pool_desc_t pool_desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                          ZE_EVENT_POOL_FLAG_HOST_VISIBLE, count};
        ze_event_pool_handle_t pool = NULL;
        ze_device_handle_t device = t->device;
        if (TP_CALL(t, zeEventPoolCreate(t->context, &pool_desc, 1, &device, &pool)) !=
            ZE_RESULT_SUCCESS)
            continue;
        ze_event_handle_t events[POOL_EVENTS_MAX] = {0};
        for (uint32_t i = 0; i < count; i++) {
            ze_event_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, i, ZE_EVENT_SCOPE_FLAG_HOST,
                                    ZE_EVENT_SCOPE_FLAG_HOST};
            TP_CALL(t, zeEventCreate(pool, &desc, &events[i]));
        }
        for (uint32_t i = 0; i < count; i++) {
            if (!events[i] || tp_random(t, 2))
                continue;
            TP_CALL(t, zeEventHostSignal(events[i]));
            TP_CALL(t, zeEventQueryStatus(events[i]));
            TP_CALL(t, zeEventHostReset(events[i]));
        }
        /* Destroyed in an order of their own, so handles come back mixed. */
        for (uint32_t left = count; left > 0; left--) {
            uint32_t pick = tp_random(t, left), seen = 0;
            for (uint32_t i = 0; i < count; i++) {
                if (!events[i] || seen++ != pick)
                    continue;
                TP_CALL(t, zeEventDestroy(events[i]));
                events[i] = NULL;
                break;
            }
        }
        TP_CALL(t, zeEventPoolDestroy(pool));
    }
}

static ze_result_t usm_alloc(tp_thread_t *t, int kind, size_t size, size_t alignment, void **ptr)
{
    ze_device_mem_alloc_desc_t device_desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    ze_host_mem_alloc_desc_t host_desc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
    *ptr = NULL;
    if (kind == 0)
        return TP_CALL(t, zeMemAllocHost(t->context, &host_desc, size, alignment, ptr));
    if (kind == 1)
        return TP_CALL(t,
                       zeMemAllocDevice(t->context, &device_desc, size, alignment, t->device, ptr));
    return TP_CALL(
        t, zeMemAllocShared(t->context, &device_desc, &host_desc, size, alignment, t->device, ptr));
}

static void usm_free(tp_thread_t *t, void *ptr)
{
    if (tp_random(t, 2)) {
        TP_CALL(t, zeMemFree(t->context, ptr));
        return;
    }
    ze_memory_free_ext_desc_t desc = {ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, NULL,
                                      ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE};
    TP_CALL(t, zeMemFreeExt(t->context, &desc, ptr));
}

void tp_usm_workload(tp_thread_t *t)
{
    ze_command_queue_desc_t queue_desc = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t list = NULL;
    if (TP_CALL(t, zeCommandListCreateImmediate(t->context, t->device, &queue_desc, &list)) !=
        ZE_RESULT_SUCCESS)
        return;
    uint8_t *check = NULL;
    usm_alloc(t, 0, ALLOC_BYTES_MAX, 64, (void **)&check);
    void *live[LIVE_ALLOCS] = {0};
    for (uint32_t round = 0; check && round < t->iterations; round++) {
        uint32_t slot = tp_random(t, LIVE_ALLOCS);
        if (live[slot])
            usm_free(t, live[slot]);
        size_t size = 1 + tp_random(t, ALLOC_BYTES_MAX);
        size_t alignment = (size_t)1 << tp_random(t, 8);
        if (usm_alloc(t, (int)tp_random(t, 3), size, alignment, &live[slot]) != ZE_RESULT_SUCCESS)
            continue;
        uint8_t pattern = (uint8_t)(t->index * 16 + round);
        TP_CALL(t,
                zeCommandListAppendMemoryFill(list, live[slot], &pattern, 1, size, NULL, 0, NULL));
        memset(check, 0, size);
        TP_CALL(t, zeCommandListAppendMemoryCopy(list, check, live[slot], size, NULL, 0, NULL));
        size_t same = 0;
        while (same < size && check[same] == pattern)
            same++;
        tp_expect(t, __LINE__, "the copy holds the fill pattern", same == size);
    }
    for (uint32_t i = 0; i < LIVE_ALLOCS; i++)
        if (live[i])
            usm_free(t, live[i]);
    if (check)
        usm_free(t, check);
    TP_CALL(t, zeCommandListDestroy(list));
}
