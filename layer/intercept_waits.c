/*
 * Hooks of the host's waits and queries: the hazard checks watch them (a
 * hang check before a wait without timeout, what the host learns after),
 * behind one branch when those checks are off.
 */
#include "intercepts.h"

#include "hazards/hazards.h"
#include "zeil_hooks.h"

ZEIL_PRE(zeCommandQueueSynchronize)
{
    if (objs[0] && hazards_active())
        hazards_queue_sync_before(call, objs[0], a->timeout);
    return ZE_RESULT_SUCCESS;
}

ZEIL_POST(zeCommandQueueSynchronize)
{
    if (objs[0] && hazards_active())
        hazards_queue_synced(call, objs[0], a->timeout, result);
}

ZEIL_PRE(zeFenceHostSynchronize)
{
    if (objs[0] && hazards_active())
        hazards_fence_sync_before(call, objs[0], a->timeout);
    return ZE_RESULT_SUCCESS;
}

ZEIL_POST(zeFenceHostSynchronize)
{
    if (objs[0] && hazards_active())
        hazards_fence_synced(call, objs[0], a->timeout, result);
}

ZEIL_POST(zeFenceQueryStatus)
{
    if (objs[0] && hazards_active())
        hazards_fence_synced(call, objs[0], 0, result); /* ready: the host knows the work done */
}

/* API 1.6: the host waits for an immediate list's work. */
ZEIL_PRE(zeCommandListHostSynchronize)
{
    if (objs[0] && hazards_active())
        hazards_list_sync_before(call, objs[0], a->timeout);
    return ZE_RESULT_SUCCESS;
}

ZEIL_POST(zeCommandListHostSynchronize)
{
    if (objs[0] && hazards_active())
        hazards_list_synced(call, objs[0], a->timeout, result);
}
