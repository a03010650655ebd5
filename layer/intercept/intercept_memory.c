/* Hooks of USM allocation and free. */
#include "usm/usm_hot_paths.h" /* the registry's usual cases, inline */
#include "zeil_hooks.h"

ZEIL_HOOKS_OF(zeMemFreeExt, zeMemFree);

/* Allocations and frees take their number (when the calls log has not
 * already) with the USM index's lock, in one read-modify-write
 * (call_counter.h): the registry sets call->number. */
ZEIL_UNNUMBERED(zeMemAllocDevice);
ZEIL_UNNUMBERED(zeMemAllocHost);
ZEIL_UNNUMBERED(zeMemAllocShared);
ZEIL_UNNUMBERED(zeMemFree);

/* What an allocation registers: its range, type, context and device. */
#define ALLOCATES(api, mem_type, on_device) \
    ZEIL_POST(api) \
    { \
        if (a->pptr && *a->pptr && \
            usm_add_alloc(*a->pptr, a->size, mem_type, a->hContext, on_device, call->name, \
                          &call->number, calls_thread_number_of(call)) != 0) \
            oom_dropped_allocation(call->name, *a->pptr, a->size); \
    }
ZEIL_PRE(zeMemAllocDevice)
{
    return check_device_of_context(call, objs[0], a->hDevice, objs[1]);
}
ALLOCATES(zeMemAllocDevice, ZE_MEMORY_TYPE_DEVICE, a->hDevice)
ALLOCATES(zeMemAllocHost, ZE_MEMORY_TYPE_HOST, NULL)
ZEIL_PRE(zeMemAllocShared)
{
    return check_device_of_context(call, objs[0], a->hDevice, objs[1]);
}
ALLOCATES(zeMemAllocShared, ZE_MEMORY_TYPE_SHARED, a->hDevice)

/* A free marks its allocation before the driver frees it and buries that
 * same allocation afterwards: by the time the driver returns, another thread
 * may have the address again, for a new allocation that must stay live. A
 * live base in its own context needs no other check; anything else unmarks
 * (as a refused free does) and goes to check_usm_free. */
ZEIL_PRE(zeMemFree)
{
    st->marked =
        a->ptr && usm_begin_free(a->ptr, call->number, calls_thread_number_of(call), st->freeing);
    int usual = st->marked && (!a->hContext || st->freeing->context == a->hContext);
    ze_result_t r = usual ? ZE_RESULT_SUCCESS : check_usm_free(call, a->hContext, a->ptr);
    if (r == ZE_RESULT_SUCCESS && hazards_active())
        r = hazards_free_before(call, a->ptr);
    if (st->marked && (r != ZE_RESULT_SUCCESS || !usual)) {
        st->marked = 0;
        usm_end_free(st->freeing, 0);
    }
    return r;
}
ZEIL_AFTER(zeMemFree)
{
    if (!st->marked)
        return;
    int kept = usm_end_free(st->freeing, result == ZE_RESULT_SUCCESS);
    call->number = st->freeing->call;
    if (kept == 2)
        oom_dropped(OOM_OTHER, 1, call->name, "keeping the history of a freed USM allocation");
}
