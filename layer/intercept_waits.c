/*
 * Hooks of the host's waits and queries: the hazard checks watch them (a
 * hang check before a wait without timeout, what the host learns after),
 * behind one branch when those checks are off. The generated intercepts
 * check the handle and log the call.
 */
#include "intercepts.h"

#include "checks.h"
#include "hazards/hazards.h"
#include "zeil_hooks.h"

/* pre_ and post_ hooks of a host synchronization on the one handle objs[0]. */
#define HOST_SYNC_HOOKS(api, what, htype)                                                  \
    ze_result_t zeil_pre_##api(zeil_call_t *call, const zeil_next_t *next,                 \
                               zeil_obj_t *const *objs, htype handle, uint64_t timeout)    \
    {                                                                                      \
        (void)next, (void)handle;                                                          \
        if (objs[0] && hazards_active())                                                   \
            hazards_##what##_sync_before(call, objs[0], timeout);                          \
        return ZE_RESULT_SUCCESS;                                                          \
    }                                                                                      \
    void zeil_post_##api(zeil_call_t *call, const zeil_next_t *next,                       \
                         zeil_obj_t *const *objs, ze_result_t result, htype handle,        \
                         uint64_t timeout)                                                 \
    {                                                                                      \
        (void)next, (void)handle;                                                          \
        if (objs[0] && hazards_active())                                                   \
            hazards_##what##_synced(call, objs[0], timeout, result);                       \
    }

HOST_SYNC_HOOKS(zeCommandQueueSynchronize, queue, ze_command_queue_handle_t)
HOST_SYNC_HOOKS(zeFenceHostSynchronize, fence, ze_fence_handle_t)
/* API 1.6: the host waits for an immediate list's work. */
HOST_SYNC_HOOKS(zeCommandListHostSynchronize, list, ze_command_list_handle_t)

void zeil_post_zeEventQueryStatus(zeil_call_t *call, const zeil_next_t *next,
                                  zeil_obj_t *const *objs, ze_result_t result,
                                  ze_event_handle_t hEvent)
{
    (void)call, (void)next, (void)hEvent;
    if (objs[0] && hazards_active())
        hazards_event_queried(objs[0], result); /* ready is a host synchronization */
}

void zeil_post_zeFenceQueryStatus(zeil_call_t *call, const zeil_next_t *next,
                                  zeil_obj_t *const *objs, ze_result_t result,
                                  ze_fence_handle_t hFence)
{
    (void)next, (void)hFence;
    if (objs[0] && hazards_active())
        hazards_fence_synced(call, objs[0], 0, result); /* ready: the host knows the work done */
}
