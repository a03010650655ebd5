/*
 * Handles zeil never saw created, of a kind that some creator zeil does not
 * intercept at the API version in use (zeCommandListCreateCloneExp,
 * zeDriverGetDefaultContext, zeEventCounterBasedOpenIpcHandle, ...): such a
 * handle may well be valid, so zeil registers it when it first meets it
 * (ZEIL-W080 under ZEIL_LOG=info) instead of refusing the call (E001).
 * From then on every check applies to it. What the driver's queries say
 * fills in what creation would have told: a command list's context,
 * device, kind and ordinal (API 1.9+), its queue flags (1.17+).
 */
#include "checks.h"
#include "coverage.h"
#include "diag.h"
#include "intercepts.h"
#include "records.h"

static void describe_list(const zeil_next_t *next, ze_command_list_handle_t list,
                          zeil_obj_t *proto)
{
    ze_bool_t immediate = 0;
    ze_command_queue_flags_t flags = 0;
    if (NEXT(ze_command_list_dditable_t, pfnGetContextHandle))
        (void)NEXT(ze_command_list_dditable_t, pfnGetContextHandle)(list, &proto->context);
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

zeil_obj_t *first_sight_register(const zeil_call_t *call, const char *arg, const void *handle,
                                 zeil_kind_t kind)
{
    const zeil_next_t *next = coverage_only_next();
    zeil_obj_t proto = {.handle = handle, .kind = kind};
    if (kind == ZEIL_KIND_COMMAND_LIST && next)
        describe_list(next, (ze_command_list_handle_t)handle, &proto);
    zeil_obj_t *obj = intercept_register(call, next, &proto);
    if (obj && kind == ZEIL_KIND_COMMAND_LIST)
        records_list_created(call, obj);
    diag_report(ZEIL_RULE_W080, call->name,
                "%s %p was created where zeil could not see it (an entry zeil passes through at "
                "the loader's API version, an extension function, or before zeil was loaded); "
                "zeil registers it now as %s",
                arg, handle, check_kind_article(kind));
    return obj;
}
