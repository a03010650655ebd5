/* Hooks of modules and kernels. */
#include "intercepts.h"

#include "checks.h"
#include "hazards/hazards.h"
#include "launch_cache.h"
#include "module_origin.h"
#include "out_of_memory.h"
#include "zeil_hooks.h"

#include <stdlib.h>

ZEIL_PRE(zeModuleCreate)
{
    return check_device_in_context(call, objs[0], a->hDevice);
}

/* The module's kernel names, interned, asked from the driver once. */
ZEIL_MAKE(zeModuleCreate)
{
    o->module_format = a->desc ? a->desc->format : ZE_MODULE_FORMAT_NATIVE;
    o->origin = module_origin_of_caller();
    uint32_t count = 0;
    ze_pfnModuleGetKernelNames_t get = NEXT(ze_module_dditable_t, pfnGetKernelNames);
    if (get(*a->phModule, &count, NULL) != ZE_RESULT_SUCCESS || count == 0)
        return;
    const char **names = calloc(count, sizeof *names);
    if (!names)
        oom_dropped(OOM_OTHER, 1, call->name, "keeping a module's kernel names");
    if (!names || get(*a->phModule, &count, names) != ZE_RESULT_SUCCESS) {
        free(names);
        return;
    }
    for (uint32_t i = 0; i < count; i++)
        names[i] = registry_intern(names[i]);
    o->kernel_names = names;
    o->kernel_name_count = count;
}

ZEIL_PRE(zeModuleDestroy)
{
    return check_module_kernels(call, objs[0]);
}

/* Its name interned ("?" when unnamed or out of memory: a literal lives as
 * long), its group size 1x1x1 until set, how many arguments it takes when
 * the driver says (0: unknown). */
ZEIL_MAKE(zeKernelCreate)
{
    const char *name = registry_intern(a->desc && a->desc->pKernelName ? a->desc->pKernelName : "?");
    ze_kernel_properties_t props = {.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    o->name = name ? name : "?";
    o->group_size[0] = o->group_size[1] = o->group_size[2] = 1;
    if (NEXT(ze_kernel_dditable_t, pfnGetProperties)(*a->phKernel, &props) == ZE_RESULT_SUCCESS)
        o->arg_count = props.numKernelArgs;
}

ZEIL_POST(zeKernelDestroy)
{
    if (result == ZE_RESULT_SUCCESS)
        launch_cache_forget_all();
}

ZEIL_POST(zeKernelSetGroupSize)
{
    if (result != ZE_RESULT_SUCCESS || !objs[0])
        return;
    atomic_store_explicit(&objs[0]->group_size[0], a->groupSizeX, memory_order_relaxed);
    atomic_store_explicit(&objs[0]->group_size[1], a->groupSizeY, memory_order_relaxed);
    atomic_store_explicit(&objs[0]->group_size[2], a->groupSizeZ, memory_order_relaxed);
}

/* The argument's rules (size, freed USM) are warnings: the call goes on. */
ZEIL_PRE(zeKernelSetArgumentValue)
{
    check_kernel_argument(call, objs[0], a->argIndex, a->argSize, a->pArgValue);
    return ZE_RESULT_SUCCESS;
}

ZEIL_POST(zeKernelSetArgumentValue)
{
    if (result != ZE_RESULT_SUCCESS || !objs[0])
        return;
    if (a->argIndex < 64)
        atomic_fetch_or_explicit(&objs[0]->args_set, 1ull << a->argIndex, memory_order_relaxed);
    if (hazards_active())
        hazards_kernel_argument(objs[0], a->argIndex, a->argSize, a->pArgValue);
}
