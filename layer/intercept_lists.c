/* Intercepts of command list creation, destruction, close and reset. */
#include "intercepts.h"

#include "checks.h"
#include "zeil_hooks.h"
#include "names.h"
#include "hazards/hazards.h"
#include "launch_cache.h"
#include "records.h"
#include "timing.h"

static void register_list(const zeil_call_t *call, const zeil_next_t *next,
                          const zeil_obj_t *context, ze_context_handle_t hContext,
                          ze_device_handle_t hDevice, ze_command_list_handle_t list,
                          int immediate, uint32_t ordinal, uint32_t index, int in_order)
{
    zeil_obj_t *obj = intercept_register(
        call, next,
        &(zeil_obj_t){.handle = list, .kind = ZEIL_KIND_COMMAND_LIST,
                      .driver = context ? context->driver : NULL, .device = hDevice,
                      .context = hContext, .is_immediate = immediate, .ordinal = ordinal,
                      .is_in_order = in_order});
    if (obj) {
        records_list_created(call, obj);
        names_list_created(next, obj, index);
    }
}

ZEIL_PRE(zeCommandListCreate)
{
    return check_device_in_context(call, objs[0], a->hDevice);
}

ZEIL_POST(zeCommandListCreate)
{
    if (result == ZE_RESULT_SUCCESS && a->phCommandList && a->desc)
        register_list(call, next, objs[0], a->hContext, a->hDevice, *a->phCommandList, 0,
                      a->desc->commandQueueGroupOrdinal, 0,
                      !!(a->desc->flags & ZE_COMMAND_LIST_FLAG_IN_ORDER));
}

ZEIL_PRE(zeCommandListCreateImmediate)
{
    return check_device_in_context(call, objs[0], a->hDevice);
}

ZEIL_POST(zeCommandListCreateImmediate)
{
    if (result != ZE_RESULT_SUCCESS || !a->phCommandList || !a->altdesc)
        return;
    register_list(call, next, objs[0], a->hContext, a->hDevice, *a->phCommandList, 1,
                  a->altdesc->ordinal, a->altdesc->index,
                  !!(a->altdesc->flags & ZE_COMMAND_QUEUE_FLAG_IN_ORDER));
    if (hazards_active())
        hazards_list_mode(*a->phCommandList, a->altdesc->mode);
}

ZEIL_PRE(zeCommandListDestroy)
{
    if (objs[0])
        timing_list_destroyed(objs[0]);
    intercept_destroying(call, objs[0]);
    return ZE_RESULT_SUCCESS;
}

ZEIL_POST(zeCommandListDestroy)
{
    if (result != ZE_RESULT_SUCCESS || !objs[0])
        return;
    launch_cache_forget_all(); /* before the records go */
    records_list_destroyed(objs[0]->records);
    intercept_retire(call, objs[0]);
}

ZEIL_POST(zeCommandListClose)
{
    if (result == ZE_RESULT_SUCCESS && objs[0] && !objs[0]->is_immediate) {
        atomic_store(&objs[0]->closed_call, call->number);
        atomic_store(&objs[0]->is_closed, 1);
    }
}

ZEIL_POST(zeCommandListReset)
{
    if (result != ZE_RESULT_SUCCESS || !objs[0])
        return;
    atomic_store(&objs[0]->is_closed, 0);
    if (hazards_active())
        hazards_list_reset(objs[0]);
}
