/*
 * Pointers inside freed USM ranges. A freed range is no proof of misuse: the
 * address may belong to something the driver accepts now, for example a
 * host allocation of the C heap (a driver whose USM comes from the heap, or
 * host memory mapped where a freed host allocation was) on a device that
 * accepts system memory, or USM zeil did not see allocated. zeil never
 * refuses a pointer the driver accepts at the time of the call; it only says
 * where the pointer lies (W016). The "freed" findings (E012, E015, W040) are
 * kept for pointers nothing else can own: not USM by the driver's own
 * answer, and either a free (only USM can be freed) or a device that cannot
 * use system memory, or an address no host mapping covers.
 *
 * Copies and fills are different on the host side: the specification asks
 * that their memory be accessible by the device, yet drivers take plain host
 * memory there whatever the device's system-memory support (Intel's
 * compute-runtime imports an unknown host pointer of a copy or fill as a
 * host-pointer allocation, or stages it). So where host USM was, mapped host
 * memory in a copy or fill is W016 on any device; a freed device or shared
 * range still mapped is the driver's own memory, and stays E015.
 * Only called once a lookup landed in a freed range: never on a fast path.
 */
#include "checks.h"

#include "diag.h"
#include "intercepts.h"
#include "host_readable.h"

int driver_says_usm(const zeil_next_t *next, ze_context_handle_t context, const void *ptr)
{
    if (!next || !context || !NEXT(ze_mem_dditable_t, pfnGetAllocProperties))
        return 0;
    ze_memory_allocation_properties_t props = {.stype =
                                                   ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    ze_device_handle_t owner = NULL;
    return NEXT(ze_mem_dditable_t, pfnGetAllocProperties)(context, ptr, &props, &owner) ==
               ZE_RESULT_SUCCESS &&
           props.type != ZE_MEMORY_TYPE_UNKNOWN;
}

/* sharedSystemAllocCapabilities != 0: the device reads plain host memory. */
static int device_uses_system_memory(const zeil_next_t *next, ze_device_handle_t device)
{
    if (!next || !device || !NEXT(ze_device_dditable_t, pfnGetMemoryAccessProperties))
        return 0;
    ze_device_memory_access_properties_t props = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES};
    return NEXT(ze_device_dditable_t, pfnGetMemoryAccessProperties)(device, &props) ==
               ZE_RESULT_SUCCESS &&
           props.sharedSystemAllocCapabilities != 0;
}

freed_range_verdict_t check_freed_range(const zeil_obj_t *owner, ze_device_handle_t device,
                                        const void *ptr, const zeil_alloc_t *freed,
                                        freed_range_use_t use)
{
    const zeil_next_t *next = owner ? owner->next : NULL;
    ze_context_handle_t context = owner ? owner->context : NULL;
    if (owner && owner->kind == ZEIL_KIND_CONTEXT)
        context = (ze_context_handle_t)owner->handle;
    if (driver_says_usm(next, context, ptr))
        return FREED_RANGE_REUSED_BY_USM;
    if (use == FREED_RANGE_FREE)
        return FREED_RANGE_DANGLING;
    if (!host_readable(ptr))
        return FREED_RANGE_DANGLING;
    if (device_uses_system_memory(next, device))
        return FREED_RANGE_SYSTEM_MEMORY;
    if (use == FREED_RANGE_TRANSFER && freed->type == ZE_MEMORY_TYPE_HOST)
        return FREED_RANGE_HOST_MEMORY;
    return FREED_RANGE_DANGLING;
}

void check_freed_range_reused(const zeil_call_t *call, const char *arg, const void *ptr,
                              const zeil_alloc_t *freed, freed_range_verdict_t verdict)
{
    diag_report(ZEIL_RULE_W016, call->name,
                "%s %p lies where freed allocation %p was (%zu bytes, allocated by %s at call "
                "#%llu, freed at call #%llu); %s, so the call proceeds",
                arg, ptr, freed->base, freed->size, freed->created_by,
                (unsigned long long)freed->created_call, (unsigned long long)freed->freed_call,
                verdict == FREED_RANGE_REUSED_BY_USM ? "the driver knows it as USM now"
                : verdict == FREED_RANGE_HOST_MEMORY
                    ? "the address is mapped host memory, which drivers take in copies and fills"
                    : "the device accepts system memory and the address is mapped host memory");
}
