/*
 * Kernel rules at launch: the kernel must be of the list's context (E004) and
 * device (E005), and every argument must have been set (E041).
 */
#include "checks.h"

#include "diag.h"

ze_result_t check_kernel_of_list(const zeil_call_t *call, const zeil_obj_t *list,
                                 ze_kernel_handle_t kernel, zeil_obj_t **kernel_obj)
{
    ze_result_t r = check_handle(call, "hKernel", kernel, ZEIL_KIND_KERNEL, kernel_obj);
    const zeil_obj_t *k = *kernel_obj;
    if (!k)
        return r;
    CHECK_KEEP_FIRST(r, check_same_context(call, "hKernel", k, "hCommandList", list));
    if (list && !check_devices_related(k->device, list->device))
        CHECK_KEEP_FIRST(r, diag_report(ZEIL_RULE_E005, call->name,
                                        "hKernel %p ('%s') was built for device %p, command "
                                        "list %p is on device %p",
                                        (void *)kernel, k->name, (void *)k->device, list->handle,
                                        (void *)list->device));
    return r;
}

ze_result_t check_launch_kernel(const zeil_call_t *call, const zeil_obj_t *list,
                                ze_kernel_handle_t kernel, zeil_obj_t **kernel_obj)
{
    ze_result_t r = check_kernel_of_list(call, list, kernel, kernel_obj);
    const zeil_obj_t *k = *kernel_obj;
    if (!k)
        return r;
    int missing = check_kernel_arg_missing(k);
    if (missing >= 0)
        CHECK_KEEP_FIRST(r, diag_report(ZEIL_RULE_E041, call->name,
                                        "kernel '%s' (%p) is launched with argument %d of %u "
                                        "never set",
                                        k->name, (void *)kernel, missing, k->arg_count));
    return r;
}
