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
 * The usual free, a live base in its own context that no hazard history
 * may name, needs no other check: looked up and buried at once
 * (usm_free_usual). Anything else goes free_checked's way. If the driver
 * refuses the free, the allocation is live again. */
static __attribute__((noinline)) ze_result_t free_checked(zeil_call_t *call,
                                                          ze_context_handle_t context,
                                                          const void *ptr,
                                                          registry_free_t *freeing);
static __attribute__((noinline)) void free_refused(const zeil_call_t *call, const zeil_next_t *next,
                                                   const registry_free_t *freeing);
ZEIL_PRE(zeMemFree)
{
    if (a->ptr && hazards_free_unseen(a->ptr) &&
        usm_free_usual(a->ptr, a->hContext, &call->number, calls_thread_number_of(call),
                       st->freeing)) {
        st->buried = 1;
        return ZE_RESULT_SUCCESS;
    }
    ze_result_t r = free_checked(call, a->hContext, a->ptr, st->freeing);
    st->buried = r == ZE_RESULT_SUCCESS && st->freeing->base;
    return r;
}
ZEIL_AFTER(zeMemFree)
{
    if (st->buried && result != ZE_RESULT_SUCCESS)
        free_refused(call, next, st->freeing);
}

/* The driver refused a free zeil buried: the allocation is live again,
 * unless the driver no longer knows it (another thread's free of the same
 * pointer, the program's double free that found the address still USM and
 * went on with W016, freed it in between). A driver that cannot say gets
 * it live again. */
static void free_refused(const zeil_call_t *call, const zeil_next_t *next,
                         const registry_free_t *freeing)
{
    const void *ptr = (const void *)freeing->base;
    if (NEXT(ze_mem_dditable_t, pfnGetAllocProperties) &&
        !driver_says_usm(next, freeing->context, ptr))
        return;
    if (registry_unfree(freeing) != 0)
        oom_dropped_allocation(call->name, ptr, freeing->span);
}

/* The free's lookup, its checks (a live base in its own context needs
 * none but the hazards'; anything else check_usm_free's), then its burial;
 * a burial that finds the allocation gone (another thread's free of the
 * same pointer buried it first: the program's double free) goes to
 * check_usm_free_raced (E012). freeing->base: the buried allocation's, or 0 when
 * none was buried. */
static ze_result_t free_checked(zeil_call_t *call, ze_context_handle_t context, const void *ptr,
                                registry_free_t *freeing)
{
    int usual = ptr &&
                registry_begin_free(ptr, call->number, calls_thread_number_of(call), freeing) &&
                (!context || freeing->context == context);
    ze_result_t r = usual ? ZE_RESULT_SUCCESS : check_usm_free(call, context, ptr);
    if (r == ZE_RESULT_SUCCESS && hazards_active())
        r = hazards_free_before(call, ptr);
    int kept = 0;
    if (r == ZE_RESULT_SUCCESS && usual) {
        freeing->call = call->number; /* a finding may have numbered it */
        kept = registry_end_free(freeing);
        call->number = freeing->call;
        if (!kept)
            r = check_usm_free_raced(call, context, ptr);
        else if (kept == 2)
            oom_dropped(OOM_OTHER, 1, call->name, "keeping the history of a freed USM allocation");
    }
    if (!kept)
        freeing->base = 0;
    return r;
}
