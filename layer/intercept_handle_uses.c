/*
 * Calls that only use a handle (wait, query, reset): zeil checks the handle
 * (E001-E003) and forwards. They are frequent in host loops, so nothing else
 * happens here but, for the waits and queries, the hazard checks' hook
 * (behind one branch when those checks are off).
 */
#include "intercepts.h"

#include "checks.h"
#include "hazards/hazards.h"

/* Checks the one handle of a call of this shape, then forwards it. */
#define HANDLE_USE(api, table, member, kind, hname, params, args)              \
    ze_result_t ZE_APICALL zeil_icpt_##api params                             \
    {                                                                         \
        zeil_call_t call;                                                     \
        calls_begin(&call, #api);                                             \
        zeil_obj_t *obj;                                                      \
        ze_result_t r = check_handle(&call, #hname, hname, kind, &obj);       \
        if (r == ZE_RESULT_SUCCESS)                                           \
            r = NEXT(table, member) args;                                     \
        return CALLS_END(&call, r, #hname "=%p", (void *)hname);              \
    }

/* The same for host synchronizations, which the hazard checks watch: a hang
 * check before a wait without timeout, what the host learns after. */
#define HANDLE_SYNC(api, table, member, kind, hname, what, params, args)       \
    ze_result_t ZE_APICALL zeil_icpt_##api params                             \
    {                                                                         \
        zeil_call_t call;                                                     \
        calls_begin(&call, #api);                                             \
        zeil_obj_t *obj;                                                      \
        ze_result_t r = check_handle(&call, #hname, hname, kind, &obj);       \
        if (r == ZE_RESULT_SUCCESS && obj && hazards_active())                \
            hazards_##what##_sync_before(&call, obj, timeout);                \
        if (r == ZE_RESULT_SUCCESS)                                           \
            r = NEXT(table, member) args;                                     \
        if (obj && hazards_active())                                          \
            hazards_##what##_synced(&call, obj, timeout, r);                  \
        return CALLS_END(&call, r, #hname "=%p", (void *)hname);              \
    }

HANDLE_SYNC(zeCommandQueueSynchronize, ze_command_queue_dditable_t, pfnSynchronize,
            ZEIL_KIND_COMMAND_QUEUE, hCommandQueue, queue,
            (const zeil_next_t *next, ze_command_queue_handle_t hCommandQueue, uint64_t timeout),
            (hCommandQueue, timeout))
HANDLE_SYNC(zeFenceHostSynchronize, ze_fence_dditable_t, pfnHostSynchronize, ZEIL_KIND_FENCE,
            hFence, fence, (const zeil_next_t *next, ze_fence_handle_t hFence, uint64_t timeout),
            (hFence, timeout))
/* API 1.6: the host waits for an immediate list's work. */
HANDLE_SYNC(zeCommandListHostSynchronize, ze_command_list_dditable_t, pfnHostSynchronize,
            ZEIL_KIND_COMMAND_LIST, hCommandList, list,
            (const zeil_next_t *next, ze_command_list_handle_t hCommandList, uint64_t timeout),
            (hCommandList, timeout))
/* API 1.14: the host waits for everything submitted to a device. */
HANDLE_USE(zeDeviceSynchronize, ze_device_dditable_t, pfnSynchronize, ZEIL_KIND_DEVICE, hDevice,
           (const zeil_next_t *next, ze_device_handle_t hDevice), (hDevice))
HANDLE_USE(zeFenceReset, ze_fence_dditable_t, pfnReset, ZEIL_KIND_FENCE, hFence,
           (const zeil_next_t *next, ze_fence_handle_t hFence), (hFence))

ze_result_t ZE_APICALL zeil_icpt_zeEventQueryStatus(const zeil_next_t *next,
                                                   ze_event_handle_t hEvent)
{
    zeil_call_t call;
    calls_begin(&call, "zeEventQueryStatus");
    zeil_obj_t *obj;
    ze_result_t r = check_handle(&call, "hEvent", hEvent, ZEIL_KIND_EVENT, &obj);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_event_dditable_t, pfnQueryStatus)(hEvent);
    if (obj && hazards_active())
        hazards_event_queried(obj, r); /* ready is a host synchronization */
    return CALLS_END(&call, r, "hEvent=%p", (void *)hEvent);
}

ze_result_t ZE_APICALL zeil_icpt_zeFenceQueryStatus(const zeil_next_t *next,
                                                    ze_fence_handle_t hFence)
{
    zeil_call_t call;
    calls_begin(&call, "zeFenceQueryStatus");
    zeil_obj_t *obj;
    ze_result_t r = check_handle(&call, "hFence", hFence, ZEIL_KIND_FENCE, &obj);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_fence_dditable_t, pfnQueryStatus)(hFence);
    if (obj && hazards_active())
        hazards_fence_synced(&call, obj, 0, r); /* ready: the host knows the work done */
    return CALLS_END(&call, r, "hFence=%p", (void *)hFence);
}
HANDLE_USE(zeEventQueryKernelTimestamp, ze_event_dditable_t, pfnQueryKernelTimestamp,
           ZEIL_KIND_EVENT, hEvent,
           (const zeil_next_t *next, ze_event_handle_t hEvent,
            ze_kernel_timestamp_result_t *dstptr),
           (hEvent, dstptr))
HANDLE_USE(zeKernelGetProperties, ze_kernel_dditable_t, pfnGetProperties, ZEIL_KIND_KERNEL,
           hKernel,
           (const zeil_next_t *next, ze_kernel_handle_t hKernel,
            ze_kernel_properties_t *pKernelProperties),
           (hKernel, pKernelProperties))
