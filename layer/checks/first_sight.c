/*
 * Handles zeil never saw created, of a kind that some creator zeil does not
 * intercept at the API version in use (zeCommandListCreateCloneExp,
 * zeDriverGetDefaultContext, zeEventCounterBasedOpenIpcHandle, ...): such a
 * handle may well be valid, so zeil registers it when it first meets it
 * (ZEIL-W080 under ZEIL_LOG=info) instead of refusing the call (E001).
 * From then on every check applies to it. What the driver's queries say
 * fills in what creation would have told: a command list's context,
 * device, kind and ordinal (API 1.9+), its queue flags (1.17+), an event's
 * pool (1.9+).
 *
 * The same queries tell a handle from garbage: when the driver answers a
 * query on it with an error, it is no handle of that kind and E001 stands,
 * as under older loaders. Where no query can tell, zeil takes it as valid.
 */
#include "checks.h"
#include "intercepted_kinds.h"
#include "diag.h"
#include "intercepts.h"
#include "zeil_hooks.h"
#include "records.h"

#include <zeil/zeil.h>

static void describe_list(const zeil_next_t *next, ze_command_list_handle_t list, zeil_obj_t *proto)
{
    ze_bool_t immediate = 0;
    ze_command_queue_flags_t flags = 0;
    if (NEXT(ze_command_list_dditable_t, pfnGetDeviceHandle))
        (void)NEXT(ze_command_list_dditable_t, pfnGetDeviceHandle)(list, &proto->device);
    if (NEXT(ze_command_list_dditable_t, pfnGetOrdinal))
        (void)NEXT(ze_command_list_dditable_t, pfnGetOrdinal)(list, &proto->ordinal);
    if (NEXT(ze_command_list_dditable_t, pfnIsImmediate) &&
        NEXT(ze_command_list_dditable_t, pfnIsImmediate)(list, &immediate) == ZE_RESULT_SUCCESS)
        proto->is_immediate = immediate != 0;
    if (proto->is_immediate && NEXT(ze_command_list_dditable_t, pfnImmediateGetFlags) &&
        NEXT(ze_command_list_dditable_t, pfnImmediateGetFlags)(list, &flags) == ZE_RESULT_SUCCESS)
        proto->is_in_order = (flags & ZE_BIT(1)) != 0; /* ZE_COMMAND_QUEUE_FLAG_IN_ORDER */
}

/* The driver's word on whether handle is of that kind: 1 yes, 0 no, -1 it
 * has no query that tells (then zeil gives it the benefit of the doubt). */
static int probe(const zeil_next_t *next, const void *handle, zeil_kind_t kind, zeil_obj_t *proto)
{
    if (!next)
        return -1;
    if (kind == ZEIL_KIND_COMMAND_LIST && NEXT(ze_command_list_dditable_t, pfnGetContextHandle)) {
        ze_command_list_handle_t list = (ze_command_list_handle_t)handle;
        if (NEXT(ze_command_list_dditable_t, pfnGetContextHandle)(list, &proto->context) !=
            ZE_RESULT_SUCCESS)
            return 0;
        describe_list(next, list, proto);
        return 1;
    }
    if (kind == ZEIL_KIND_EVENT && NEXT(ze_event_dditable_t, pfnGetEventPool)) {
        ze_event_pool_handle_t pool = NULL;
        if (NEXT(ze_event_dditable_t, pfnGetEventPool)((ze_event_handle_t)handle, &pool) !=
            ZE_RESULT_SUCCESS)
            return 0;
        proto->parent = pool;
        zeil_obj_t *p = pool ? registry_find(pool) : NULL;
        if (p && p->kind == ZEIL_KIND_EVENT_POOL) {
            proto->context = p->context;
            proto->device = p->device;
            proto->pool_flags = p->pool_flags;
        }
        return 1;
    }
    if (kind == ZEIL_KIND_CONTEXT && NEXT(ze_context_dditable_t, pfnGetStatus)) {
        ze_result_t r = NEXT(ze_context_dditable_t, pfnGetStatus)((ze_context_handle_t)handle);
        return r == ZE_RESULT_SUCCESS || r == ZE_RESULT_ERROR_DEVICE_LOST;
    }
    return -1;
}

int first_sight_register(const zeil_call_t *call, const char *arg, const void *handle,
                         zeil_kind_t kind, zeil_obj_t **out)
{
    const zeil_next_t *next = intercepted_kinds_only_next();
    zeil_obj_t proto = {.handle = handle, .kind = kind};
    *out = NULL;
    if (probe(next, handle, kind, &proto) == 0)
        return 0;
    /* Another thread may have met it first. */
    zeil_obj_t *known = registry_find(handle);
    if (known && known->kind == kind && atomic_load(&known->alive)) {
        *out = known;
        return 1;
    }
    zeil_obj_t *obj = registry_register_made(call, next, &proto);
    if (obj && kind == ZEIL_KIND_COMMAND_LIST)
        records_list_created(call, obj);
    if (zeil_settings()->log_level >= ZEIL_LOG_INFO) /* said, not counted as a finding */
        diag_report(ZEIL_RULE_W080, call->name,
                    "%s %p was created where zeil could not see it (an entry zeil passes through "
                    "at the loader's API version, an extension function, or before zeil was "
                    "loaded); zeil registers it now as %s",
                    arg, handle, registry_kind_article(kind));
    *out = obj;
    return 1;
}
