/*
 * The command list queries of API 1.9+ (zeCommandListIsImmediate, ...),
 * answered from the registry when zeil knows the list, so they agree with
 * what zeil.h says. Declared by compat/ze_compat.h where the installed
 * headers are older; the shim installs them only for loaders that ask for
 * a version that has them.
 */
#include "intercepts.h"

#include "checks.h"
#include "zeil_hooks.h"


/* The live list zeil knows, or null (then the driver answers). */
static zeil_obj_t *known_list(const zeil_call_t *call, ze_command_list_handle_t list,
                              ze_result_t *r)
{
    zeil_obj_t *obj;
    *r = check_handle(call, "hCommandList", list, ZEIL_KIND_COMMAND_LIST, &obj);
    return obj;
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListIsImmediate(const zeil_next_t *next,
                                                          ze_command_list_handle_t hCommandList,
                                                          ze_bool_t *pIsImmediate)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListIsImmediate");
    ze_result_t r;
    zeil_obj_t *list = known_list(&call, hCommandList, &r);
    if (r == ZE_RESULT_SUCCESS && list && pIsImmediate)
        *pIsImmediate = list->is_immediate ? 1 : 0;
    else if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_list_dditable_t, pfnIsImmediate)(hCommandList, pIsImmediate);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeCommandListIsImmediate, ZEIL_ARGS_zeCommandListIsImmediate);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListGetDeviceHandle(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList, ze_device_handle_t *phDevice)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListGetDeviceHandle");
    ze_result_t r;
    zeil_obj_t *list = known_list(&call, hCommandList, &r);
    if (r == ZE_RESULT_SUCCESS && list && phDevice)
        *phDevice = list->device;
    else if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_list_dditable_t, pfnGetDeviceHandle)(hCommandList, phDevice);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeCommandListGetDeviceHandle, ZEIL_ARGS_zeCommandListGetDeviceHandle);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListGetContextHandle(
    const zeil_next_t *next, ze_command_list_handle_t hCommandList,
    ze_context_handle_t *phContext)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListGetContextHandle");
    ze_result_t r;
    zeil_obj_t *list = known_list(&call, hCommandList, &r);
    if (r == ZE_RESULT_SUCCESS && list && phContext)
        *phContext = list->context;
    else if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_list_dditable_t, pfnGetContextHandle)(hCommandList, phContext);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeCommandListGetContextHandle, ZEIL_ARGS_zeCommandListGetContextHandle);
}

ze_result_t ZE_APICALL zeil_icpt_zeCommandListGetOrdinal(const zeil_next_t *next,
                                                         ze_command_list_handle_t hCommandList,
                                                         uint32_t *pOrdinal)
{
    zeil_call_t call;
    calls_begin(&call, "zeCommandListGetOrdinal");
    ze_result_t r;
    zeil_obj_t *list = known_list(&call, hCommandList, &r);
    if (r == ZE_RESULT_SUCCESS && list && pOrdinal)
        *pOrdinal = list->ordinal;
    else if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_command_list_dditable_t, pfnGetOrdinal)(hCommandList, pOrdinal);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeCommandListGetOrdinal, ZEIL_ARGS_zeCommandListGetOrdinal);
}
