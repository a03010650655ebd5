/* Intercepts of contexts, command queues and fences. */
#include "intercepts.h"

#include "checks.h"
#include "zeil_hooks.h"
#include "hazards/hazards.h"
#include "out_of_memory.h"

#include <stdlib.h>
#include <string.h>

static void register_context(const zeil_call_t *call, const zeil_next_t *next,
                             ze_driver_handle_t driver, ze_context_handle_t context,
                             uint32_t device_count, const ze_device_handle_t *devices)
{
    zeil_obj_t proto = {.handle = context, .kind = ZEIL_KIND_CONTEXT, .driver = driver,
                        .context = context};
    if (device_count && devices) {
        /* Without the copy the context counts as one of all its driver's
         * devices (device_count 0): checks then refuse less, never more. */
        proto.devices = calloc(device_count, sizeof *devices);
        if (proto.devices) {
            memcpy(proto.devices, devices, device_count * sizeof *devices);
            proto.device_count = device_count;
        } else {
            oom_dropped(OOM_OTHER, 1, call->name, "copying a context's device list");
        }
    }
    intercept_register(call, next, &proto);
}

ze_result_t ZE_APICALL zeil_icpt_zeContextCreate(const zeil_next_t *next,
                                                 ze_driver_handle_t hDriver,
                                                 const ze_context_desc_t *desc,
                                                 ze_context_handle_t *phContext)
{
    zeil_call_t call;
    calls_begin(&call, "zeContextCreate");
    zeil_obj_t *driver;
    ze_result_t r = check_handle(&call, "hDriver", hDriver, ZEIL_KIND_DRIVER, &driver);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_context_dditable_t, pfnCreate)(hDriver, desc, phContext);
    if (r == ZE_RESULT_SUCCESS && phContext)
        register_context(&call, next, hDriver, *phContext, 0, NULL);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeContextCreate, ZEIL_ARGS_zeContextCreate);
}

ze_result_t ZE_APICALL zeil_icpt_zeContextCreateEx(const zeil_next_t *next,
                                                   ze_driver_handle_t hDriver,
                                                   const ze_context_desc_t *desc,
                                                   uint32_t numDevices,
                                                   ze_device_handle_t *phDevices,
                                                   ze_context_handle_t *phContext)
{
    zeil_call_t call;
    calls_begin(&call, "zeContextCreateEx");
    zeil_obj_t *driver;
    ze_result_t r = check_handle(&call, "hDriver", hDriver, ZEIL_KIND_DRIVER, &driver);
    CHECK_KEEP_FIRST(r, check_handle_array(&call, "phDevices[]", numDevices,
                                           (const void *const *)phDevices, ZEIL_KIND_DEVICE));
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_context_dditable_t, pfnCreateEx)(hDriver, desc, numDevices, phDevices,
                                                     phContext);
    if (r == ZE_RESULT_SUCCESS && phContext)
        register_context(&call, next, hDriver, *phContext, numDevices, phDevices);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeContextCreateEx, ZEIL_ARGS_zeContextCreateEx);
}

ze_result_t ZE_APICALL zeil_icpt_zeContextDestroy(const zeil_next_t *next,
                                                  ze_context_handle_t hContext)
{
    zeil_call_t call;
    calls_begin(&call, "zeContextDestroy");
    zeil_obj_t *context;
    ze_result_t r = check_handle(&call, "hContext", hContext, ZEIL_KIND_CONTEXT, &context);
    CHECK_KEEP_FIRST(r, check_context_children(&call, context));
    if (r == ZE_RESULT_SUCCESS) {
        intercept_destroying(&call, context);
        r = NEXT(ze_context_dditable_t, pfnDestroy)(hContext);
    }
    if (r == ZE_RESULT_SUCCESS)
        intercept_retire(&call, context);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeContextDestroy, ZEIL_ARGS_zeContextDestroy);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandQueueCreate(const zeil_next_t *next,
                                                      ze_context_handle_t hContext,
                                                      ze_device_handle_t hDevice,
                                                      const ze_command_queue_desc_t *desc,
                                                      ze_command_queue_handle_t *phCommandQueue)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandQueueCreate");
    zeil_obj_t *context, *device;
    ze_result_t r = check_handle(&call, "hContext", hContext, ZEIL_KIND_CONTEXT, &context);
    CHECK_KEEP_FIRST(r, check_handle(&call, "hDevice", hDevice, ZEIL_KIND_DEVICE, &device));
    CHECK_KEEP_FIRST(r, check_device_in_context(&call, context, hDevice));
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_queue_dditable_t, pfnCreate)(hContext, hDevice, desc, phCommandQueue);
    if (r == ZE_RESULT_SUCCESS && phCommandQueue && desc)
        intercept_register(&call, next,
                           &(zeil_obj_t){.handle = *phCommandQueue,
                                         .kind = ZEIL_KIND_COMMAND_QUEUE,
                                         .driver = context ? context->driver : NULL,
                                         .device = hDevice, .context = hContext,
                                         .ordinal = desc->ordinal,
                                         .is_in_order = !!(desc->flags &
                                                           ZE_COMMAND_QUEUE_FLAG_IN_ORDER)});
    if (r == ZE_RESULT_SUCCESS && phCommandQueue && desc && hazards_active())
        hazards_queue_mode(*phCommandQueue, desc->mode);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeCommandQueueCreate, ZEIL_ARGS_zeCommandQueueCreate);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandQueueDestroy(const zeil_next_t *next,
                                                       ze_command_queue_handle_t hCommandQueue)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandQueueDestroy");
    zeil_obj_t *queue;
    ze_result_t r = check_handle(&call, "hCommandQueue", hCommandQueue,
                                 ZEIL_KIND_COMMAND_QUEUE, &queue);
    if (r == ZE_RESULT_SUCCESS) {
        intercept_destroying(&call, queue);
        r = NEXT(ze_command_queue_dditable_t, pfnDestroy)(hCommandQueue);
    }
    if (r == ZE_RESULT_SUCCESS)
        intercept_retire(&call, queue);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeCommandQueueDestroy, ZEIL_ARGS_zeCommandQueueDestroy);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandQueueExecuteCommandLists(
    const zeil_next_t *next, ze_command_queue_handle_t hCommandQueue, uint32_t numCommandLists,
    ze_command_list_handle_t *phCommandLists, ze_fence_handle_t hFence)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandQueueExecuteCommandLists");
    zeil_obj_t *queue;
    ze_result_t r = check_handle(&call, "hCommandQueue", hCommandQueue,
                                 ZEIL_KIND_COMMAND_QUEUE, &queue);
    CHECK_KEEP_FIRST(r, check_execute(&call, queue, numCommandLists, phCommandLists, hFence));
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_queue_dditable_t, pfnExecuteCommandLists)(
            hCommandQueue, numCommandLists, phCommandLists, hFence);
    if (r == ZE_RESULT_SUCCESS && queue && hazards_active())
        hazards_executed(&call, queue, numCommandLists, phCommandLists, hFence);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeCommandQueueExecuteCommandLists, ZEIL_ARGS_zeCommandQueueExecuteCommandLists);
}

ze_result_t ZE_APICALL zeil_icpt_zeFenceCreate(const zeil_next_t *next,
                                               ze_command_queue_handle_t hCommandQueue,
                                               const ze_fence_desc_t *desc,
                                               ze_fence_handle_t *phFence)
{
    zeil_call_t call;
    calls_begin(&call, "zeFenceCreate");
    zeil_obj_t *queue;
    ze_result_t r = check_handle(&call, "hCommandQueue", hCommandQueue,
                                 ZEIL_KIND_COMMAND_QUEUE, &queue);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_fence_dditable_t, pfnCreate)(hCommandQueue, desc, phFence);
    if (r == ZE_RESULT_SUCCESS && phFence)
        intercept_register(&call, next,
                           &(zeil_obj_t){.handle = *phFence, .kind = ZEIL_KIND_FENCE,
                                         .driver = queue ? queue->driver : NULL,
                                         .device = queue ? queue->device : NULL,
                                         .context = queue ? queue->context : NULL,
                                         .parent = hCommandQueue});
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeFenceCreate, ZEIL_ARGS_zeFenceCreate);
}

ze_result_t ZE_APICALL zeil_icpt_zeFenceDestroy(const zeil_next_t *next, ze_fence_handle_t hFence)
{
    zeil_call_t call;
    calls_begin(&call, "zeFenceDestroy");
    zeil_obj_t *fence;
    ze_result_t r = check_handle(&call, "hFence", hFence, ZEIL_KIND_FENCE, &fence);
    if (r == ZE_RESULT_SUCCESS) {
        intercept_destroying(&call, fence);
        r = NEXT(ze_fence_dditable_t, pfnDestroy)(hFence);
    }
    if (r == ZE_RESULT_SUCCESS)
        intercept_retire(&call, fence);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeFenceDestroy, ZEIL_ARGS_zeFenceDestroy);
}
