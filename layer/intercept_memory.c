/* Intercepts of USM allocation and free. */
#include "intercepts.h"

#include "checks.h"
#include "zeil_hooks.h"
#include "hazards/hazards.h"
#include "out_of_memory.h"

#include <stdio.h>

static void register_alloc(const zeil_call_t *call, void *base, size_t size,
                           ze_memory_type_t type, ze_context_handle_t context,
                           ze_device_handle_t device)
{
    if (registry_add_alloc(&(zeil_alloc_t){.base = base, .size = size, .type = type,
                                           .context = context, .device = device,
                                           .created_by = call->name,
                                           .created_call = call->number,
                                           .created_thread = calls_thread_number()}) == 0)
        return;
    char doing[96];
    snprintf(doing, sizeof doing, "registering USM allocation %p (%zu bytes)", base, size);
    oom_dropped(OOM_ALLOCATION, 1, call->name, doing);
}

/* A free marks its allocation before the driver frees it and buries that
 * same allocation afterwards: by the time the driver returns, another thread
 * may have the address again, for a new allocation that must stay live. */
static int begin_free(const zeil_call_t *call, void *ptr, registry_free_t *freeing)
{
    return ptr && registry_begin_free(ptr, call->number, calls_thread_number(), freeing);
}

static void end_free(const zeil_call_t *call, const registry_free_t *freeing, ze_result_t r)
{
    if (registry_end_free(freeing, r == ZE_RESULT_SUCCESS) == 2)
        oom_dropped(OOM_OTHER, 1, call->name, "keeping the history of a freed USM allocation");
}

ZEIL_PRE(zeMemAllocDevice)
{
    return check_device_in_context(call, objs[0], a->hDevice);
}

ZEIL_POST(zeMemAllocDevice)
{
    if (result == ZE_RESULT_SUCCESS && a->pptr && *a->pptr)
        register_alloc(call, *a->pptr, a->size, ZE_MEMORY_TYPE_DEVICE, a->hContext, a->hDevice);
}

ZEIL_POST(zeMemAllocHost)
{
    if (result == ZE_RESULT_SUCCESS && a->pptr && *a->pptr)
        register_alloc(call, *a->pptr, a->size, ZE_MEMORY_TYPE_HOST, a->hContext, NULL);
}

ZEIL_PRE(zeMemAllocShared)
{
    return check_device_in_context(call, objs[0], a->hDevice);
}

ZEIL_POST(zeMemAllocShared)
{
    if (result == ZE_RESULT_SUCCESS && a->pptr && *a->pptr)
        register_alloc(call, *a->pptr, a->size, ZE_MEMORY_TYPE_SHARED, a->hContext, a->hDevice);
}

ze_result_t ZE_APICALL zeil_icpt_zeMemFree(const zeil_next_t *next, ze_context_handle_t hContext,
                                           void *ptr)
{
    zeil_call_t call;
    calls_begin(&call, "zeMemFree");
    zeil_obj_t *context;
    ze_result_t r = check_handle(&call, "hContext", hContext, ZEIL_KIND_CONTEXT, &context);
    CHECK_KEEP_FIRST(r, check_usm_free(&call, hContext, ptr));
    if (r == ZE_RESULT_SUCCESS && hazards_active())
        r = hazards_free_before(&call, ptr);
    registry_free_t freeing;
    int marked = r == ZE_RESULT_SUCCESS && begin_free(&call, ptr, &freeing);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_mem_dditable_t, pfnFree)(hContext, ptr);
    if (marked)
        end_free(&call, &freeing, r);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeMemFree, ZEIL_ARGS_zeMemFree);
}

ze_result_t ZE_APICALL zeil_icpt_zeMemFreeExt(const zeil_next_t *next,
                                              ze_context_handle_t hContext,
                                              const ze_memory_free_ext_desc_t *pMemFreeDesc,
                                              void *ptr)
{
    zeil_call_t call;
    calls_begin(&call, "zeMemFreeExt");
    zeil_obj_t *context;
    ze_result_t r = check_handle(&call, "hContext", hContext, ZEIL_KIND_CONTEXT, &context);
    CHECK_KEEP_FIRST(r, check_usm_free(&call, hContext, ptr));
    if (r == ZE_RESULT_SUCCESS && hazards_active())
        r = hazards_free_before(&call, ptr);
    registry_free_t freeing;
    int marked = r == ZE_RESULT_SUCCESS && begin_free(&call, ptr, &freeing);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_mem_dditable_t, pfnFreeExt)(hContext, pMemFreeDesc, ptr);
    if (marked)
        end_free(&call, &freeing, r);
    return CALLS_END(&call, r, ZEIL_ARGS_FMT_zeMemFreeExt, ZEIL_ARGS_zeMemFreeExt);
}
