/* Hooks of contexts, command queues and their executions, fences. */
#include "intercepts.h"

#include "checks.h"
#include "hazards/hazards.h"
#include "out_of_memory.h"
#include "zeil_hooks.h"

#include <stdlib.h>
#include <string.h>

ZEIL_MAKE(zeContextCreate)
{
    o->context = *a->phContext;
}

ZEIL_PRE(zeContextCreateEx)
{
    return check_handle_array(call, "phDevices[]", a->numDevices,
                              (const void *const *)a->phDevices, ZEIL_KIND_DEVICE);
}

/* Without the copy of its devices a context counts as one of all its
 * driver's devices (device_count 0): checks then refuse less, never more. */
ZEIL_MAKE(zeContextCreateEx)
{
    o->context = *a->phContext;
    o->devices = a->numDevices && a->phDevices ? calloc(a->numDevices, sizeof *o->devices) : NULL;
    if (o->devices) {
        memcpy(o->devices, a->phDevices, a->numDevices * sizeof *o->devices);
        o->device_count = a->numDevices;
    } else if (a->numDevices && a->phDevices) {
        oom_dropped(OOM_OTHER, 1, call->name, "copying a context's device list");
    }
}

ZEIL_PRE(zeContextDestroy)
{
    return check_context_children(call, objs[0]);
}

ZEIL_PRE(zeCommandQueueCreate)
{
    return check_device_in_context(call, objs[0], a->hDevice);
}

ZEIL_MAKE(zeCommandQueueCreate)
{
    o->ordinal = a->desc ? a->desc->ordinal : 0;
    o->is_in_order = a->desc && (a->desc->flags & ZE_COMMAND_QUEUE_FLAG_IN_ORDER);
}

ZEIL_POST(zeCommandQueueCreate)
{
    if (result == ZE_RESULT_SUCCESS && a->phCommandQueue && a->desc && hazards_active())
        hazards_queue_mode(*a->phCommandQueue, a->desc->mode);
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

ZEIL_MAKE(zeFenceCreate) {}
