/* oneDNN specifics common to 2.6 and 3.x (see dnnl_compat.h); what a
 * memory descriptor holds is in dnnl_compat_md2.c (2.x) or dnnl_compat_md3.c
 * (3.x). */
#include "dnnl_compat.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <oneapi/dnnl/dnnl_debug.h>

dnnl_status_t compat_primitive_info(const_dnnl_primitive_t primitive, compat_primitive_info_t *info)
{
    const_dnnl_primitive_desc_t pd = NULL;
    dnnl_status_t status = dnnl_primitive_get_primitive_desc(primitive, &pd);
    if (status != dnnl_success)
        return status;
    dnnl_primitive_kind_t kind = dnnl_undefined_primitive;
    status = dnnl_primitive_desc_query(pd, dnnl_query_primitive_kind, 0, &kind);
    if (status != dnnl_success)
        return status;
    status = dnnl_primitive_desc_query(pd, dnnl_query_engine, 0, &info->engine);
    if (status != dnnl_success)
        return status;
    info->impl = NULL;
    if (dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &info->impl) != dnnl_success ||
        !info->impl)
        info->impl = "unknown";
    info->kind = dnnl_prim_kind2str(kind);
    return dnnl_success;
}

int compat_arg_is_written(int arg, int forward_training)
{
    if (arg >= DNNL_ARG_DST_0 && arg < DNNL_ARG_WEIGHTS_0)
        return 1;
    if (arg >= DNNL_ARG_DIFF_DST_0 && arg < DNNL_ARG_DIFF_WEIGHTS_0)
        return 0; /* the gradient coming in */
    if (arg >= DNNL_ARG_DIFF_SRC_0 && arg <= DNNL_ARG_DIFF_SHIFT)
        return 1;
    if (arg >= DNNL_ARG_MULTIPLE_DST && arg < DNNL_ARG_ATTR_ZERO_POINTS)
        return 1;
    return arg == DNNL_ARG_SCRATCHPAD || (arg == DNNL_ARG_WORKSPACE && forward_training);
}

int compat_is_forward_training(const_dnnl_primitive_t primitive)
{
    const_dnnl_primitive_desc_t pd = NULL;
    dnnl_prop_kind_t prop = dnnl_prop_kind_undef;
    return dnnl_primitive_get_primitive_desc(primitive, &pd) == dnnl_success &&
           dnnl_primitive_desc_query(pd, dnnl_query_prop_kind, 0, &prop) == dnnl_success &&
           prop == dnnl_forward_training;
}

void compat_dnnl_version(compat_version_t *version)
{
    const dnnl_version_t *v = dnnl_version();
    version->major = (uint32_t)v->major;
    version->minor = (uint32_t)v->minor;
    version->patch = (uint32_t)v->patch;
    version->hash = v->hash ? v->hash : "";
}

const char *compat_arg_name(int arg)
{
    switch (arg) {
    case DNNL_ARG_SRC:
        return "DNNL_ARG_SRC";
    case DNNL_ARG_SRC_1:
        return "DNNL_ARG_SRC_1";
    case DNNL_ARG_DST:
        return "DNNL_ARG_DST";
    case DNNL_ARG_WEIGHTS:
        return "DNNL_ARG_WEIGHTS";
    case DNNL_ARG_BIAS:
        return "DNNL_ARG_BIAS";
    case DNNL_ARG_SCRATCHPAD:
        return "DNNL_ARG_SCRATCHPAD";
    case DNNL_ARG_WORKSPACE:
        return "DNNL_ARG_WORKSPACE";
    case DNNL_ARG_DIFF_SRC:
        return "DNNL_ARG_DIFF_SRC";
    case DNNL_ARG_DIFF_DST:
        return "DNNL_ARG_DIFF_DST";
    case DNNL_ARG_DIFF_WEIGHTS:
        return "DNNL_ARG_DIFF_WEIGHTS";
    default:
        return "argument";
    }
}

void compat_describe_args(int nargs, const dnnl_exec_arg_t *args, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = 0;
    for (int i = 0; i < nargs && n < cap; i++) {
        dnnl_data_type_t data_type;
        int ndims = 0;
        dnnl_dim_t dims[DNNL_MAX_NDIMS];
        if (args[i].arg == DNNL_ARG_SCRATCHPAD ||
            !compat_memory_shape(args[i].memory, &data_type, &ndims, dims))
            continue;
        const char *name = compat_arg_name(args[i].arg);
        char lower[32];
        size_t k = 0;
        /* "DNNL_ARG_SRC_1" -> "src_1" */
        for (const char *p = strncmp(name, "DNNL_ARG_", 9) ? name : name + 9;
             *p && k < sizeof lower - 1; p++)
            lower[k++] = (char)tolower((unsigned char)*p);
        lower[k] = 0;
        int w =
            snprintf(out + n, cap - n, "%s%s %s ", n ? ", " : "", lower, dnnl_dt2str(data_type));
        for (int d = 0; w > 0 && (size_t)w < cap - n && d < ndims; d++) {
            n += (size_t)w;
            w = snprintf(out + n, cap - n, d ? "x%lld" : "%lld", (long long)dims[d]);
        }
        if (w > 0)
            n += (size_t)w;
    }
    if (n >= cap)
        out[cap - 1] = 0;
}

dnnl_status_t compat_instance_for_this_thread(const_dnnl_primitive_t primitive,
                                              dnnl_primitive_t *instance)
{
    *instance = NULL;
    const_dnnl_primitive_desc_t pd = NULL;
    dnnl_status_t status = dnnl_primitive_get_primitive_desc(primitive, &pd);
    if (status != dnnl_success)
        return status;
    const_dnnl_primitive_attr_t attr = NULL;
    dnnl_scratchpad_mode_t mode = dnnl_scratchpad_mode_library;
    if (dnnl_primitive_desc_get_attr(pd, &attr) == dnnl_success && attr)
        dnnl_primitive_attr_get_scratchpad_mode(attr, &mode);
    if (mode == dnnl_scratchpad_mode_user)
        return dnnl_success;
    /* In library mode this is the scratchpad's size (oneDNN 2.6). */
    int64_t scratchpad = -1;
    if (dnnl_primitive_desc_query(pd, dnnl_query_memory_consumption_s64, 0, &scratchpad) ==
            dnnl_success &&
        scratchpad == 0)
        return dnnl_success;
    return dnnl_primitive_create(instance, pd);
}
