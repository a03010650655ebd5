/* Intercepts of modules and kernels. */
#include "intercepts.h"

#include "checks.h"
#include "hazards/hazards.h"
#include "launch_cache.h"
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

ze_result_t ZE_APICALL zeil_icpt_zeModuleCreate(const zeil_next_t *next,
                                                ze_context_handle_t hContext,
                                                ze_device_handle_t hDevice,
                                                const ze_module_desc_t *desc,
                                                ze_module_handle_t *phModule,
                                                ze_module_build_log_handle_t *phBuildLog)
{
    zeil_call_t call;
    calls_begin(&call, "zeModuleCreate");
    zeil_obj_t *context, *device;
    ze_result_t r = check_handle(&call, "hContext", hContext, ZEIL_KIND_CONTEXT, &context);
    CHECK_KEEP_FIRST(r, check_handle(&call, "hDevice", hDevice, ZEIL_KIND_DEVICE, &device));
    CHECK_KEEP_FIRST(r, check_device_in_context(&call, context, hDevice));
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_module_dditable_t, pfnCreate)(hContext, hDevice, desc, phModule, phBuildLog);
    if (r == ZE_RESULT_SUCCESS && phModule) {
        zeil_obj_t proto = {.handle = *phModule, .kind = ZEIL_KIND_MODULE,
                            .driver = context ? context->driver : NULL, .device = hDevice,
                            .context = hContext,
                            .module_format = desc ? desc->format : ZE_MODULE_FORMAT_NATIVE,
                            .origin = module_origin_of_caller()};
        learn_kernel_names(next, *phModule, &proto);
        intercept_register(&call, next, &proto);
    }
    return CALLS_END(&call, r, "hContext=%p hDevice=%p format=%d size=%zu -> %p",
                     (void *)hContext, (void *)hDevice, desc ? (int)desc->format : -1,
                     desc ? desc->inputSize : 0,
                     phModule && r == ZE_RESULT_SUCCESS ? (void *)*phModule : NULL);
}

ze_result_t ZE_APICALL zeil_icpt_zeModuleDestroy(const zeil_next_t *next,
                                                 ze_module_handle_t hModule)
{
    zeil_call_t call;
    calls_begin(&call, "zeModuleDestroy");
    zeil_obj_t *module;
    ze_result_t r = check_handle(&call, "hModule", hModule, ZEIL_KIND_MODULE, &module);
    CHECK_KEEP_FIRST(r, check_module_kernels(&call, module));
    if (r == ZE_RESULT_SUCCESS) {
        intercept_destroying(&call, module);
        r = NEXT(ze_module_dditable_t, pfnDestroy)(hModule);
    }
    if (r == ZE_RESULT_SUCCESS)
        intercept_retire(&call, module);
    return CALLS_END(&call, r, "hModule=%p", (void *)hModule);
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

ze_result_t ZE_APICALL zeil_icpt_zeKernelCreate(const zeil_next_t *next,
                                                ze_module_handle_t hModule,
                                                const ze_kernel_desc_t *desc,
                                                ze_kernel_handle_t *phKernel)
{
    zeil_call_t call;
    calls_begin(&call, "zeKernelCreate");
    zeil_obj_t *module;
    ze_result_t r = check_handle(&call, "hModule", hModule, ZEIL_KIND_MODULE, &module);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_kernel_dditable_t, pfnCreate)(hModule, desc, phKernel);
    if (r == ZE_RESULT_SUCCESS && phKernel)
        intercept_register(&call, next,
                           &(zeil_obj_t){.handle = *phKernel, .kind = ZEIL_KIND_KERNEL,
                                         .driver = module ? module->driver : NULL,
                                         .device = module ? module->device : NULL,
                                         .context = module ? module->context : NULL,
                                         .parent = hModule,
                                         .origin = module ? module->origin : NULL,
                                         .name = kernel_name(desc),
                                         .group_size = {1, 1, 1},
                                         .arg_count = kernel_arg_count(next, *phKernel)});
    return CALLS_END(&call, r, "hModule=%p name=%s -> %p", (void *)hModule,
                     desc && desc->pKernelName ? desc->pKernelName : "?",
                     phKernel && r == ZE_RESULT_SUCCESS ? (void *)*phKernel : NULL);
}

ze_result_t ZE_APICALL zeil_icpt_zeKernelDestroy(const zeil_next_t *next,
                                                 ze_kernel_handle_t hKernel)
{
    zeil_call_t call;
    calls_begin(&call, "zeKernelDestroy");
    zeil_obj_t *kernel;
    ze_result_t r = check_handle(&call, "hKernel", hKernel, ZEIL_KIND_KERNEL, &kernel);
    if (r == ZE_RESULT_SUCCESS) {
        intercept_destroying(&call, kernel);
        r = NEXT(ze_kernel_dditable_t, pfnDestroy)(hKernel);
    }
    if (r == ZE_RESULT_SUCCESS) {
        launch_cache_forget_all();
        intercept_retire(&call, kernel);
    }
    return CALLS_END(&call, r, "hKernel=%p", (void *)hKernel);
}

ze_result_t ZE_APICALL zeil_icpt_zeKernelSetGroupSize(const zeil_next_t *next,
                                                      ze_kernel_handle_t hKernel,
                                                      uint32_t groupSizeX, uint32_t groupSizeY,
                                                      uint32_t groupSizeZ)
{
    zeil_call_t call;
    calls_begin(&call, "zeKernelSetGroupSize");
    zeil_obj_t *kernel;
    ze_result_t r = check_handle(&call, "hKernel", hKernel, ZEIL_KIND_KERNEL, &kernel);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_kernel_dditable_t, pfnSetGroupSize)(hKernel, groupSizeX, groupSizeY,
                                                        groupSizeZ);
    if (r == ZE_RESULT_SUCCESS && kernel) {
        atomic_store_explicit(&kernel->group_size[0], groupSizeX, memory_order_relaxed);
        atomic_store_explicit(&kernel->group_size[1], groupSizeY, memory_order_relaxed);
        atomic_store_explicit(&kernel->group_size[2], groupSizeZ, memory_order_relaxed);
    }
    return CALLS_END(&call, r, "hKernel=%p size=%ux%ux%u", (void *)hKernel, groupSizeX,
                     groupSizeY, groupSizeZ);
}

ze_result_t ZE_APICALL zeil_icpt_zeKernelSetArgumentValue(const zeil_next_t *next,
                                                          ze_kernel_handle_t hKernel,
                                                          uint32_t argIndex, size_t argSize,
                                                          const void *pArgValue)
{
    zeil_call_t call;
    calls_begin(&call, "zeKernelSetArgumentValue");
    zeil_obj_t *kernel;
    ze_result_t r = check_handle(&call, "hKernel", hKernel, ZEIL_KIND_KERNEL, &kernel);
    if (r == ZE_RESULT_SUCCESS)
        check_kernel_argument(&call, kernel, argIndex, argSize, pArgValue);
    if (r == ZE_RESULT_SUCCESS)
        r = NEXT(ze_kernel_dditable_t, pfnSetArgumentValue)(hKernel, argIndex, argSize,
                                                            pArgValue);
    if (r == ZE_RESULT_SUCCESS && kernel && argIndex < 64)
        atomic_fetch_or_explicit(&kernel->args_set, 1ull << argIndex, memory_order_relaxed);
    if (r == ZE_RESULT_SUCCESS && kernel && hazards_active())
        hazards_kernel_argument(kernel, argIndex, argSize, pArgValue);
    return CALLS_END(&call, r, "hKernel=%p argIndex=%u argSize=%zu", (void *)hKernel, argIndex,
                     argSize);
}
