/* Handle checks behind the interop rules (see checks.h). */
#include "checks.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>
#include <level_zero/loader/ze_loader.h>
#include <zeil/zeil.h>

#include "../layer/common/host_readable.h"
#include "handle_map.h"
#include "rules.h"

dnnl_status_t check_not_null(const char *call, const void *p, const char *what)
{
    if (p)
        return dnnl_success;
    interop_report(INTEROP_RULE_E101, call, "%s is null", what);
    return dnnl_invalid_arguments;
}

void *check_interop_handle(const char *call, handle_map_t *map, const void *handle,
                           const char *what, interop_rule_t unknown, const char *creator)
{
    if (check_not_null(call, handle, what))
        return NULL;
    void *record = handle_map_get(map, handle);
    if (!record)
        interop_report(unknown, call, "%s %p is not a Level Zero interop %s (not created by %s)",
                       what, handle, what, creator);
    return record;
}

int check_registry_available(const char *call)
{
    if (zeil_is_active())
        return 1;
    interop_report_once(INTEROP_RULE_W150, call,
                        "zeil is not active (ZE_ENABLE_LAYERS does not name zeil, or no "
                        "driver was wrapped): command lists, events and destroyed handles "
                        "cannot be checked, only what Level Zero queries tell");
    return 0;
}

const void *below_loader(zel_handle_type_t type, const void *handle)
{
    void *out = NULL;
    if (handle && zelLoaderTranslateHandle(type, (void *)handle, &out) == ZE_RESULT_SUCCESS && out)
        return out;
    return handle;
}

typedef enum lookup_outcome {
    FOUND_ALIVE,
    FOUND_DEAD,
    WRONG_KIND,
    UNKNOWN
} lookup_outcome_t;

static lookup_outcome_t registry_lookup(zel_handle_type_t type, const void *handle,
                                        zeil_kind_t kind, zeil_handle_info_t *info)
{
    /* A handle zeil never saw is adopted when newer entries may have made it
     * and the driver vouches for it (zeil_adopt_handle). */
    if (!zeil_adopt_handle(below_loader(type, handle), kind, info))
        return UNKNOWN;
    if (info->kind != kind)
        return WRONG_KIND;
    return info->alive ? FOUND_ALIVE : FOUND_DEAD;
}

/* What a lookup allows. UNVERIFIED: the registry does not know the handle
 * but is incomplete (zeil ran out of memory registering objects, ZEIL-W070),
 * so the handle may be valid: the call goes on, without the checks that need
 * the handle's record. */
typedef enum verdict {
    USABLE,
    REFUSED,
    UNVERIFIED
} verdict_t;

/* Reports why a handle cannot be used (REFUSED). */
static verdict_t judge(interop_rule_t rule, const char *call, const char *what, const void *handle,
                       lookup_outcome_t outcome, const zeil_handle_info_t *info)
{
    switch (outcome) {
    case FOUND_ALIVE:
        return USABLE;
    case UNKNOWN:
        if (zeil_registry_is_incomplete())
            return UNVERIFIED;
        interop_report(rule, call, "%s %p is unknown to the zeil registry", what, handle);
        return REFUSED;
    case WRONG_KIND:
        interop_report(rule, call, "%s %p is a %s handle", what, handle,
                       zeil_kind_name(info->kind));
        return REFUSED;
    case FOUND_DEAD:
        interop_report(rule, call,
                       "%s %p was destroyed (created at call #%llu, destroyed at call #%llu)", what,
                       handle, (unsigned long long)info->created_call,
                       (unsigned long long)info->destroyed_call);
        return REFUSED;
    }
    return REFUSED;
}

/* A parent zeil knows nothing of (null) while its registry is incomplete:
 * the parent may be one zeil failed to register, nothing to compare. */
static int parent_unverified(const void *parent)
{
    return !parent && zeil_registry_is_incomplete();
}

/* Without the registry: is device one of the driver's (or their
 * sub-devices)? 1 or 0, -1 when out of memory. */
static int driver_has_device(ze_driver_handle_t driver, ze_device_handle_t device)
{
    uint32_t count = 0;
    if (zeDeviceGet(driver, &count, NULL) != ZE_RESULT_SUCCESS || count == 0)
        return 0;
    ze_device_handle_t *devices = calloc(count, sizeof *devices);
    if (!devices)
        return -1;
    if (zeDeviceGet(driver, &count, devices) != ZE_RESULT_SUCCESS) {
        free(devices);
        return 0;
    }
    int found = 0;
    for (uint32_t i = 0; i < count && !found; i++) {
        found = devices[i] == device;
        uint32_t subs = 0;
        if (found || zeDeviceGetSubDevices(devices[i], &subs, NULL) != ZE_RESULT_SUCCESS ||
            subs == 0)
            continue;
        ze_device_handle_t *sub = calloc(subs, sizeof *sub);
        if (!sub) {
            found = -1;
            break;
        }
        if (zeDeviceGetSubDevices(devices[i], &subs, sub) == ZE_RESULT_SUCCESS)
            for (uint32_t j = 0; j < subs && !found; j++)
                found = sub[j] == device;
        free(sub);
    }
    free(devices);
    return found;
}

dnnl_status_t check_driver_device(const char *call, ze_driver_handle_t driver,
                                  ze_device_handle_t device)
{
    if (check_not_null(call, driver, "driver") || check_not_null(call, device, "device"))
        return dnnl_invalid_arguments;
    if (!check_registry_available(call)) {
        int has = driver_has_device(driver, device);
        if (has < 0)
            return dnnl_out_of_memory;
        if (has)
            return dnnl_success;
        interop_report(INTEROP_RULE_E102, call, "device %p is not a device of driver %p",
                       (void *)device, (void *)driver);
        return dnnl_invalid_arguments;
    }
    zeil_handle_info_t drv, dev;
    verdict_t driver_verdict =
        judge(INTEROP_RULE_E103, call, "driver", driver,
              registry_lookup(ZEL_HANDLE_DRIVER, driver, ZEIL_KIND_DRIVER, &drv), &drv);
    if (driver_verdict == REFUSED)
        return dnnl_invalid_arguments;
    verdict_t device_verdict =
        judge(INTEROP_RULE_E103, call, "device", device,
              registry_lookup(ZEL_HANDLE_DEVICE, device, ZEIL_KIND_DEVICE, &dev), &dev);
    if (device_verdict == REFUSED)
        return dnnl_invalid_arguments;
    if (device_verdict == UNVERIFIED || parent_unverified(dev.driver))
        return dnnl_success;
    if (dev.driver != below_loader(ZEL_HANDLE_DRIVER, driver)) {
        interop_report(INTEROP_RULE_E102, call, "device %p belongs to driver %p, not to driver %p",
                       (void *)device, (void *)dev.driver, (void *)driver);
        return dnnl_invalid_arguments;
    }
    return dnnl_success;
}

dnnl_status_t check_engine_objects(const char *call, ze_driver_handle_t driver,
                                   ze_device_handle_t device, ze_context_handle_t context)
{
    dnnl_status_t status = check_driver_device(call, driver, device);
    if (status != dnnl_success)
        return status;
    if (check_not_null(call, context, "context"))
        return dnnl_invalid_arguments;
    if (!zeil_is_active())
        return dnnl_success;
    zeil_handle_info_t ctx;
    verdict_t verdict =
        judge(INTEROP_RULE_E103, call, "context", context,
              registry_lookup(ZEL_HANDLE_CONTEXT, context, ZEIL_KIND_CONTEXT, &ctx), &ctx);
    if (verdict != USABLE)
        return verdict == REFUSED ? dnnl_invalid_arguments : dnnl_success;
    const void *drv_below = below_loader(ZEL_HANDLE_DRIVER, driver);
    if (ctx.driver != drv_below) {
        interop_report(INTEROP_RULE_E102, call, "context %p belongs to driver %p, not to driver %p",
                       (void *)context, (void *)ctx.driver, (void *)driver);
        return dnnl_invalid_arguments;
    }
    return dnnl_success;
}

dnnl_status_t check_engine_objects_alive(const char *call, ze_device_handle_t device,
                                         ze_context_handle_t context)
{
    if (!check_registry_available(call))
        return dnnl_success;
    zeil_handle_info_t info;
    if (judge(INTEROP_RULE_E106, call, "the engine's context", context,
              registry_lookup(ZEL_HANDLE_CONTEXT, context, ZEIL_KIND_CONTEXT, &info),
              &info) == REFUSED ||
        judge(INTEROP_RULE_E106, call, "the engine's device", device,
              registry_lookup(ZEL_HANDLE_DEVICE, device, ZEIL_KIND_DEVICE, &info),
              &info) == REFUSED)
        return dnnl_invalid_arguments;
    return dnnl_success;
}

dnnl_status_t check_stream_list(const char *call, ze_command_list_handle_t list,
                                ze_context_handle_t context, ze_device_handle_t device,
                                int in_order_required)
{
    if (check_not_null(call, list, "command list"))
        return dnnl_invalid_arguments;
    if (!check_registry_available(call))
        return dnnl_success;
    zeil_handle_info_t info;
    verdict_t verdict =
        judge(INTEROP_RULE_E112, call, "command list", list,
              registry_lookup(ZEL_HANDLE_COMMAND_LIST, list, ZEIL_KIND_COMMAND_LIST, &info), &info);
    if (verdict != USABLE)
        return verdict == REFUSED ? dnnl_invalid_arguments : dnnl_success;
    if (!info.is_immediate) {
        interop_report(INTEROP_RULE_E110, call,
                       "list %p is a regular command list; streams need an in-order "
                       "immediate list",
                       (void *)list);
        return dnnl_invalid_arguments;
    }
    if (info.context != below_loader(ZEL_HANDLE_CONTEXT, context)) {
        interop_report(INTEROP_RULE_E111, call,
                       "list %p belongs to context %p, the engine's context is %p", (void *)list,
                       (void *)info.context, (void *)context);
        return dnnl_invalid_arguments;
    }
    if (info.device != below_loader(ZEL_HANDLE_DEVICE, device)) {
        interop_report(INTEROP_RULE_E111, call,
                       "list %p belongs to device %p, the engine's device is %p", (void *)list,
                       (void *)info.device, (void *)device);
        return dnnl_invalid_arguments;
    }
    if (!info.is_in_order) {
        if (in_order_required) {
            interop_report(INTEROP_RULE_E114, call,
                           "list %p was created without ZE_COMMAND_QUEUE_FLAG_IN_ORDER",
                           (void *)list);
            return dnnl_invalid_arguments;
        }
        interop_report(INTEROP_RULE_W113, call,
                       "list %p is not in-order; oneDNN streams need in-order lists (the "
                       "reference driver runs it in order anyway)",
                       (void *)list);
    }
    return dnnl_success;
}

dnnl_status_t check_list_alive(const char *call, ze_command_list_handle_t list)
{
    if (!check_registry_available(call))
        return dnnl_success;
    zeil_handle_info_t info;
    if (judge(INTEROP_RULE_E112, call, "the stream's command list", list,
              registry_lookup(ZEL_HANDLE_COMMAND_LIST, list, ZEIL_KIND_COMMAND_LIST, &info),
              &info) == REFUSED)
        return dnnl_invalid_arguments;
    return dnnl_success;
}

static dnnl_status_t check_usm_range(const char *call, const void *ptr, size_t needed,
                                     const void *base, size_t size, const char *what)
{
    size_t offset = (size_t)((const char *)ptr - (const char *)base);
    size_t left = offset <= size ? size - offset : 0;
    if (left >= needed)
        return dnnl_success;
    interop_report(INTEROP_RULE_E121, call,
                   "%s %p has %zu bytes from it to the end of its allocation, the descriptor "
                   "needs %zu",
                   what, ptr, left, needed);
    return dnnl_invalid_arguments;
}

int check_device_uses_system_memory(ze_device_handle_t device)
{
    ze_device_memory_access_properties_t props = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES};
    return zeDeviceGetMemoryAccessProperties(device, &props) == ZE_RESULT_SUCCESS &&
           props.sharedSystemAllocCapabilities != 0;
}

static int driver_says_usm(ze_context_handle_t context, const void *ptr)
{
    ze_memory_allocation_properties_t props = {.stype =
                                                   ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    return zeMemGetAllocProperties(context, ptr, &props, NULL) == ZE_RESULT_SUCCESS &&
           props.type != ZE_MEMORY_TYPE_UNKNOWN;
}

static dnnl_status_t check_usm_by_query(const char *call, const void *ptr, size_t needed,
                                        ze_context_handle_t context, ze_device_handle_t device,
                                        int system_memory, const char *what)
{
    ze_memory_allocation_properties_t props = {.stype =
                                                   ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    ze_device_handle_t owner = NULL;
    if (zeMemGetAllocProperties(context, ptr, &props, &owner) != ZE_RESULT_SUCCESS ||
        props.type == ZE_MEMORY_TYPE_UNKNOWN) {
        if (system_memory && host_readable(ptr))
            return dnnl_success; /* plain host memory the device accepts */
        interop_report(INTEROP_RULE_E120, call,
                       "%s %p is not a USM allocation of context %p (zeMemGetAllocProperties)",
                       what, ptr, (void *)context);
        return dnnl_invalid_arguments;
    }
    if (owner && owner != device) {
        interop_report(INTEROP_RULE_E120, call,
                       "%s %p is USM of device %p, the engine's device is %p", what, ptr,
                       (void *)owner, (void *)device);
        return dnnl_invalid_arguments;
    }
    void *base = NULL;
    size_t size = 0;
    if (zeMemGetAddressRange(context, ptr, &base, &size) != ZE_RESULT_SUCCESS || !base)
        return dnnl_success; /* the size cannot be known: nothing more to check */
    return check_usm_range(call, ptr, needed, base, size, what);
}

typedef enum usm_verdict {
    USM_FITS,
    USM_UNKNOWN,
    USM_FREED,
    USM_OTHER_CONTEXT,
    USM_OTHER_DEVICE,
    USM_TOO_SMALL,
} usm_verdict_t;

static usm_verdict_t examine_usm(const void *ptr, size_t needed, ze_context_handle_t context,
                                 ze_device_handle_t device, zeil_alloc_info_t *alloc)
{
    int found = zeil_lookup_pointer(ptr, alloc);
    if (found == 0)
        return USM_UNKNOWN;
    if (found == 2)
        return USM_FREED;
    if (alloc->context != below_loader(ZEL_HANDLE_CONTEXT, context))
        return USM_OTHER_CONTEXT;
    if (alloc->device && alloc->device != below_loader(ZEL_HANDLE_DEVICE, device))
        return USM_OTHER_DEVICE;
    size_t offset = (size_t)((const char *)ptr - (const char *)alloc->base);
    size_t left = offset <= alloc->size ? alloc->size - offset : 0;
    return left >= needed ? USM_FITS : USM_TOO_SMALL;
}

int check_usm_passes(const void *ptr, size_t needed, ze_context_handle_t context,
                     ze_device_handle_t device)
{
    zeil_alloc_info_t alloc;
    return zeil_is_active() && examine_usm(ptr, needed, context, device, &alloc) == USM_FITS;
}

/* A pointer in a freed range that the driver accepts now (USM zeil did not
 * see, or host memory on a device that uses system memory) is never
 * refused: W153 says where it lies. E122 holds only when nothing the driver
 * accepts can be there. */
static int freed_range_accepted(const char *call, const void *ptr, ze_context_handle_t context,
                                int system_memory, const zeil_alloc_info_t *freed, const char *what)
{
    const char *why = NULL;
    if (driver_says_usm(context, ptr))
        why = "the driver knows it as USM now";
    else if (system_memory && host_readable(ptr))
        why = "the device accepts system memory and the address is mapped host memory";
    if (!why)
        return 0;
    interop_report(INTEROP_RULE_W153, call,
                   "%s %p lies where freed USM %p was (allocated at call #%llu, freed at call "
                   "#%llu); %s, so the call proceeds",
                   what, ptr, freed->base, (unsigned long long)freed->created_call,
                   (unsigned long long)freed->freed_call, why);
    return 1;
}

dnnl_status_t check_usm(const char *call, const void *ptr, size_t needed,
                        ze_context_handle_t context, ze_device_handle_t device, int system_memory,
                        const char *what)
{
    if (!check_registry_available(call))
        return check_usm_by_query(call, ptr, needed, context, device, system_memory, what);
    zeil_alloc_info_t alloc;
    usm_verdict_t verdict = examine_usm(ptr, needed, context, device, &alloc);
    if (verdict == USM_UNKNOWN && zeil_registry_is_incomplete())
        return dnnl_success; /* possibly USM zeil failed to register */
    if (verdict == USM_UNKNOWN && system_memory && host_readable(ptr))
        return dnnl_success; /* plain host memory the device accepts */
    if (verdict == USM_FREED &&
        freed_range_accepted(call, ptr, context, system_memory, &alloc, what))
        return dnnl_success;
    switch (verdict) {
    case USM_FITS:
        return dnnl_success;
    case USM_UNKNOWN:
        interop_report(INTEROP_RULE_E120, call,
                       "%s %p is not a USM allocation (unknown to the zeil registry)", what, ptr);
        break;
    case USM_FREED:
        interop_report(INTEROP_RULE_E122, call,
                       "%s %p points into USM %p that was freed (allocated at call #%llu, "
                       "freed at call #%llu)",
                       what, ptr, alloc.base, (unsigned long long)alloc.created_call,
                       (unsigned long long)alloc.freed_call);
        break;
    case USM_OTHER_CONTEXT:
        interop_report(INTEROP_RULE_E120, call,
                       "%s %p is USM of context %p, the engine's context is %p", what, ptr,
                       (void *)alloc.context, (void *)context);
        break;
    case USM_OTHER_DEVICE:
        interop_report(INTEROP_RULE_E120, call,
                       "%s %p is USM of device %p, the engine's device is %p", what, ptr,
                       (void *)alloc.device, (void *)device);
        break;
    case USM_TOO_SMALL:
        return check_usm_range(call, ptr, needed, alloc.base, alloc.size, what);
    }
    return dnnl_invalid_arguments;
}

dnnl_status_t check_events(const char *call, int count, const ze_event_handle_t *events,
                           ze_context_handle_t context)
{
    if (count > 0 && check_not_null(call, events, "dependency array"))
        return dnnl_invalid_arguments;
    /* Names are formatted only for a message: executes check every event. */
    char what[32];
    for (int i = 0; i < count; i++)
        if (!events[i]) {
            snprintf(what, sizeof what, "deps[%d]", i);
            return check_not_null(call, events[i], what);
        }
    if (count <= 0 || !check_registry_available(call))
        return dnnl_success;
    const void *ctx_below = below_loader(ZEL_HANDLE_CONTEXT, context);
    for (int i = 0; i < count; i++) {
        zeil_handle_info_t info;
        lookup_outcome_t outcome =
            registry_lookup(ZEL_HANDLE_EVENT, events[i], ZEIL_KIND_EVENT, &info);
        if (outcome != FOUND_ALIVE) {
            snprintf(what, sizeof what, "deps[%d]", i);
            verdict_t verdict = judge(INTEROP_RULE_E130, call, what, events[i], outcome, &info);
            if (verdict == REFUSED)
                return dnnl_invalid_arguments;
            if (verdict == UNVERIFIED)
                continue;
        }
        const void *event_context = info.context;
        zeil_handle_info_t pool;
        if (!event_context && info.parent && zeil_lookup_handle(info.parent, &pool))
            event_context = pool.context;
        if (parent_unverified(event_context))
            continue;
        if (event_context != ctx_below) {
            snprintf(what, sizeof what, "deps[%d]", i);
            interop_report(INTEROP_RULE_E131, call,
                           "%s %p belongs to context %p, the stream's context is %p", what,
                           (void *)events[i], event_context, (void *)context);
            return dnnl_invalid_arguments;
        }
    }
    return dnnl_success;
}
