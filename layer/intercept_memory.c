/* Hooks of USM allocation and free. */
#include "intercepts.h"

#include "checks.h"
#include "hazards/hazards.h"
#include "out_of_memory.h"
#include "zeil_hooks.h"

#include <stdio.h>

ZEIL_HOOKS_OF(zeMemFreeExt, zeMemFree);

static void register_alloc(const zeil_call_t *call, void *const *pptr, size_t size,
                           ze_memory_type_t type, ze_context_handle_t context,
                           ze_device_handle_t device)
{
    if (!pptr || !*pptr ||
        registry_add_alloc(&(zeil_alloc_t){.base = *pptr, .size = size, .type = type,
                                           .context = context, .device = device,
                                           .created_by = call->name,
                                           .created_call = call->number,
                                           .created_thread = calls_thread_number()}) == 0)
        return;
    char doing[96];
    snprintf(doing, sizeof doing, "registering USM allocation %p (%zu bytes)", *pptr, size);
    oom_dropped(OOM_ALLOCATION, 1, call->name, doing);
}

ZEIL_PRE(zeMemAllocDevice)
{
    return check_device_in_context(call, objs[0], a->hDevice);
}

ZEIL_POST(zeMemAllocDevice)
{
    if (result == ZE_RESULT_SUCCESS)
        register_alloc(call, a->pptr, a->size, ZE_MEMORY_TYPE_DEVICE, a->hContext, a->hDevice);
}

ZEIL_POST(zeMemAllocHost)
{
    if (result == ZE_RESULT_SUCCESS)
        register_alloc(call, a->pptr, a->size, ZE_MEMORY_TYPE_HOST, a->hContext, NULL);
}

ZEIL_PRE(zeMemAllocShared)
{
    return check_device_in_context(call, objs[0], a->hDevice);
}

ZEIL_POST(zeMemAllocShared)
{
    if (result == ZE_RESULT_SUCCESS)
        register_alloc(call, a->pptr, a->size, ZE_MEMORY_TYPE_SHARED, a->hContext, a->hDevice);
}

/* A free marks its allocation before the driver frees it and buries that
 * same allocation afterwards: by the time the driver returns, another thread
 * may have the address again, for a new allocation that must stay live. */
ZEIL_PRE(zeMemFree)
{
    ze_result_t r = check_usm_free(call, a->hContext, a->ptr);
    if (r == ZE_RESULT_SUCCESS && hazards_active())
        r = hazards_free_before(call, a->ptr);
    st->marked = r == ZE_RESULT_SUCCESS && a->ptr &&
                 registry_begin_free(a->ptr, call->number, calls_thread_number(), &st->freeing);
    return r;
}

ZEIL_POST(zeMemFree)
{
    if (st->marked && registry_end_free(&st->freeing, result == ZE_RESULT_SUCCESS) == 2)
        oom_dropped(OOM_OTHER, 1, call->name, "keeping the history of a freed USM allocation");
}
