/* Intercepts of event pools and events. */
#include "intercepts.h"

#include "checks.h"
#include "zeil_hooks.h"
#include "hazards/hazards.h"

#include <string.h>

ZEIL_PRE(zeEventPoolCreate)
{
    ze_result_t r = check_handle_array(call, "phDevices[]", a->numDevices,
                                       (const void *const *)a->phDevices, ZEIL_KIND_DEVICE);
    for (uint32_t i = 0; a->phDevices && i < a->numDevices; i++)
        CHECK_KEEP_FIRST(r, check_device_in_context(call, objs[0], a->phDevices[i]));
    return r;
}

ZEIL_POST(zeEventPoolCreate)
{
    if (result != ZE_RESULT_SUCCESS || !a->phEventPool)
        return;
    intercept_register(call, next,
                       &(zeil_obj_t){.handle = *a->phEventPool, .kind = ZEIL_KIND_EVENT_POOL,
                                     .driver = objs[0] ? objs[0]->driver : NULL,
                                     .device = a->numDevices == 1 && a->phDevices
                                                   ? a->phDevices[0] : NULL,
                                     .context = a->hContext,
                                     .pool_flags = a->desc ? a->desc->flags : 0});
}

ZEIL_PRE(zeEventPoolDestroy)
{
    ze_result_t r = check_pool_events(call, objs[0]);
    if (r == ZE_RESULT_SUCCESS)
        intercept_destroying(call, objs[0]);
    return r;
}

ZEIL_POST(zeEventPoolDestroy)
{
    if (result == ZE_RESULT_SUCCESS)
        intercept_retire(call, objs[0]);
}

/* Pools opened from another process's IPC handle are pools all the same. */
ZEIL_POST(zeEventPoolOpenIpcHandle)
{
    if (result == ZE_RESULT_SUCCESS && a->phEventPool)
        intercept_register(call, next,
                           &(zeil_obj_t){.handle = *a->phEventPool, .kind = ZEIL_KIND_EVENT_POOL,
                                         .driver = objs[0] ? objs[0]->driver : NULL,
                                         .context = a->hContext});
}

ZEIL_PRE(zeEventPoolCloseIpcHandle)
{
    intercept_destroying(call, objs[0]);
    return ZE_RESULT_SUCCESS;
}

ZEIL_POST(zeEventPoolCloseIpcHandle)
{
    if (result == ZE_RESULT_SUCCESS)
        intercept_retire(call, objs[0]);
}

ZEIL_POST(zeEventCreate)
{
    const zeil_obj_t *pool = objs[0];
    if (result != ZE_RESULT_SUCCESS || !a->phEvent)
        return;
    intercept_register(call, next,
                       &(zeil_obj_t){.handle = *a->phEvent, .kind = ZEIL_KIND_EVENT,
                                     .driver = pool ? pool->driver : NULL,
                                     .device = pool ? pool->device : NULL,
                                     .context = pool ? pool->context : NULL,
                                     .parent = a->hEventPool,
                                     .pool_flags = pool ? pool->pool_flags : 0});
    /* Another process may signal the events of a pool it shared. */
    if (pool && hazards_active() && strcmp(pool->created_by, "zeEventPoolOpenIpcHandle") == 0)
        hazards_event_external(registry_find(*a->phEvent));
}

ZEIL_PRE(zeEventDestroy)
{
    intercept_destroying(call, objs[0]);
    return ZE_RESULT_SUCCESS;
}

ZEIL_POST(zeEventDestroy)
{
    if (result == ZE_RESULT_SUCCESS)
        intercept_retire(call, objs[0]);
}

ze_result_t ZE_APICALL zeil_icpt_zeEventHostReset(const zeil_next_t *next, ze_event_handle_t hEvent)
{
    zeil_call_t call;
    calls_begin_unnumbered(&call, "zeEventHostReset");
    zeil_obj_t *event;
    ze_result_t r = check_handle(&call, "hEvent", hEvent, ZEIL_KIND_EVENT, &event);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_event_dditable_t, pfnHostReset)(hEvent);
    if (r == ZE_RESULT_SUCCESS && event)
        atomic_store_explicit(&event->signalled_by_call, 0, memory_order_release);
    if (r == ZE_RESULT_SUCCESS && event && hazards_active())
        hazards_event_host_reset(event);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeEventHostReset, ZEIL_ARGS_zeEventHostReset);
}

ze_result_t ZE_APICALL zeil_icpt_zeEventHostSignal(const zeil_next_t *next, ze_event_handle_t hEvent)
{
    zeil_call_t call;
    calls_begin_unnumbered(&call, "zeEventHostSignal");
    zeil_obj_t *event;
    ze_result_t r = check_handle(&call, "hEvent", hEvent, ZEIL_KIND_EVENT, &event);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_event_dditable_t, pfnHostSignal)(hEvent);
    if (r == ZE_RESULT_SUCCESS && event && hazards_active())
        hazards_event_host_signalled(event);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeEventHostSignal, ZEIL_ARGS_zeEventHostSignal);
}

ze_result_t ZE_APICALL zeil_icpt_zeEventHostSynchronize(const zeil_next_t *next,
                                                        ze_event_handle_t hEvent,
                                                        uint64_t timeout)
{
    zeil_call_t call;
    calls_begin_unnumbered(&call, "zeEventHostSynchronize");
    zeil_obj_t *event;
    ze_result_t r = check_handle(&call, "hEvent", hEvent, ZEIL_KIND_EVENT, &event);
    if (r == ZE_RESULT_SUCCESS && event && hazards_active())
        hazards_event_sync_before(&call, event, timeout);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_event_dditable_t, pfnHostSynchronize)(hEvent, timeout);
    if (event && hazards_active())
        hazards_event_synced(&call, event, timeout, r);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeEventHostSynchronize, ZEIL_ARGS_zeEventHostSynchronize);
}
