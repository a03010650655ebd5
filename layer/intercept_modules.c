/* Intercepts of modules and kernels. */
#include "intercepts.h"

#include "checks.h"
#include "hazards/hazards.h"
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

ze_result_t zeil_pre_zeModuleCreate(zeil_call_t *call, const zeil_next_t *next,
                                   zeil_obj_t *const *objs, ze_context_handle_t hContext,
                                   ze_device_handle_t hDevice, const ze_module_desc_t *desc,
                                   ze_module_handle_t *phModule,
                                   ze_module_build_log_handle_t *phBuildLog)
{
    (void)next, (void)desc, (void)phModule, (void)phBuildLog, (void)hContext;
    return check_device_in_context(call, objs[0], hDevice);
}

void zeil_post_zeModuleCreate(zeil_call_t *call, const zeil_next_t *next, zeil_obj_t *const *objs,
                              ze_result_t result, ze_context_handle_t hContext,
                              ze_device_handle_t hDevice, const ze_module_desc_t *desc,
                              ze_module_handle_t *phModule, ze_module_build_log_handle_t *phBuildLog)
{
    (void)phBuildLog;
    if (result != ZE_RESULT_SUCCESS || !phModule)
        return;
    zeil_obj_t proto = {.handle = *phModule, .kind = ZEIL_KIND_MODULE,
                        .driver = objs[0] ? objs[0]->driver : NULL, .device = hDevice,
                        .context = hContext,
                        .module_format = desc ? desc->format : ZE_MODULE_FORMAT_NATIVE,
                        .origin = module_origin_of_caller()};
    learn_kernel_names(next, *phModule, &proto);
    intercept_register(call, next, &proto);
}

ze_result_t zeil_pre_zeModuleDestroy(zeil_call_t *call, const zeil_next_t *next,
                                    zeil_obj_t *const *objs, ze_module_handle_t hModule)
{
    (void)next, (void)hModule;
    ze_result_t r = check_module_kernels(call, objs[0]);
    if (r == ZE_RESULT_SUCCESS)
        intercept_destroying(call, objs[0]);
    return r;
}

void zeil_post_zeModuleDestroy(zeil_call_t *call, const zeil_next_t *next, zeil_obj_t *const *objs,
                               ze_result_t result, ze_module_handle_t hModule)
{
    (void)next, (void)hModule;
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

void zeil_post_zeKernelCreate(zeil_call_t *call, const zeil_next_t *next, zeil_obj_t *const *objs,
                              ze_result_t result, ze_module_handle_t hModule,
                              const ze_kernel_desc_t *desc, ze_kernel_handle_t *phKernel)
{
    const zeil_obj_t *module = objs[0];
    if (result == ZE_RESULT_SUCCESS && phKernel)
        intercept_register(call, next,
                           &(zeil_obj_t){.handle = *phKernel, .kind = ZEIL_KIND_KERNEL,
                                         .driver = module ? module->driver : NULL,
                                         .device = module ? module->device : NULL,
                                         .context = module ? module->context : NULL,
                                         .parent = hModule,
                                         .origin = module ? module->origin : NULL,
                                         .name = kernel_name(desc),
                                         .group_size = {1, 1, 1},
                                         .arg_count = kernel_arg_count(next, *phKernel)});
}

ze_result_t zeil_pre_zeKernelDestroy(zeil_call_t *call, const zeil_next_t *next,
                                    zeil_obj_t *const *objs, ze_kernel_handle_t hKernel)
{
    (void)next, (void)hKernel;
    intercept_destroying(call, objs[0]);
    return ZE_RESULT_SUCCESS;
}

void zeil_post_zeKernelDestroy(zeil_call_t *call, const zeil_next_t *next, zeil_obj_t *const *objs,
                               ze_result_t result, ze_kernel_handle_t hKernel)
{
    (void)next, (void)hKernel;
    if (result == ZE_RESULT_SUCCESS)
        intercept_retire(call, objs[0]);
}

void zeil_post_zeKernelSetGroupSize(zeil_call_t *call, const zeil_next_t *next,
                                    zeil_obj_t *const *objs, ze_result_t result,
                                    ze_kernel_handle_t hKernel, uint32_t groupSizeX,
                                    uint32_t groupSizeY, uint32_t groupSizeZ)
{
    (void)call, (void)next, (void)hKernel;
    zeil_obj_t *kernel = objs[0];
    if (result != ZE_RESULT_SUCCESS || !kernel)
        return;
    atomic_store_explicit(&kernel->group_size[0], groupSizeX, memory_order_relaxed);
    atomic_store_explicit(&kernel->group_size[1], groupSizeY, memory_order_relaxed);
    atomic_store_explicit(&kernel->group_size[2], groupSizeZ, memory_order_relaxed);
}

/* E-rules on the argument (size, freed USM) are warnings: the call goes on. */
ze_result_t zeil_pre_zeKernelSetArgumentValue(zeil_call_t *call, const zeil_next_t *next,
                                             zeil_obj_t *const *objs, ze_kernel_handle_t hKernel,
                                             uint32_t argIndex, size_t argSize,
                                             const void *pArgValue)
{
    (void)next, (void)hKernel;
    check_kernel_argument(call, objs[0], argIndex, argSize, pArgValue);
    return ZE_RESULT_SUCCESS;
}

void zeil_post_zeKernelSetArgumentValue(zeil_call_t *call, const zeil_next_t *next,
                                        zeil_obj_t *const *objs, ze_result_t result,
                                        ze_kernel_handle_t hKernel, uint32_t argIndex,
                                        size_t argSize, const void *pArgValue)
{
    (void)call, (void)next, (void)hKernel;
    if (result != ZE_RESULT_SUCCESS || !objs[0])
        return;
    if (argIndex < 64)
        atomic_fetch_or_explicit(&objs[0]->args_set, 1ull << argIndex, memory_order_relaxed);
    if (hazards_active())
        hazards_kernel_argument(objs[0], argIndex, argSize, pArgValue);
}
