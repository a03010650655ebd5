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

ZEIL_POST(zeContextCreate)
{
    if (result == ZE_RESULT_SUCCESS && a->phContext)
        register_context(call, next, a->hDriver, *a->phContext, 0, NULL);
}

ZEIL_PRE(zeContextCreateEx)
{
    return check_handle_array(call, "phDevices[]", a->numDevices,
                              (const void *const *)a->phDevices, ZEIL_KIND_DEVICE);
}

ZEIL_POST(zeContextCreateEx)
{
    if (result == ZE_RESULT_SUCCESS && a->phContext)
        register_context(call, next, a->hDriver, *a->phContext, a->numDevices, a->phDevices);
}

ZEIL_PRE(zeContextDestroy)
{
    ze_result_t r = check_context_children(call, objs[0]);
    if (r == ZE_RESULT_SUCCESS)
        intercept_destroying(call, objs[0]);
    return r;
}

ZEIL_POST(zeContextDestroy)
{
    if (result == ZE_RESULT_SUCCESS)
        intercept_retire(call, objs[0]);
}

ZEIL_PRE(zeCommandQueueCreate)
{
    return check_device_in_context(call, objs[0], a->hDevice);
}

ZEIL_POST(zeCommandQueueCreate)
{
    const ze_command_queue_desc_t *desc = a->desc;
    if (result != ZE_RESULT_SUCCESS || !a->phCommandQueue || !desc)
        return;
    intercept_register(call, next,
                       &(zeil_obj_t){.handle = *a->phCommandQueue, .kind = ZEIL_KIND_COMMAND_QUEUE,
                                     .driver = objs[0] ? objs[0]->driver : NULL,
                                     .device = a->hDevice, .context = a->hContext,
                                     .ordinal = desc->ordinal,
                                     .is_in_order = !!(desc->flags & ZE_COMMAND_QUEUE_FLAG_IN_ORDER)});
    if (hazards_active())
        hazards_queue_mode(*a->phCommandQueue, desc->mode);
}

ZEIL_PRE(zeCommandQueueDestroy)
{
    intercept_destroying(call, objs[0]);
    return ZE_RESULT_SUCCESS;
}

ZEIL_POST(zeCommandQueueDestroy)
{
    if (result == ZE_RESULT_SUCCESS)
        intercept_retire(call, objs[0]);
}

ZEIL_PRE(zeCommandQueueExecuteCommandLists)
{
    return check_execute(call, objs[0], a->numCommandLists, a->phCommandLists, a->hFence);
}

ZEIL_POST(zeCommandQueueExecuteCommandLists)
{
    if (result == ZE_RESULT_SUCCESS && objs[0] && hazards_active())
        hazards_executed(call, objs[0], a->numCommandLists, a->phCommandLists, a->hFence);
}

ZEIL_POST(zeFenceCreate)
{
    const zeil_obj_t *queue = objs[0];
    if (result == ZE_RESULT_SUCCESS && a->phFence)
        intercept_register(call, next,
                           &(zeil_obj_t){.handle = *a->phFence, .kind = ZEIL_KIND_FENCE,
                                         .driver = queue ? queue->driver : NULL,
                                         .device = queue ? queue->device : NULL,
                                         .context = queue ? queue->context : NULL,
                                         .parent = a->hCommandQueue});
}

ZEIL_PRE(zeFenceDestroy)
{
    intercept_destroying(call, objs[0]);
    return ZE_RESULT_SUCCESS;
}

ZEIL_POST(zeFenceDestroy)
{
    if (result == ZE_RESULT_SUCCESS)
        intercept_retire(call, objs[0]);
}
