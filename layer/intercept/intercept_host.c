/* Hooks of the host's signals, resets, waits and queries of events, queues,
 * fences and immediate lists: the hazard checks watch them (a hang check
 * before a wait, what the host learns after), one branch when they are off. */
#include "zeil_hooks.h"

/* The host's signal, reset and wait of an event are hot calls that note no
 * signal: numbered only when the calls log shows them (calls.h). */
ZEIL_UNNUMBERED(zeEventHostSignal);
ZEIL_UNNUMBERED(zeEventHostReset);
ZEIL_UNNUMBERED(zeEventHostSynchronize);

/* A wait without timeout with the guesses on waits ZEIL_HANG_WARN_MS first:
 * still blocked then, the checks look at what it waits for (W097: a hang
 * unless another thread signals it, which a valid program may do, so a
 * suspicion), and the wait goes on without timeout. Answers the call when
 * the first wait did. */
#define BLOCKED_WAIT(table, member, handle) \
    do { \
        uint64_t ms = zeil_settings()->hang_warn_ms; \
        if (!objs[0] || !hazards_guessing() || a->timeout != UINT64_MAX || !ms) \
            break; \
        ze_result_t first = NEXT(table, member)(handle, ms * 1000000u); \
        if (first != ZE_RESULT_NOT_READY) { \
            st->answered = 1; \
            return first; \
        } \
        hazards_wait_blocked(call, objs[0], ms); \
    } while (0)

/* A host wait of the object: the hang check before, what the host learned after. */
#define HOST_WAIT(api, before, after, table, member, handle) \
    ZEIL_PRE(api) \
    { \
        ZEIL_HAZARDS(before(call, objs[0], a->timeout)); \
        BLOCKED_WAIT(table, member, a->handle); \
        return ZE_RESULT_SUCCESS; \
    } \
    ZEIL_AFTER(api) \
    { \
        ZEIL_HAZARDS(after(call, objs[0], a->timeout, result)); \
    }

HOST_WAIT(zeEventHostSynchronize, hazards_event_sync_before, hazards_event_synced,
          ze_event_dditable_t, pfnHostSynchronize, hEvent)
HOST_WAIT(zeCommandQueueSynchronize, hazards_queue_sync_before, hazards_queue_synced,
          ze_command_queue_dditable_t, pfnSynchronize, hCommandQueue)
HOST_WAIT(zeFenceHostSynchronize, hazards_fence_sync_before, hazards_fence_synced,
          ze_fence_dditable_t, pfnHostSynchronize, hFence)
HOST_WAIT(zeCommandListHostSynchronize, hazards_list_sync_before, hazards_list_synced, /* 1.6 */
          ze_command_list_dditable_t, pfnHostSynchronize, hCommandList)

/* A query that finds the work done is a host synchronization too. */
ZEIL_AFTER(zeEventQueryStatus)
{
    ZEIL_HAZARDS(hazards_event_queried(objs[0], result));
}
ZEIL_AFTER(zeFenceQueryStatus)
{
    ZEIL_HAZARDS(hazards_fence_synced(call, objs[0], 0, result));
}

/* The hazard hooks of the host's signal and reset read the checks' switch
 * themselves, only when the event has no state yet (hazards.h). */
ZEIL_POST(zeEventHostSignal)
{
    if (objs[0])
        hazards_event_host_signalled(objs[0]);
}

/* After a reset, the event's next signal is no second signal. */
ZEIL_POST(zeEventHostReset)
{
    if (!objs[0])
        return;
    atomic_store_explicit(&objs[0]->signalled_by_call, 0, memory_order_release);
    hazards_event_host_reset(objs[0]);
}
