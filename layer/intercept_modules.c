/* Intercepts of modules and kernels. */
#include "intercepts.h"

#include "checks.h"
#include "hazards/hazards.h"
#include "launch_cache.h"
#include "zeil_hooks.h"
#include "module_origin.h"
#include "out_of_memory.h"

#include <stdlib.h>

/* The module's kernel names, interned, asked from the driver once. */
static void learn_kernel_names(const zeil_next_t *next, ze_module_handle_t module,
                               zeil_obj_t *proto)
{
    uint32_t count = 0;
    if (NEXT(ze_module_dditable_t, pfnGetKernelNames)(module, &count, NULL) != ZE_RESULT_SUCCESS ||
        count == 0)
        return;
    const char **names = calloc(count, sizeof *names);
    if (!names) {
        oom_dropped(OOM_OTHER, 1, "zeModuleCreate", "keeping a module's kernel names");
        return;
    }
    if (NEXT(ze_module_dditable_t, pfnGetKernelNames)(module, &count, names) !=
        ZE_RESULT_SUCCESS) {
        free(names);
        return;
    }
    for (uint32_t i = 0; i < count; i++)
        names[i] = registry_intern(names[i]);
    proto->kernel_names = names;
    proto->kernel_name_count = count;
}

ZEIL_PRE(zeModuleCreate)
{
    return check_device_in_context(call, objs[0], a->hDevice);
}

ZEIL_POST(zeModuleCreate)
{
    if (result != ZE_RESULT_SUCCESS || !a->phModule)
        return;
    zeil_obj_t proto = {.handle = *a->phModule, .kind = ZEIL_KIND_MODULE,
                        .driver = objs[0] ? objs[0]->driver : NULL, .device = a->hDevice,
                        .context = a->hContext,
                        .module_format = a->desc ? a->desc->format : ZE_MODULE_FORMAT_NATIVE,
                        .origin = module_origin_of_caller()};
    learn_kernel_names(next, *a->phModule, &proto);
    intercept_register(call, next, &proto);
}

ZEIL_PRE(zeModuleDestroy)
{
    ze_result_t r = check_module_kernels(call, objs[0]);
    if (r == ZE_RESULT_SUCCESS)
        intercept_destroying(call, objs[0]);
    return r;
}

ZEIL_POST(zeModuleDestroy)
{
    if (result == ZE_RESULT_SUCCESS)
        intercept_retire(call, objs[0]);
}

/* How many arguments the kernel takes, when the driver says (0: unknown). */
static uint32_t kernel_arg_count(const zeil_next_t *next, ze_kernel_handle_t kernel)
{
    ze_kernel_properties_t props = {.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    if (NEXT(ze_kernel_dditable_t, pfnGetProperties)(kernel, &props) != ZE_RESULT_SUCCESS)
        return 0;
    return props.numKernelArgs;
}

/* The kernel's name, interned; "?" when unnamed or out of memory (a literal
 * lives as long as an interned string). */
static const char *kernel_name(const ze_kernel_desc_t *desc)
{
    const char *name = registry_intern(desc && desc->pKernelName ? desc->pKernelName : "?");
    return name ? name : "?";
}

ZEIL_POST(zeKernelCreate)
{
    const zeil_obj_t *module = objs[0];
    if (result == ZE_RESULT_SUCCESS && a->phKernel)
        intercept_register(call, next,
                           &(zeil_obj_t){.handle = *a->phKernel, .kind = ZEIL_KIND_KERNEL,
                                         .driver = module ? module->driver : NULL,
                                         .device = module ? module->device : NULL,
                                         .context = module ? module->context : NULL,
                                         .parent = a->hModule,
                                         .origin = module ? module->origin : NULL,
                                         .name = kernel_name(a->desc),
                                         .group_size = {1, 1, 1},
                                         .arg_count = kernel_arg_count(next, *a->phKernel)});
}

ZEIL_PRE(zeKernelDestroy)
{
    intercept_destroying(call, objs[0]);
    return ZE_RESULT_SUCCESS;
}

ZEIL_POST(zeKernelDestroy)
{
    if (result != ZE_RESULT_SUCCESS)
        return;
    launch_cache_forget_all();
    intercept_retire(call, objs[0]);
}

ZEIL_POST(zeKernelSetGroupSize)
{
    zeil_obj_t *kernel = objs[0];
    if (result != ZE_RESULT_SUCCESS || !kernel)
        return;
    atomic_store_explicit(&kernel->group_size[0], a->groupSizeX, memory_order_relaxed);
    atomic_store_explicit(&kernel->group_size[1], a->groupSizeY, memory_order_relaxed);
    atomic_store_explicit(&kernel->group_size[2], a->groupSizeZ, memory_order_relaxed);
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
