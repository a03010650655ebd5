/* Built with libze_loader ahead of libzeil_interop in the link order (and
 * libdnnl after it, as it must be): the loader's zeEventHostSynchronize
 * comes first for the program, zeil's own waits still reach it, and
 * executes, waits and results are as usual. */
#include <string.h>

#include "interop_fixture.h"

START_TEST(waits_work_with_the_loader_first)
{
    ifx_t f;
    ifx_open(&f);
    const dnnl_dim_t dims[1] = {64};
    dnnl_memory_desc_t md = ifx_md(1, dims);
    float in[64];
    for (int i = 0; i < 64; i++)
        in[i] = (float)(i - 32);
    float *out = NULL;
    dnnl_memory_t src = ifx_memory(&f, &md, in, NULL), dst = ifx_memory(&f, &md, NULL, &out);
    dnnl_primitive_t relu = ifx_eltwise(f.engine, &md, dnnl_eltwise_relu, 0, 0);
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
    dnnl_stream_t stream = NULL;
    IFX_DNNL_OK(dnnl_stream_create(&stream, f.engine, dnnl_stream_default_flags));
    IFX_DNNL_OK(dnnl_primitive_execute(relu, stream, 2, args));
    IFX_DNNL_OK(dnnl_stream_wait(stream));
    for (int i = 0; i < 64; i++)
        ck_assert_float_eq(out[i], in[i] > 0 ? in[i] : 0);
    ze_event_handle_t done = NULL;
    memset(out, 0, sizeof in);
    IFX_DNNL_OK(dnnl_ze_interop_primitive_execute(relu, stream, 2, args, 0, NULL, &done));
    ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    ck_assert_float_eq(out[63], 31);
    IFX_DNNL_OK(dnnl_stream_destroy(stream));
    IFX_DNNL_OK(dnnl_primitive_destroy(relu));
    IFX_DNNL_OK(dnnl_memory_destroy(src));
    IFX_DNNL_OK(dnnl_memory_destroy(dst));
    ifx_close(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interop_loader_first");
    TCase *tc = tcase_create("loader_first");
    tcase_add_test(tc, waits_work_with_the_loader_first);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
