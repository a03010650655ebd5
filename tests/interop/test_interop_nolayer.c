/* Without the zeil layer: validation limited to Level Zero queries (said
 * once, W150), and the host backend still runs primitives. */
#include <stdlib.h>
#include <string.h>

#include "interop_fixture.h"

/* oneDNN has no nhandles == 0: DNNL_MEMORY_ALLOCATE asks for a buffer. */
static void *allocate = DNNL_MEMORY_ALLOCATE;

START_TEST(limited_validation_is_said_once)
{
    ck_assert(!zeil_is_active());
    ifx_t f;
    ifx_open(&f);
    dnnl_engine_t second = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_engine_create(&second, f.env.driver, f.env.device, f.env.context));
    ck_assert_uint_eq(zeil_rule_count("ZEIL-W150"), 1);
    IFX_DNNL_OK(dnnl_engine_destroy(second));
    ifx_close(&f);
}
END_TEST

START_TEST(usm_is_checked_with_level_zero_queries)
{
    zt_set_system_memory(0); /* a device that cannot use plain host memory */
    ifx_t f;
    ifx_open(&f);
    const dnnl_dim_t dims[2] = {8, 8};
    dnnl_memory_desc_t md = ifx_md(2, dims);
    size_t size = dnnl_memory_desc_get_size(&md);
    dnnl_memory_t memory = NULL;
    void *host = malloc(size);
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E120",
                dnnl_ze_interop_memory_create(&memory, &md, f.engine, 1, &host));
    free(host);
    void *small = ifx_device_alloc(&f.env, size / 4);
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E121",
                dnnl_ze_interop_memory_create(&memory, &md, f.engine, 1, &small));
    ZT_OK(zeMemFree(f.env.context, small));
    ck_assert_ptr_null(memory);
    ifx_close(&f);
}
END_TEST

START_TEST(device_of_another_driver_is_found_by_enumeration)
{
    ZT_OK(zeInit(0));
    ze_driver_handle_t drivers[2];
    uint32_t n = 2;
    ZT_OK(zeDriverGet(&n, drivers));
    ck_assert_uint_eq(n, 2);
    ze_device_handle_t device1 = NULL;
    n = 1;
    ZT_OK(zeDeviceGet(drivers[1], &n, &device1));
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t context0 = NULL;
    ZT_OK(zeContextCreate(drivers[0], &desc, &context0));
    dnnl_engine_t engine = NULL;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E102",
                dnnl_ze_interop_engine_create(&engine, drivers[0], device1, context0));
    ZT_OK(zeContextDestroy(context0));
}
END_TEST

START_TEST(relu_runs_without_the_layer)
{
    ifx_t f;
    ifx_open(&f);
    const dnnl_dim_t dims[4] = {1, 16, 8, 8};
    dnnl_memory_desc_t md = ifx_md(4, dims);
    float x[1024], *dst = NULL;
    for (int i = 0; i < 1024; i++)
        x[i] = (float)((i * 7) % 19 - 9);
    dnnl_memory_t src = ifx_memory(&f, &md, x, NULL), out = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_memory_create(&out, &md, f.engine, 1, &allocate));
    IFX_DNNL_OK(dnnl_memory_get_data_handle(out, (void **)&dst));
    dnnl_primitive_t relu = ifx_eltwise(f.engine, &md, dnnl_eltwise_relu, 0, 0);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, out}};
    ze_event_handle_t done = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_primitive_execute(relu, f.stream, 2, args, 0, NULL, &done));
    ifx_wait(done);
    for (int i = 0; i < 1024; i++)
        ck_assert_float_eq(dst[i], x[i] > 0 ? x[i] : 0.0f);
    IFX_DNNL_OK(dnnl_primitive_destroy(relu));
    IFX_DNNL_OK(dnnl_memory_destroy(src));
    IFX_DNNL_OK(dnnl_memory_destroy(out));
    ifx_close(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interop_nolayer");
    TCase *tc = tcase_create("nolayer");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, limited_validation_is_said_once);
    tcase_add_test(tc, usm_is_checked_with_level_zero_queries);
    tcase_add_test(tc, device_of_another_driver_is_found_by_enumeration);
    tcase_add_test(tc, relu_runs_without_the_layer);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
