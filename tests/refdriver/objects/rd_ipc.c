/*
 * Interprocess sharing of event pools and memory: refused, as the driver
 * announces. zeDriverGetIpcProperties reports neither
 * ZE_IPC_PROPERTY_FLAG_MEMORY nor ZE_IPC_PROPERTY_FLAG_EVENT_POOL, and for a
 * feature a driver does not support the specification's answer is
 * ZE_RESULT_ERROR_UNSUPPORTED_FEATURE. Events and USM live in this process's
 * private memory (condition variables, the arena), which another process
 * cannot map.
 *
 * The arguments are still checked first, as for any call, so that a program
 * gets the error its mistake deserves; a close can only be a mistake (no
 * handle was ever opened).
 */
#include "rd_api.h"
#include "rd_context.h"
#include "rd_event.h"
#include "rd_object.h"

ze_result_t ZE_APICALL rd_zeEventPoolGetIpcHandle(ze_event_pool_handle_t hEventPool,
                                                  ze_ipc_event_pool_handle_t *phIpc)
{
    if (!hEventPool)
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (rd_check_handle(hEventPool, RD_MAGIC_EVENT_POOL) != ZE_RESULT_SUCCESS)
        return ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT;
    RD_NOT_NULL(phIpc);
    const rd_event_pool_t *pool = (const rd_event_pool_t *)(const void *)hEventPool;
    /* "Event pool must have been created with ZE_EVENT_POOL_FLAG_IPC." */
    if (!(pool->flags & ZE_EVENT_POOL_FLAG_IPC))
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
}

ze_result_t ZE_APICALL rd_zeEventPoolOpenIpcHandle(ze_context_handle_t hContext,
                                                   ze_ipc_event_pool_handle_t hIpc,
                                                   ze_event_pool_handle_t *phEventPool)
{
    (void)hIpc;
    RD_CHECK(hContext, RD_MAGIC_CONTEXT);
    RD_NOT_NULL(phEventPool);
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
}

ze_result_t ZE_APICALL rd_zeEventPoolCloseIpcHandle(ze_event_pool_handle_t hEventPool)
{
    RD_CHECK(hEventPool, RD_MAGIC_EVENT_POOL);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT; /* not opened from an IPC handle */
}

ze_result_t ZE_APICALL rd_zeMemGetIpcHandle(ze_context_handle_t hContext, const void *ptr,
                                            ze_ipc_mem_handle_t *pIpcHandle)
{
    RD_CHECK(hContext, RD_MAGIC_CONTEXT);
    RD_NOT_NULL(ptr);
    RD_NOT_NULL(pIpcHandle);
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
}

ze_result_t ZE_APICALL rd_zeMemOpenIpcHandle(ze_context_handle_t hContext,
                                             ze_device_handle_t hDevice, ze_ipc_mem_handle_t handle,
                                             ze_ipc_memory_flags_t flags, void **pptr)
{
    (void)handle;
    RD_CHECK(hContext, RD_MAGIC_CONTEXT);
    RD_CHECK(hDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(pptr);
    if (flags > 0x3)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
}

ze_result_t ZE_APICALL rd_zeMemCloseIpcHandle(ze_context_handle_t hContext, const void *ptr)
{
    RD_CHECK(hContext, RD_MAGIC_CONTEXT);
    RD_NOT_NULL(ptr);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT; /* nothing was opened */
}
