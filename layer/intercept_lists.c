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

static ze_result_t check_list_creation(const zeil_call_t *call, ze_context_handle_t hContext,
                                       ze_device_handle_t hDevice, zeil_obj_t **context)
{
    zeil_obj_t *device;
    ze_result_t r = check_handle(call, "hContext", hContext, ZEIL_KIND_CONTEXT, context);
    CHECK_KEEP_FIRST(r, check_handle(call, "hDevice", hDevice, ZEIL_KIND_DEVICE, &device));
    CHECK_KEEP_FIRST(r, check_device_in_context(call, *context, hDevice));
    return r;
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListCreate(const zeil_next_t *next,
                                                     ze_context_handle_t hContext,
                                                     ze_device_handle_t hDevice,
                                                     const ze_command_list_desc_t *desc,
                                                     ze_command_list_handle_t *phCommandList)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListCreate");
    zeil_obj_t *context;
    ze_result_t r = check_list_creation(&call, hContext, hDevice, &context);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_list_dditable_t, pfnCreate)(hContext, hDevice, desc, phCommandList);
    if (r == ZE_RESULT_SUCCESS && phCommandList && desc)
        register_list(&call, next, context, hContext, hDevice, *phCommandList, 0,
                      desc->commandQueueGroupOrdinal, 0,
                      !!(desc->flags & ZE_COMMAND_LIST_FLAG_IN_ORDER));
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeCommandListCreate, ZEIL_ARGS_zeCommandListCreate);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListCreateImmediate(
    const zeil_next_t *next, ze_context_handle_t hContext, ze_device_handle_t hDevice,
    const ze_command_queue_desc_t *altdesc, ze_command_list_handle_t *phCommandList)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListCreateImmediate");
    zeil_obj_t *context;
    ze_result_t r = check_list_creation(&call, hContext, hDevice, &context);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_list_dditable_t, pfnCreateImmediate)(hContext, hDevice, altdesc,
                                                                 phCommandList);
    if (r == ZE_RESULT_SUCCESS && phCommandList && altdesc)
        register_list(&call, next, context, hContext, hDevice, *phCommandList, 1,
                      altdesc->ordinal, altdesc->index, !!(altdesc->flags & ZE_COMMAND_QUEUE_FLAG_IN_ORDER));
    if (r == ZE_RESULT_SUCCESS && phCommandList && altdesc && hazards_active())
        hazards_list_mode(*phCommandList, altdesc->mode);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeCommandListCreateImmediate, ZEIL_ARGS_zeCommandListCreateImmediate);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListDestroy(const zeil_next_t *next,
                                                      ze_command_list_handle_t hCommandList)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListDestroy");
    zeil_obj_t *list;
    ze_result_t r = check_handle(&call, "hCommandList", hCommandList, ZEIL_KIND_COMMAND_LIST,
                                 &list);
    if (r == ZE_RESULT_SUCCESS && list)
        timing_list_destroyed(list);
    if (r == ZE_RESULT_SUCCESS) {
        intercept_destroying(&call, list);
        r = NEXT(ze_command_list_dditable_t, pfnDestroy)(hCommandList);
    }
    if (r == ZE_RESULT_SUCCESS && list) {
        launch_cache_forget_all(); /* before the records go */
        records_list_destroyed(list->records);
        intercept_retire(&call, list);
    }
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeCommandListDestroy, ZEIL_ARGS_zeCommandListDestroy);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListClose(const zeil_next_t *next,
                                                    ze_command_list_handle_t hCommandList)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListClose");
    zeil_obj_t *list;
    ze_result_t r = check_handle(&call, "hCommandList", hCommandList, ZEIL_KIND_COMMAND_LIST,
                                 &list);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_list_dditable_t, pfnClose)(hCommandList);
    if (r == ZE_RESULT_SUCCESS && list && !list->is_immediate) {
        atomic_store(&list->closed_call, call.number);
        atomic_store(&list->is_closed, 1);
    }
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeCommandListClose, ZEIL_ARGS_zeCommandListClose);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListReset(const zeil_next_t *next,
                                                    ze_command_list_handle_t hCommandList)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListReset");
    zeil_obj_t *list;
    ze_result_t r = check_handle(&call, "hCommandList", hCommandList, ZEIL_KIND_COMMAND_LIST,
                                 &list);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_list_dditable_t, pfnReset)(hCommandList);
    if (r == ZE_RESULT_SUCCESS && list)
        atomic_store(&list->is_closed, 0);
    if (r == ZE_RESULT_SUCCESS && list && hazards_active())
        hazards_list_reset(list);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeCommandListReset, ZEIL_ARGS_zeCommandListReset);
}
