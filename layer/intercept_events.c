/* Intercepts of event pools and events. */
#include "intercepts.h"

#include "checks.h"
#include "zeil_hooks.h"
#include "hazards/hazards.h"

#include <string.h>

ze_result_t ZE_APICALL zeil_icpt_zeEventPoolCreate(const zeil_next_t *next,
                                                   ze_context_handle_t hContext,
                                                   const ze_event_pool_desc_t *desc,
                                                   uint32_t numDevices,
                                                   ze_device_handle_t *phDevices,
                                                   ze_event_pool_handle_t *phEventPool)
{
    zeil_call_t call;
    calls_begin(&call, "zeEventPoolCreate");
    zeil_obj_t *context;
    ze_result_t r = check_handle(&call, "hContext", hContext, ZEIL_KIND_CONTEXT, &context);
    CHECK_KEEP_FIRST(r, check_handle_array(&call, "phDevices[]", numDevices,
                                           (const void *const *)phDevices, ZEIL_KIND_DEVICE));
    for (uint32_t i = 0; phDevices && i < numDevices; i++)
        CHECK_KEEP_FIRST(r, check_device_in_context(&call, context, phDevices[i]));
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_event_pool_dditable_t, pfnCreate)(hContext, desc, numDevices, phDevices,
                                                      phEventPool);
    if (r == ZE_RESULT_SUCCESS && phEventPool)
        intercept_register(&call, next,
                           &(zeil_obj_t){.handle = *phEventPool, .kind = ZEIL_KIND_EVENT_POOL,
                                         .driver = context ? context->driver : NULL,
                                         .device = numDevices == 1 && phDevices ? phDevices[0]
                                                                                : NULL,
                                         .context = hContext,
                                         .pool_flags = desc ? desc->flags : 0});
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeEventPoolCreate, ZEIL_ARGS_zeEventPoolCreate);
}

ze_result_t ZE_APICALL zeil_icpt_zeEventPoolDestroy(const zeil_next_t *next,
                                                    ze_event_pool_handle_t hEventPool)
{
    zeil_call_t call;
    calls_begin(&call, "zeEventPoolDestroy");
    zeil_obj_t *pool;
    ze_result_t r = check_handle(&call, "hEventPool", hEventPool, ZEIL_KIND_EVENT_POOL, &pool);
    CHECK_KEEP_FIRST(r, check_pool_events(&call, pool));
    if (r == ZE_RESULT_SUCCESS) {
        intercept_destroying(&call, pool);
        r = NEXT(ze_event_pool_dditable_t, pfnDestroy)(hEventPool);
    }
    if (r == ZE_RESULT_SUCCESS)
        intercept_retire(&call, pool);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeEventPoolDestroy, ZEIL_ARGS_zeEventPoolDestroy);
}

/* Pools opened from another process's IPC handle are pools all the same. */
ze_result_t ZE_APICALL zeil_icpt_zeEventPoolOpenIpcHandle(const zeil_next_t *next,
                                                          ze_context_handle_t hContext,
                                                          ze_ipc_event_pool_handle_t hIpc,
                                                          ze_event_pool_handle_t *phEventPool)
{
    zeil_call_t call;
    calls_begin(&call, "zeEventPoolOpenIpcHandle");
    zeil_obj_t *context;
    ze_result_t r = check_handle(&call, "hContext", hContext, ZEIL_KIND_CONTEXT, &context);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_event_pool_dditable_t, pfnOpenIpcHandle)(hContext, hIpc, phEventPool);
    if (r == ZE_RESULT_SUCCESS && phEventPool)
        intercept_register(&call, next,
                           &(zeil_obj_t){.handle = *phEventPool, .kind = ZEIL_KIND_EVENT_POOL,
                                         .driver = context ? context->driver : NULL,
                                         .context = hContext});
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeEventPoolOpenIpcHandle, ZEIL_ARGS_zeEventPoolOpenIpcHandle);
}

ze_result_t ZE_APICALL zeil_icpt_zeEventPoolCloseIpcHandle(const zeil_next_t *next,
                                                           ze_event_pool_handle_t hEventPool)
{
    zeil_call_t call;
    calls_begin(&call, "zeEventPoolCloseIpcHandle");
    zeil_obj_t *pool;
    ze_result_t r = check_handle(&call, "hEventPool", hEventPool, ZEIL_KIND_EVENT_POOL, &pool);
    if (r == ZE_RESULT_SUCCESS) {
        intercept_destroying(&call, pool);
        r = NEXT(ze_event_pool_dditable_t, pfnCloseIpcHandle)(hEventPool);
    }
    if (r == ZE_RESULT_SUCCESS)
        intercept_retire(&call, pool);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeEventPoolCloseIpcHandle, ZEIL_ARGS_zeEventPoolCloseIpcHandle);
}

ze_result_t ZE_APICALL zeil_icpt_zeEventCreate(const zeil_next_t *next,
                                               ze_event_pool_handle_t hEventPool,
                                               const ze_event_desc_t *desc,
                                               ze_event_handle_t *phEvent)
{
    zeil_call_t call;
    calls_begin(&call, "zeEventCreate");
    zeil_obj_t *pool;
    ze_result_t r = check_handle(&call, "hEventPool", hEventPool, ZEIL_KIND_EVENT_POOL, &pool);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_event_dditable_t, pfnCreate)(hEventPool, desc, phEvent);
    if (r == ZE_RESULT_SUCCESS && phEvent)
        intercept_register(&call, next,
                           &(zeil_obj_t){.handle = *phEvent, .kind = ZEIL_KIND_EVENT,
                                         .driver = pool ? pool->driver : NULL,
                                         .device = pool ? pool->device : NULL,
                                         .context = pool ? pool->context : NULL,
                                         .parent = hEventPool,
                                         .pool_flags = pool ? pool->pool_flags : 0});
    /* Another process may signal the events of a pool it shared. */
    if (r == ZE_RESULT_SUCCESS && phEvent && pool && hazards_active() &&
        strcmp(pool->created_by, "zeEventPoolOpenIpcHandle") == 0)
        hazards_event_external(registry_find(*phEvent));
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeEventCreate, ZEIL_ARGS_zeEventCreate);
}

ze_result_t ZE_APICALL zeil_icpt_zeEventDestroy(const zeil_next_t *next, ze_event_handle_t hEvent)
{
    zeil_call_t call;
    calls_begin(&call, "zeEventDestroy");
    zeil_obj_t *event;
    ze_result_t r = check_handle(&call, "hEvent", hEvent, ZEIL_KIND_EVENT, &event);
    if (r == ZE_RESULT_SUCCESS) {
        intercept_destroying(&call, event);
        r = NEXT(ze_event_dditable_t, pfnDestroy)(hEvent);
    }
    if (r == ZE_RESULT_SUCCESS)
        intercept_retire(&call, event);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeEventDestroy, ZEIL_ARGS_zeEventDestroy);
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
