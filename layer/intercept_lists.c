/* Hooks of command lists: creation, destruction, close, reset, and the
 * queries of API 1.9+ answered from the registry when zeil knows the list,
 * so that they agree with what zeil.h says. */
#include "intercepts.h"

#include "checks.h"
#include "hazards/hazards.h"
#include "launch_cache.h"
#include "names.h"
#include "records.h"
#include "timing.h"
#include "zeil_hooks.h"

ZEIL_PRE(zeCommandListCreate)
{
    return check_device_in_context(call, objs[0], a->hDevice);
}

ZEIL_MAKE(zeCommandListCreate)
{
    o->ordinal = a->desc ? a->desc->commandQueueGroupOrdinal : 0;
    o->is_in_order = a->desc && (a->desc->flags & ZE_COMMAND_LIST_FLAG_IN_ORDER);
}

ZEIL_POST(zeCommandListCreate)
{
    if (st->made)
        records_list_created(call, st->made), names_list_created(next, st->made, 0);
}

ZEIL_PRE(zeCommandListCreateImmediate)
{
    return check_device_in_context(call, objs[0], a->hDevice);
}

ZEIL_MAKE(zeCommandListCreateImmediate)
{
    o->is_immediate = 1;
    o->ordinal = a->altdesc ? a->altdesc->ordinal : 0;
    o->is_in_order = a->altdesc && (a->altdesc->flags & ZE_COMMAND_QUEUE_FLAG_IN_ORDER);
}

ZEIL_POST(zeCommandListCreateImmediate)
{
    if (st->made)
        records_list_created(call, st->made),
            names_list_created(next, st->made, a->altdesc ? a->altdesc->index : 0);
    if (result == ZE_RESULT_SUCCESS && a->phCommandList && a->altdesc && hazards_active())
        hazards_list_mode(*a->phCommandList, a->altdesc->mode);
}

ZEIL_PRE(zeCommandListDestroy)
{
    if (objs[0])
        timing_list_destroyed(objs[0]);
    return ZE_RESULT_SUCCESS;
}

ZEIL_POST(zeCommandListDestroy)
{
    if (result != ZE_RESULT_SUCCESS || !objs[0])
        return;
    launch_cache_forget_all(); /* before the records go */
    records_list_destroyed(objs[0]->records);
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

/* The answer zeil knows: written, and the driver not asked. */
#define ANSWER(out, value)                                                                  \
    do {                                                                                   \
        if (objs[0] && (out))                                                              \
            *(out) = (value), st->answered = 1;                                            \
        return ZE_RESULT_SUCCESS;                                                          \
    } while (0)

ZEIL_PRE(zeCommandListIsImmediate) { ANSWER(a->pIsImmediate, objs[0]->is_immediate ? 1 : 0); }
ZEIL_PRE(zeCommandListGetDeviceHandle) { ANSWER(a->phDevice, objs[0]->device); }
ZEIL_PRE(zeCommandListGetContextHandle) { ANSWER(a->phContext, objs[0]->context); }
ZEIL_PRE(zeCommandListGetOrdinal) { ANSWER(a->pOrdinal, objs[0]->ordinal); }
