/*
 * t_driver_subgroup.c: k_subgroup.cl through the real loader, the reference
 * driver's compiler and its scheduler (fibers, sub-group lockstep, the
 * exchange areas), passed as OpenCL C source with
 * intel_reqd_sub_group_size 8, 16 and 32, and as SPIR-V compiled at build
 * time (clang-15, llvm-spirv-15), groups with a partial last sub-group too;
 * every result against zt_subgroup_ref.c.
 * Usage: builtins_driver_subgroup k_subgroup.cl [SPIRV_PREFIX]
 *   (SPIRV_PREFIX<size>.spv for each size, when llvm-spirv-15 was there)
 */
#include "zcl_check.h"
#include "zt_subgroup_ref.h"

#include <level_zero/ze_api.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OK(call) \
    do { \
        ze_result_t r_ = (call); \
        if (r_ != ZE_RESULT_SUCCESS) { \
            fprintf(stderr, "%s:%d: %s returned 0x%x\n", __FILE__, __LINE__, #call, (unsigned)r_); \
            exit(1); \
        } \
    } while (0)

typedef struct env {
    ze_context_handle_t ctx;
    ze_device_handle_t dev;
    ze_command_list_handle_t list;
    char *src;
    size_t src_len;
    const char *spirv_prefix; /* null: OpenCL C source only */
} env_t;

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *s = malloc(1 << 20);
    if (!f || !s) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    *len = fread(s, 1, (1 << 20) - 1, f);
    s[*len] = 0;
    fclose(f);
    return s;
}

/* The module of sub-group size sgs: from the source, or from its SPIR-V. */
static ze_module_handle_t build(const env_t *e, uint32_t sgs, int spirv)
{
    char flags[64], path[4096];
    size_t len = e->src_len;
    char *il = e->src;
    snprintf(flags, sizeof flags, spirv ? "" : "-cl-std=CL3.0 -DZT_SGS=%u", sgs);
    if (spirv) {
        snprintf(path, sizeof path, "%s%u.spv", e->spirv_prefix, sgs);
        il = read_file(path, &len);
    }
    ze_module_desc_t md = {ZE_STRUCTURE_TYPE_MODULE_DESC,
                           NULL,
                           spirv ? ZE_MODULE_FORMAT_IL_SPIRV : (ze_module_format_t)3,
                           len,
                           (const uint8_t *)il,
                           flags,
                           NULL};
    ze_module_handle_t mod = NULL;
    ze_module_build_log_handle_t log = NULL;
    if (zeModuleCreate(e->ctx, e->dev, &md, &mod, &log) != ZE_RESULT_SUCCESS) {
        size_t n = 0;
        zeModuleBuildLogGetString(log, &n, NULL);
        char *s = calloc(1, n + 1);
        zeModuleBuildLogGetString(log, &n, s);
        fprintf(stderr, "zeModuleCreate (%s, size %u) failed:\n%s\n", spirv ? "SPIR-V" : "OpenCL C",
                sgs, s);
        exit(1);
    }
    OK(zeModuleBuildLogDestroy(log));
    if (il != e->src)
        free(il);
    return mod;
}

static void run(const env_t *e, uint32_t groups, uint32_t local, uint32_t sgs, int spirv)
{
    ze_module_handle_t mod = build(e, sgs, spirv);
    ze_kernel_desc_t kd = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, "zt_subgroup"};
    ze_kernel_handle_t k;
    OK(zeKernelCreate(mod, &kd, &k));
    ze_kernel_properties_t kp = {.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    OK(zeKernelGetProperties(k, &kp));
    if (kp.requiredSubgroupSize != sgs)
        zcl_fail("requiredSubgroupSize %u, want %u", kp.requiredSubgroupSize, sgs);
    uint32_t total = groups * local;
    ze_host_mem_alloc_desc_t hd = {.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    int *o;
    uint32_t *blk, *wo;
    OK(zeMemAllocHost(e->ctx, &hd, (size_t)total * ZT_SUBGROUP_FIELDS * 4, 64, (void **)&o));
    OK(zeMemAllocHost(e->ctx, &hd, (size_t)total * 16, 64, (void **)&blk));
    OK(zeMemAllocHost(e->ctx, &hd, (size_t)total * 32, 64, (void **)&wo));
    memset(o, 0, (size_t)total * ZT_SUBGROUP_FIELDS * 4);
    memset(wo, 0, (size_t)total * 32);
    for (uint32_t i = 0; i < total * 4; i++)
        blk[i] = i * 2654435761u;
    OK(zeKernelSetArgumentValue(k, 0, sizeof o, &o));
    OK(zeKernelSetArgumentValue(k, 1, sizeof blk, &blk));
    OK(zeKernelSetArgumentValue(k, 2, sizeof wo, &wo));
    OK(zeKernelSetGroupSize(k, local, 1, 1));
    ze_group_count_t gc = {groups, 1, 1};
    OK(zeCommandListAppendLaunchKernel(e->list, k, &gc, NULL, 0, NULL));
    zt_subgroup_check(o, blk, wo, total, local, sgs);
    OK(zeMemFree(e->ctx, o));
    OK(zeMemFree(e->ctx, blk));
    OK(zeMemFree(e->ctx, wo));
    OK(zeKernelDestroy(k));
    OK(zeModuleDestroy(mod));
}

int main(int argc, char **argv)
{
    env_t e;
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: builtins_driver_subgroup k_subgroup.cl [SPIRV_PREFIX]\n");
        return 2;
    }
    e.src = read_file(argv[1], &e.src_len);
    e.spirv_prefix = argc == 3 ? argv[2] : NULL;
    OK(zeInit(0));
    uint32_t n = 1;
    ze_driver_handle_t drv;
    OK(zeDriverGet(&n, &drv));
    n = 1;
    OK(zeDeviceGet(drv, &n, &e.dev));
    ze_context_desc_t cd = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    OK(zeContextCreate(drv, &cd, &e.ctx));
    ze_command_queue_desc_t qd = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    OK(zeCommandListCreateImmediate(e.ctx, e.dev, &qd, &e.list));
    static const uint32_t sizes[] = {8, 16, 32};
    for (int spirv = 0; spirv <= (e.spirv_prefix != NULL); spirv++)
        for (int i = 0; i < 3; i++) {
            run(&e, 3, sizes[i] * 2, sizes[i], spirv);
            run(&e, 2, sizes[i] * 2 + sizes[i] / 2, sizes[i], spirv); /* a partial last sub-group */
        }
    OK(zeCommandListDestroy(e.list));
    OK(zeContextDestroy(e.ctx));
    free(e.src);
    return zcl_report("t_driver_subgroup");
}
