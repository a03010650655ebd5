/* oneDNN 3.x memory descriptors (opaque, read through
 * dnnl_memory_desc_query): their sizes, whether memory can be made over one,
 * and an argument's shape for traces (see dnnl_compat.h;
 * dnnl_compat_md2.c is the same for 2.x). */
#include "dnnl_compat.h"

size_t compat_md_size(dnnl_ze_interop_memory_desc_t md)
{
    return md ? dnnl_memory_desc_get_size(md) : 0;
}

const char *compat_md_unfit_for_memory(dnnl_ze_interop_memory_desc_t md)
{
    dnnl_format_kind_t kind = dnnl_format_kind_undef;
    int ndims = 0;
    const dnnl_dims_t *dims = NULL, *strides = NULL;
    if (dnnl_memory_desc_query(md, dnnl_query_format_kind, &kind) != dnnl_success ||
        dnnl_memory_desc_query(md, dnnl_query_ndims_s32, &ndims) != dnnl_success ||
        dnnl_memory_desc_query(md, dnnl_query_dims, &dims) != dnnl_success)
        return "cannot be queried";
    if (kind == dnnl_format_kind_any)
        return "has format_kind any: query the primitive for its layout first";
    if (kind == dnnl_blocked &&
        dnnl_memory_desc_query(md, dnnl_query_strides, &strides) != dnnl_success)
        strides = NULL;
    for (int i = 0; i < ndims && i < DNNL_MAX_NDIMS; i++) {
        if ((*dims)[i] == DNNL_RUNTIME_DIM_VAL)
            return "has runtime dimensions";
        if (strides && (*strides)[i] == DNNL_RUNTIME_DIM_VAL)
            return "has runtime strides";
    }
    return NULL;
}

size_t compat_memory_size(const_dnnl_memory_t memory)
{
    const_dnnl_memory_desc_t md = NULL;
    if (dnnl_memory_get_memory_desc(memory, &md) != dnnl_success || !md)
        return 0;
    return dnnl_memory_desc_get_size(md);
}

int compat_memory_shape(const_dnnl_memory_t memory, dnnl_data_type_t *data_type, int *ndims,
                        dnnl_dim_t dims[DNNL_MAX_NDIMS])
{
    const_dnnl_memory_desc_t md = NULL;
    const dnnl_dims_t *md_dims = NULL;
    if (!memory || dnnl_memory_get_memory_desc(memory, &md) != dnnl_success || !md ||
        dnnl_memory_desc_query(md, dnnl_query_data_type, data_type) != dnnl_success ||
        dnnl_memory_desc_query(md, dnnl_query_ndims_s32, ndims) != dnnl_success ||
        dnnl_memory_desc_query(md, dnnl_query_dims, &md_dims) != dnnl_success)
        return 0;
    if (*ndims > DNNL_MAX_NDIMS)
        *ndims = DNNL_MAX_NDIMS;
    for (int d = 0; d < *ndims; d++)
        dims[d] = (*md_dims)[d];
    return 1;
}
