/* oneDNN 2.x memory descriptors (a public struct): their sizes, whether
 * memory can be made over one, and the arguments' shapes for traces (see
 * dnnl_compat.h; dnnl_compat_md3.c is the same for 3.x). */
#include "dnnl_compat.h"

size_t compat_md_size(dnnl_ze_interop_memory_desc_t md)
{
    return md ? dnnl_memory_desc_get_size(md) : 0;
}

const char *compat_md_unfit_for_memory(dnnl_ze_interop_memory_desc_t md)
{
    if (md->format_kind == dnnl_format_kind_any)
        return "has format_kind any: query the primitive for its layout first";
    for (int i = 0; i < md->ndims && i < DNNL_MAX_NDIMS; i++) {
        if (md->dims[i] == DNNL_RUNTIME_DIM_VAL)
            return "has runtime dimensions";
        if (md->format_kind == dnnl_blocked &&
            md->format_desc.blocking.strides[i] == DNNL_RUNTIME_DIM_VAL)
            return "has runtime strides";
    }
    return NULL;
}

size_t compat_memory_size(const_dnnl_memory_t memory)
{
    const dnnl_memory_desc_t *md = NULL;
    if (dnnl_memory_get_memory_desc(memory, &md) != dnnl_success || !md)
        return 0;
    return dnnl_memory_desc_get_size(md);
}

int compat_memory_shape(const_dnnl_memory_t memory, dnnl_data_type_t *data_type, int *ndims,
                        dnnl_dim_t dims[DNNL_MAX_NDIMS])
{
    const dnnl_memory_desc_t *md = NULL;
    if (!memory || dnnl_memory_get_memory_desc(memory, &md) != dnnl_success || !md)
        return 0;
    *data_type = md->data_type;
    *ndims = md->ndims < DNNL_MAX_NDIMS ? md->ndims : DNNL_MAX_NDIMS;
    for (int d = 0; d < *ndims; d++)
        dims[d] = md->dims[d];
    return 1;
}
