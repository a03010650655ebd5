/* Kernels: create from a module (native or compiled), properties, group
 * size, arguments. */
#include "rd_api.h"
#include "rd_driver.h"
#include "rd_kernel.h"

#include <stdlib.h>
#include <string.h>

/* Kernels read their arguments in place (*(const double *)args[i]), so
 * every value starts at an offset fit for any scalar type. */
static size_t arg_aligned(size_t offset)
{
    return (offset + RD_ARG_ALIGNMENT - 1) & ~(size_t)(RD_ARG_ALIGNMENT - 1);
}

/* Bytes argument i takes in arg_values: a local argument keeps a pointer's
 * room (its value is the group's buffer, given at launch). */
static uint32_t arg_slot_size(const rd_kernel_t *k, uint32_t i)
{
    if (k->abi)
        return (uint32_t)k->abi->arg_sizes[i];
    const rd_cm_arg_t *a = &k->cm->args[i];
    return a->kind == RD_CM_ARG_VALUE ? (a->size ? a->size : 1) : 8;
}

static void kernel_free(rd_kernel_t *k)
{
    free(k->arg_offsets);
    free(k->arg_states);
    free(k->arg_values);
    free(k->local_sizes);
    rd_object_delete(k, RD_MAGIC_KERNEL, sizeof *k);
}

ze_result_t ZE_APICALL rd_zeKernelCreate(ze_module_handle_t hModule, const ze_kernel_desc_t *desc,
                                         ze_kernel_handle_t *phKernel)
{
    RD_HANDLE(rd_module_t, m, hModule, RD_MAGIC_MODULE);
    RD_NOT_NULL(desc);
    RD_NOT_NULL(desc->pKernelName);
    RD_NOT_NULL(phKernel);
    if (desc->flags > 0x3)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    const zeil_cpu_kernel_t *abi = rd_module_find_kernel(m, desc->pKernelName);
    const rd_cm_kernel_t *cm = rd_module_find_cm_kernel(m, desc->pKernelName);
    if (!abi && !cm)
        return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
    rd_kernel_t *k = rd_object_new(RD_MAGIC_KERNEL, sizeof *k);
    if (!k)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    k->abi = abi;
    k->cm = cm;
    k->name = abi ? abi->name : cm->name;
    uint32_t n = k->num_args = abi ? abi->num_args : cm->num_args;
    size_t bytes = 0;
    for (uint32_t i = 0; i < n; i++)
        bytes = arg_aligned(bytes) + arg_slot_size(k, i);
    k->arg_offsets = calloc(n ? n : 1, sizeof *k->arg_offsets);
    k->arg_states = calloc(n ? n : 1, 1);
    k->arg_values = calloc(bytes ? bytes : 1, 1);
    k->local_sizes = cm ? calloc(n ? n : 1, sizeof *k->local_sizes) : NULL;
    if (!k->arg_offsets || !k->arg_states || !k->arg_values || (cm && !k->local_sizes)) {
        kernel_free(k);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (uint32_t i = 1; i < n; i++)
        k->arg_offsets[i] = arg_aligned(k->arg_offsets[i - 1] + arg_slot_size(k, i - 1));
    k->arg_bytes = bytes;
    for (int d = 0; d < 3; d++)
        k->group_size[d] = cm && cm->reqd_group_size[0] ? cm->reqd_group_size[d] : 1;
    rd_module_retain(m);
    k->module = m;
    k->magic = RD_MAGIC_KERNEL;
    *phKernel = (ze_kernel_handle_t)k;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeKernelDestroy(ze_kernel_handle_t hKernel)
{
    RD_HANDLE(rd_kernel_t, k, hKernel, RD_MAGIC_KERNEL);
    k->magic = RD_MAGIC_DEAD;
    rd_module_release(k->module);
    kernel_free(k);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeKernelGetName(ze_kernel_handle_t hKernel, size_t *pSize, char *pName)
{
    RD_HANDLE(rd_kernel_t, k, hKernel, RD_MAGIC_KERNEL);
    RD_NOT_NULL(pSize);
    return rd_copy_out(k->name, strlen(k->name) + 1, pSize, pName);
}

ze_result_t ZE_APICALL rd_zeKernelGetProperties(ze_kernel_handle_t hKernel,
                                                ze_kernel_properties_t *p)
{
    RD_HANDLE(rd_kernel_t, k, hKernel, RD_MAGIC_KERNEL);
    RD_NOT_NULL(p);
    p->numKernelArgs = k->num_args;
    p->requiredGroupSizeX = 0; /* any group size */
    p->requiredGroupSizeY = 0;
    p->requiredGroupSizeZ = 0;
    p->requiredNumSubGroups = 0;
    p->requiredSubgroupSize = 0;
    p->maxSubgroupSize = 1;
    p->maxNumSubgroups = RD_MAX_GROUP_SIZE;
    p->localMemSize = 0;
    p->privateMemSize = 0;
    p->spillMemSize = 0;
    if (k->cm) {
        const rd_cm_kernel_t *cm = k->cm;
        p->requiredGroupSizeX = cm->reqd_group_size[0];
        p->requiredGroupSizeY = cm->reqd_group_size[1];
        p->requiredGroupSizeZ = cm->reqd_group_size[2];
        p->requiredSubgroupSize = cm->reqd_sg_size;
        p->maxSubgroupSize = cm->reqd_sg_size ? cm->reqd_sg_size : RD_DEFAULT_SG_SIZE;
        p->maxNumSubgroups = (RD_MAX_GROUP_SIZE + p->maxSubgroupSize - 1) / p->maxSubgroupSize;
        p->localMemSize = cm->local_bytes;
        p->privateMemSize = cm->private_bytes;
    }
    uint64_t kid = rd_hash(k->module->id, k->name, strlen(k->name));
    memset(&p->uuid, 0, sizeof p->uuid);
    memcpy(p->uuid.kid, &kid, sizeof kid);
    memcpy(p->uuid.mid, &k->module->id, sizeof k->module->id);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeKernelGetSourceAttributes(ze_kernel_handle_t hKernel, uint32_t *pSize,
                                                      char **pString)
{
    RD_HANDLE(rd_kernel_t, k, hKernel, RD_MAGIC_KERNEL);
    RD_NOT_NULL(pSize);
    /* Native kernels carry no source attributes: the empty string. The
     * string is the module's; it lives as long as the kernel. */
    static char none[] = "";
    char *text = k->cm && k->cm->attributes ? (char *)k->cm->attributes : none;
    if (pString)
        *pString = text;
    *pSize = (uint32_t)strlen(text) + 1;
    return ZE_RESULT_SUCCESS;
}

static int group_size_valid(uint32_t x, uint32_t y, uint32_t z)
{
    if (x == 0 || y == 0 || z == 0 || x > RD_MAX_GROUP_SIZE || y > RD_MAX_GROUP_SIZE ||
        z > RD_MAX_GROUP_SIZE)
        return 0;
    return (uint64_t)x * y * z <= RD_MAX_GROUP_SIZE;
}

ze_result_t ZE_APICALL rd_zeKernelSetGroupSize(ze_kernel_handle_t hKernel, uint32_t groupSizeX,
                                               uint32_t groupSizeY, uint32_t groupSizeZ)
{
    RD_HANDLE(rd_kernel_t, k, hKernel, RD_MAGIC_KERNEL);
    if (!group_size_valid(groupSizeX, groupSizeY, groupSizeZ))
        return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
    const uint32_t *reqd = k->cm ? k->cm->reqd_group_size : NULL;
    if (reqd && reqd[0] &&
        (groupSizeX != reqd[0] || groupSizeY != reqd[1] || groupSizeZ != reqd[2]))
        return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
    k->group_size[0] = groupSizeX;
    k->group_size[1] = groupSizeY;
    k->group_size[2] = groupSizeZ;
    return ZE_RESULT_SUCCESS;
}

/* The largest divisor of global that is at most limit. */
static uint32_t largest_divisor(uint32_t global, uint32_t limit)
{
    for (uint32_t d = limit < global ? limit : global; d > 1; d--)
        if (global % d == 0)
            return d;
    return 1;
}

/* Work-items per group the driver prefers: enough to amortise a call of the
 * kernel entry, few enough to leave groups for every pool thread. */
#define RD_PREFERRED_GROUP_SIZE 256u

ze_result_t ZE_APICALL rd_zeKernelSuggestGroupSize(ze_kernel_handle_t hKernel, uint32_t globalSizeX,
                                                   uint32_t globalSizeY, uint32_t globalSizeZ,
                                                   uint32_t *groupSizeX, uint32_t *groupSizeY,
                                                   uint32_t *groupSizeZ)
{
    RD_HANDLE(rd_kernel_t, k, hKernel, RD_MAGIC_KERNEL);
    RD_NOT_NULL(groupSizeX);
    RD_NOT_NULL(groupSizeY);
    RD_NOT_NULL(groupSizeZ);
    if (globalSizeX == 0 || globalSizeY == 0 || globalSizeZ == 0)
        return ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION;
    if (k->cm && k->cm->reqd_group_size[0]) { /* the only size the kernel runs with */
        *groupSizeX = k->cm->reqd_group_size[0];
        *groupSizeY = k->cm->reqd_group_size[1];
        *groupSizeZ = k->cm->reqd_group_size[2];
        return ZE_RESULT_SUCCESS;
    }
    /* Sizes that divide the global size, so that every group is full. */
    uint32_t x = largest_divisor(globalSizeX, RD_PREFERRED_GROUP_SIZE);
    uint32_t y = largest_divisor(globalSizeY, RD_PREFERRED_GROUP_SIZE / x);
    uint32_t z = largest_divisor(globalSizeZ, RD_PREFERRED_GROUP_SIZE / (x * y));
    *groupSizeX = x;
    *groupSizeY = y;
    *groupSizeZ = z;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeKernelSuggestMaxCooperativeGroupCount(ze_kernel_handle_t hKernel,
                                                                  uint32_t *totalGroupCount)
{
    RD_HANDLE(rd_kernel_t, k, hKernel, RD_MAGIC_KERNEL);
    RD_NOT_NULL(totalGroupCount);
    /* Groups that can run at the same time: one per core. */
    *totalGroupCount = k->module->driver->host.cores;
    return ZE_RESULT_SUCCESS;
}

/* A compiled kernel's argument: by value (exact size, a value), a global
 * or constant pointer (8 bytes, a null value for a null pointer), local
 * memory (its size, a null value). */
static ze_result_t set_cm_argument(rd_kernel_t *k, uint32_t i, size_t size, const void *value)
{
    const rd_cm_arg_t *a = &k->cm->args[i];
    switch (a->kind) {
    case RD_CM_ARG_LOCAL:
        if (size == 0)
            return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
        if (value)
            return ZE_RESULT_ERROR_INVALID_ARGUMENT; /* local memory is given by size alone */
        k->local_sizes[i] = (uint32_t)(size > UINT32_MAX ? UINT32_MAX : size);
        k->arg_states[i] = RD_ARG_LOCAL;
        return ZE_RESULT_SUCCESS;
    case RD_CM_ARG_GLOBAL:
    case RD_CM_ARG_CONSTANT:
        if (size != sizeof(void *))
            return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
        break;
    case RD_CM_ARG_VALUE:
        if (size != a->size)
            return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
        if (!value)
            return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
        break;
    default:
        return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE; /* images, samplers, pipes: not on this driver */
    }
    k->local_sizes[i] = 0;
    if (!value) {
        k->arg_states[i] = RD_ARG_NULL;
        return ZE_RESULT_SUCCESS;
    }
    memcpy(k->arg_values + k->arg_offsets[i], value, size);
    k->arg_states[i] = RD_ARG_VALUE;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeKernelSetArgumentValue(ze_kernel_handle_t hKernel, uint32_t argIndex,
                                                   size_t argSize, const void *pArgValue)
{
    RD_HANDLE(rd_kernel_t, k, hKernel, RD_MAGIC_KERNEL);
    if (argIndex >= k->num_args)
        return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX;
    if (k->cm)
        return set_cm_argument(k, argIndex, argSize, pArgValue);
    if (argSize != k->abi->arg_sizes[argIndex])
        return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
    if (!pArgValue) {
        k->arg_states[argIndex] = RD_ARG_NULL;
        return ZE_RESULT_SUCCESS;
    }
    memcpy(k->arg_values + k->arg_offsets[argIndex], pArgValue, argSize);
    k->arg_states[argIndex] = RD_ARG_VALUE;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeKernelSetIndirectAccess(ze_kernel_handle_t hKernel,
                                                    ze_kernel_indirect_access_flags_t flags)
{
    RD_HANDLE(rd_kernel_t, k, hKernel, RD_MAGIC_KERNEL);
    if (flags > 0x7)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    k->indirect_access = flags; /* all memory is reachable anyway */
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeKernelGetIndirectAccess(ze_kernel_handle_t hKernel,
                                                    ze_kernel_indirect_access_flags_t *pFlags)
{
    RD_HANDLE(rd_kernel_t, k, hKernel, RD_MAGIC_KERNEL);
    RD_ANSWER(pFlags, k->indirect_access);
}

ze_result_t ZE_APICALL rd_zeKernelSetCacheConfig(ze_kernel_handle_t hKernel,
                                                 ze_cache_config_flags_t flags)
{
    RD_CHECK(hKernel, RD_MAGIC_KERNEL);
    if (flags > 0x3)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    return ZE_RESULT_SUCCESS; /* a hint; the host's caches are not configurable */
}
