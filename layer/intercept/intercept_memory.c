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

/* A free buries its allocation once its checks passed, before the driver
 * frees it: the driver may give the address to another thread's new
 * allocation as soon as it freed it, and zeil must not think it live then.
 * A live base in its own context needs no other check; anything else goes
 * to check_usm_free, and so does a free whose allocation another thread's
 * free of the same pointer buried first (the program's double free). If
 * the driver refuses the free, the allocation is live again. */
ZEIL_PRE(zeMemFree)
{
    int usual = a->ptr &&
                usm_begin_free(a->ptr, call->number, calls_thread_number_of(call), st->freeing) &&
                (!a->hContext || st->freeing->context == a->hContext);
    ze_result_t r = usual ? ZE_RESULT_SUCCESS : check_usm_free(call, a->hContext, a->ptr);
    if (r == ZE_RESULT_SUCCESS && hazards_active()) {
        r = hazards_free_before(call, a->ptr);
        st->freeing->call = call->number; /* a finding may have numbered it */
    }
    if (r != ZE_RESULT_SUCCESS || !usual)
        return r;
    int kept = usm_end_free(st->freeing);
    call->number = st->freeing->call;
    if (!kept)
        return check_usm_free(call, a->hContext, a->ptr);
    st->buried = 1;
    if (kept == 2)
        oom_dropped(OOM_OTHER, 1, call->name, "keeping the history of a freed USM allocation");
    return ZE_RESULT_SUCCESS;
}
ZEIL_AFTER(zeMemFree)
{
    if (st->buried && result != ZE_RESULT_SUCCESS && registry_unfree(st->freeing) != 0)
        oom_dropped_allocation(call->name, a->ptr, st->freeing->span);
}
