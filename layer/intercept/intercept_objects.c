/* Hooks of what makes and unmakes objects. The generated intercept registers
 * what a ZEIL_MAKE entry made (driver, device, context, parent from its first
 * handle) and retires what ze<X>Destroy destroyed; these add the rest. */
#include "zeil_hooks.h"
#include "module_build_log.h"

/* The drivers or devices a call returned, registered unless known live
 * (since API 1.10 a loader takes drivers from zeDriverGet or zeInitDrivers). */
static void register_all(const zeil_call_t *call, const zeil_next_t *next, zeil_kind_t kind,
                         ze_driver_handle_t driver, ze_device_handle_t parent,
                         const uint32_t *count, const void *all)
{
    void *const *h = all;
    ze_api_version_t version;
    for (uint32_t i = 0; h && count && i < *count; i++) {
        zeil_obj_t *known = registry_find(h[i]);
        if (!known || !atomic_load(&known->alive) || known->kind != kind)
            registry_register_made(call, next,
                                   &(zeil_obj_t){.handle = h[i],
                                                 .kind = kind,
                                                 .parent = parent,
                                                 .driver = kind == ZEIL_KIND_DRIVER ? h[i] : driver,
                                                 .device = kind == ZEIL_KIND_DEVICE ? h[i] : NULL});
        if (kind == ZEIL_KIND_DRIVER && NEXT(ze_driver_dditable_t, pfnGetApiVersion) &&
            NEXT(ze_driver_dditable_t, pfnGetApiVersion)(h[i], &version) == 0)
            intercepted_kinds_note_driver_version(next, version);
    }
}
#define REGISTERS_ALL(api, kind, driver, parent, all) \
    ZEIL_POST(api) \
    { \
        register_all(call, next, kind, driver, parent, a->pCount, all); \
    }
REGISTERS_ALL(zeDriverGet, ZEIL_KIND_DRIVER, NULL, NULL, a->phDrivers)
REGISTERS_ALL(zeInitDrivers, ZEIL_KIND_DRIVER, NULL, NULL, a->phDrivers)
REGISTERS_ALL(zeDeviceGet, ZEIL_KIND_DEVICE, a->hDriver, NULL, a->phDevices)
REGISTERS_ALL(zeDeviceGetSubDevices, ZEIL_KIND_DEVICE, objs[0] ? objs[0]->driver : NULL, a->hDevice,
              a->phSubdevices)

/* A driver that claims DDI handles (ze_driver_ddi_handles_ext_properties_t
 * chained to these properties) has newer loaders call it through the tables
 * inside its handles, never through zeil's: zeil hides the claim (W081). */
ZEIL_POST(zeDriverGetProperties)
{
    static _Atomic int said[ZEIL_MAX_NEXT_DRIVERS];
    ze_base_properties_t *p = a->pDriverProperties ? a->pDriverProperties->pNext : NULL;
    for (int hops = 0; p && hops < 64; p = p->pNext, hops++) { /* a cycle must not hang */
        zeil_compat_driver_ddi_handles_ext_properties_t *ddi = (void *)p;
        if (p->stype != ZEIL_COMPAT_STYPE_DRIVER_DDI_HANDLES_EXT_PROPERTIES ||
            !(ddi->flags & ZEIL_COMPAT_DRIVER_DDI_HANDLE_EXT_FLAG_SUPPORTED))
            continue;
        ddi->flags &= ~(uint32_t)ZEIL_COMPAT_DRIVER_DDI_HANDLE_EXT_FLAG_SUPPORTED;
        if (zeil_settings()->log_level >= ZEIL_LOG_INFO && next->index < ZEIL_MAX_NEXT_DRIVERS &&
            !atomic_exchange(&said[next->index], 1))
            diag_report(ZEIL_RULE_W081, call->name,
                        "driver %p (%s) claims DDI handles; zeil hides the claim so that the "
                        "loader keeps calling it through zeil's tables",
                        (void *)a->hDriver, next->path);
    }
}

ZEIL_MAKE(zeContextCreate) {} /* a context is its own context */
/* Without the copy of its devices a context counts as one of all its
 * driver's devices (device_count 0): checks then refuse less, never more. */
ZEIL_MAKE(zeContextCreateEx)
{
    o->devices = a->numDevices && a->phDevices ? calloc(a->numDevices, sizeof *o->devices) : NULL;
    if (o->devices) {
        o->device_count = a->numDevices;
        memcpy(o->devices, a->phDevices, a->numDevices * sizeof *o->devices);
    } else if (a->numDevices && a->phDevices)
        oom_dropped(OOM_OTHER, 1, call->name, "copying a context's device list");
}
ZEIL_PRE(zeContextDestroy)
{
    return check_context_children(call, objs[0]);
}

/* Queues, lists, pools, counter-based events, USM and modules are made on a
 * device that must be one of the context's (E005). */
ZEIL_PRE(zeCommandQueueCreate)
{
    return check_device_in_context(call, objs[0], a->hDevice);
}
ZEIL_MAKE(zeCommandQueueCreate)
{
    o->ordinal = a->desc ? a->desc->ordinal : 0;
    o->is_in_order = a->desc && (a->desc->flags & ZE_COMMAND_QUEUE_FLAG_IN_ORDER);
}
ZEIL_POST(zeCommandQueueCreate)
{
    if (a->phCommandQueue && a->desc && hazards_active())
        hazards_queue_mode(*a->phCommandQueue, a->desc->mode);
}
ZEIL_PRE(zeCommandQueueExecuteCommandLists)
{
    return check_execute(call, objs[0], a->numCommandLists, a->phCommandLists, a->hFence);
}
ZEIL_POST(zeCommandQueueExecuteCommandLists)
{
    check_signals_executed(call, a->numCommandLists, a->phCommandLists);
    ZEIL_HAZARDS(hazards_executed(call, objs[0], a->numCommandLists, a->phCommandLists, a->hFence));
}
ZEIL_MAKE(zeFenceCreate) {}

/* A list gets its records and its name for the report once registered. */
ZEIL_PRE(zeCommandListCreate)
{
    return check_device_in_context(call, objs[0], a->hDevice);
}
ZEIL_MAKE(zeCommandListCreate)
{
    o->ordinal = a->desc ? a->desc->commandQueueGroupOrdinal : 0;
    o->is_in_order = a->desc && (a->desc->flags & ZE_COMMAND_LIST_FLAG_IN_ORDER);
}
ZEIL_POST(zeCommandListCreate)
{
    if (!st->made)
        return;
    records_list_created(call, st->made);
    names_list_created(next, st->made, 0);
}
ZEIL_PRE(zeCommandListCreateImmediate)
{
    return check_device_in_context(call, objs[0], a->hDevice);
}
ZEIL_MAKE(zeCommandListCreateImmediate)
{
    o->is_immediate = 1;
    o->ordinal = a->altdesc ? a->altdesc->ordinal : 0;
    o->is_in_order = a->altdesc && (a->altdesc->flags & ZE_COMMAND_QUEUE_FLAG_IN_ORDER);
}
ZEIL_POST(zeCommandListCreateImmediate)
{
    if (st->made) {
        records_list_created(call, st->made);
        names_list_created(next, st->made, a->altdesc ? a->altdesc->index : 0);
    }
    if (a->phCommandList && a->altdesc && hazards_active())
        hazards_list_mode(*a->phCommandList, a->altdesc->mode);
}
ZEIL_PRE(zeCommandListDestroy)
{
    if (objs[0]) /* what finished; its timestamp events go */
        timing_list_destroyed(objs[0]);
    return ZE_RESULT_SUCCESS;
}
ZEIL_POST(zeCommandListDestroy)
{
    launch_cache_forget_all(); /* before the records go */
    if (objs[0])
        records_list_destroyed(objs[0]->records);
}
ZEIL_POST(zeCommandListClose)
{
    if (objs[0] && !objs[0]->is_immediate) {
        atomic_store(&objs[0]->closed_call, call->number);
        atomic_store(&objs[0]->is_closed, 1);
    }
}
ZEIL_POST(zeCommandListReset)
{
    if (objs[0])
        atomic_store(&objs[0]->is_closed, 0);
    check_signals_forget(objs[0]);
    ZEIL_HAZARDS(hazards_list_reset(objs[0]));
}
/* API 1.9+: answered from the registry, so that they agree with zeil.h. */
ZEIL_ANSWERS(zeCommandListIsImmediate, pIsImmediate, objs[0]->is_immediate ? 1 : 0)
ZEIL_ANSWERS(zeCommandListGetDeviceHandle, phDevice, objs[0]->device)
ZEIL_ANSWERS(zeCommandListGetContextHandle, phContext, objs[0]->context)
ZEIL_ANSWERS(zeCommandListGetOrdinal, pOrdinal, objs[0]->ordinal)

ZEIL_PRE(zeEventPoolCreate)
{
    ze_result_t r = ZE_RESULT_SUCCESS;
    for (uint32_t i = 0; a->phDevices && i < a->numDevices; i++)
        CHECK_KEEP_FIRST(r, check_device_in_context(call, objs[0], a->phDevices[i]));
    return r;
}
ZEIL_MAKE(zeEventPoolCreate)
{
    o->device = a->numDevices == 1 && a->phDevices ? a->phDevices[0] : NULL;
    o->pool_flags = a->desc ? a->desc->flags : 0;
}
ZEIL_PRE(zeEventPoolDestroy)
{
    return check_pool_events(call, objs[0]);
}
ZEIL_MAKE(zeEventPoolOpenIpcHandle) {} /* another process's pool: a pool all the same */
ZEIL_MAKE(zeEventCreate) {}
ZEIL_POST(zeEventCreate)
{
    /* Another process may signal the events of a pool it shared. */
    if (st->made && objs[0] && hazards_active() &&
        strcmp(objs[0]->created_by, "zeEventPoolOpenIpcHandle") == 0)
        hazards_event_external(st->made);
}
/* API 1.15: an event of no pool; it belongs to the context and device. */
ZEIL_PRE(zeEventCounterBasedCreate)
{
    return check_device_in_context(call, objs[0], a->hDevice);
}
ZEIL_MAKE(zeEventCounterBasedCreate) {}

/* No build log asked for (oneDNN 3): zeil asks, and logs it on failure (W071). */
ZEIL_PRE(zeModuleCreate)
{
    ze_result_t r = check_device_in_context(call, objs[0], a->hDevice);
    return r != ZE_RESULT_SUCCESS || a->phBuildLog ? r : module_build_logged(call, next, a, st);
}
/* Its format, where it was built from, its kernel names (interned, asked once). */
ZEIL_MAKE(zeModuleCreate)
{
    ze_pfnModuleGetKernelNames_t get = NEXT(ze_module_dditable_t, pfnGetKernelNames);
    uint32_t count = 0;
    o->module_format = a->desc ? a->desc->format : ZE_MODULE_FORMAT_NATIVE;
    o->origin = module_origin_of_caller();
    const char **names = get(*a->phModule, &count, NULL) == ZE_RESULT_SUCCESS && count
                             ? calloc(count, sizeof *names)
                             : NULL;
    if (count && !names)
        oom_dropped(OOM_OTHER, 1, call->name, "keeping a module's kernel names");
    if (names && get(*a->phModule, &count, names) == ZE_RESULT_SUCCESS) {
        for (uint32_t i = 0; i < count; i++)
            names[i] = registry_intern(names[i]);
        o->kernel_names = names;
        o->kernel_name_count = count;
    } else {
        free(names);
    }
}
ZEIL_PRE(zeModuleDestroy)
{
    return check_module_kernels(call, objs[0]);
}

/* Its name interned ("?" when unnamed or out of memory: a literal lives as
 * long), group size 1x1x1 until set, how many arguments it takes when the
 * driver says (0: unknown). */
ZEIL_MAKE(zeKernelCreate)
{
    const char *name =
        a->desc && a->desc->pKernelName ? registry_intern(a->desc->pKernelName) : NULL;
    ze_kernel_properties_t props = {.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    o->name = name ? name : "?";
    o->group_size[0] = o->group_size[1] = o->group_size[2] = 1;
    if (NEXT(ze_kernel_dditable_t, pfnGetProperties)(*a->phKernel, &props) == ZE_RESULT_SUCCESS)
        o->arg_count = props.numKernelArgs;
}
ZEIL_POST(zeKernelDestroy)
{
    launch_cache_forget_all();
}
ZEIL_POST(zeKernelSetGroupSize)
{
    const uint32_t size[3] = {a->groupSizeX, a->groupSizeY, a->groupSizeZ};
    if (objs[0])
        registry_set_group_size(objs[0], size);
}
/* The argument's rules (size, freed USM) are warnings: the call goes on. */
ZEIL_PRE(zeKernelSetArgumentValue)
{
    check_kernel_argument(call, objs[0], a->argIndex, a->argSize, a->pArgValue);
    return ZE_RESULT_SUCCESS;
}
ZEIL_POST(zeKernelSetArgumentValue)
{
    if (objs[0] && a->argIndex < 64)
        atomic_fetch_or_explicit(&objs[0]->args_set, 1ull << a->argIndex, memory_order_relaxed);
    /* Only the guesses read a kernel's arguments. */
    ZEIL_HAZARDS(if (hazards_guessing())
                     hazards_kernel_argument(objs[0], a->argIndex, a->argSize, a->pArgValue));
}
