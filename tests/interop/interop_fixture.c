/* Shared helpers of the interop suites (see interop_fixture.h). */
#include "interop_fixture.h"

#include <string.h>

ze_command_list_handle_t ifx_list(const zt_env_t *env, int in_order)
{
    return in_order ? zt_in_order_list(env) : zt_immediate_list(env, 0);
}

void ifx_open(ifx_t *f)
{
    memset(f, 0, sizeof *f);
    zt_open(&f->env);
    IFX_DNNL_OK(
        dnnl_ze_interop_engine_create(&f->engine, f->env.driver, f->env.device, f->env.context));
    f->list = ifx_list(&f->env, 1);
    IFX_DNNL_OK(dnnl_ze_interop_stream_create(&f->stream, f->engine, f->list, 0));
}

void ifx_close(ifx_t *f)
{
    if (f->stream)
        IFX_DNNL_OK(dnnl_stream_destroy(f->stream));
    if (f->list)
        ZT_OK(zeCommandListDestroy(f->list));
    if (f->engine)
        IFX_DNNL_OK(dnnl_engine_destroy(f->engine));
    zt_close(&f->env);
}

void *ifx_device_alloc(const zt_env_t *env, size_t size)
{
    ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    void *ptr = NULL;
    ZT_OK(zeMemAllocDevice(env->context, &desc, size, 64, env->device, &ptr));
    return ptr;
}

dnnl_memory_desc_t ifx_md(int ndims, const dnnl_dim_t *dims)
{
    static const dnnl_format_tag_t plain[] = {dnnl_format_tag_undef, dnnl_a, dnnl_ab, dnnl_abc,
                                              dnnl_abcd};
    dnnl_memory_desc_t md;
    ck_assert_int_le(ndims, 4);
    IFX_DNNL_OK(dnnl_memory_desc_init_by_tag(&md, ndims, dims, dnnl_f32, plain[ndims]));
    return md;
}

dnnl_memory_t ifx_memory(const ifx_t *f, const dnnl_memory_desc_t *md, const float *values,
                         float **ptr)
{
    size_t size = dnnl_memory_desc_get_size(md);
    float *buffer = ifx_device_alloc(&f->env, size);
    if (values)
        memcpy(buffer, values, size); /* the reference driver's device USM is host memory */
    else
        memset(buffer, 0, size);
    void *handle = buffer;
    dnnl_memory_t memory = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_memory_create(&memory, md, f->engine, 1, &handle));
    if (ptr)
        *ptr = buffer;
    return memory;
}

dnnl_primitive_t ifx_eltwise(dnnl_engine_t engine, const dnnl_memory_desc_t *md,
                             dnnl_alg_kind_t alg, float alpha, float beta)
{
    dnnl_eltwise_desc_t desc;
    IFX_DNNL_OK(
        dnnl_eltwise_forward_desc_init(&desc, dnnl_forward_inference, alg, md, alpha, beta));
    dnnl_primitive_desc_t pd = NULL;
    IFX_DNNL_OK(dnnl_primitive_desc_create(&pd, &desc, NULL, engine, NULL));
    dnnl_primitive_t primitive = NULL;
    IFX_DNNL_OK(dnnl_primitive_create(&primitive, pd));
    IFX_DNNL_OK(dnnl_primitive_desc_destroy(pd));
    return primitive;
}

const char *ifx_impl(const_dnnl_primitive_t primitive)
{
    const_dnnl_primitive_desc_t pd = NULL;
    IFX_DNNL_OK(dnnl_primitive_get_primitive_desc(primitive, &pd));
    const char *impl = NULL;
    IFX_DNNL_OK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl));
    return impl;
}

void ifx_wait(ze_event_handle_t event)
{
    ck_assert_ptr_nonnull(event);
    ZT_OK(zeEventHostSynchronize(event, 60ull * 1000 * 1000 * 1000));
}
