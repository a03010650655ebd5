/* Hooks of event pools and events. */
#include "intercepts.h"

#include "checks.h"
#include "hazards/hazards.h"
#include "zeil_hooks.h"

#include <string.h>

/* The host's signal, reset and wait are hot calls that note no signal. */
ZEIL_UNNUMBERED(zeEventHostSignal);
ZEIL_UNNUMBERED(zeEventHostReset);
ZEIL_UNNUMBERED(zeEventHostSynchronize);

ZEIL_PRE(zeEventPoolCreate)
{
    ze_result_t r = check_handle_array(call, "phDevices[]", a->numDevices,
                                       (const void *const *)a->phDevices, ZEIL_KIND_DEVICE);
    for (uint32_t i = 0; a->phDevices && i < a->numDevices; i++)
        CHECK_KEEP_FIRST(r, check_device_in_context(call, objs[0], a->phDevices[i]));
    return r;
}

ZEIL_MAKE(zeEventPoolCreate)
{
    o->device = a->numDevices == 1 && a->phDevices ? a->phDevices[0] : NULL;
    o->pool_flags = a->desc ? a->desc->flags : 0;
}

ZEIL_PRE(zeEventPoolDestroy)
{
    return check_pool_events(call, objs[0]);
}

/* Pools opened from another process's IPC handle are pools all the same. */
ZEIL_MAKE(zeEventPoolOpenIpcHandle) {}

ZEIL_MAKE(zeEventCreate) {}

ZEIL_POST(zeEventCreate)
{
    /* Another process may signal the events of a pool it shared. */
    if (st->made && objs[0] && hazards_active() &&
        strcmp(objs[0]->created_by, "zeEventPoolOpenIpcHandle") == 0)
        hazards_event_external(st->made);
}

/* API 1.15: an event of no pool; it belongs to the context and device. */
ZEIL_PRE(zeEventCounterBasedCreate)
{
    return check_device_in_context(call, objs[0], a->hDevice);
}

ZEIL_MAKE(zeEventCounterBasedCreate) {}

ZEIL_POST(zeEventHostReset)
{
    if (result == ZE_RESULT_SUCCESS && objs[0])
        atomic_store_explicit(&objs[0]->signalled_by_call, 0, memory_order_release);
    if (result == ZE_RESULT_SUCCESS && objs[0] && hazards_active())
        hazards_event_host_reset(objs[0]);
}

ZEIL_POST(zeEventHostSignal)
{
    if (result == ZE_RESULT_SUCCESS && objs[0] && hazards_active())
        hazards_event_host_signalled(objs[0]);
}

ZEIL_PRE(zeEventHostSynchronize)
{
    if (objs[0] && hazards_active())
        hazards_event_sync_before(call, objs[0], a->timeout);
    return ZE_RESULT_SUCCESS;
}

ZEIL_POST(zeEventHostSynchronize)
{
    if (objs[0] && hazards_active())
        hazards_event_synced(call, objs[0], a->timeout, result);
}

ZEIL_POST(zeEventQueryStatus)
{
    if (objs[0] && hazards_active())
        hazards_event_queried(objs[0], result); /* ready is a host synchronization */
}
