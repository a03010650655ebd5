/*
 * Every C entry refuses what oneDNN's own dnnl_ze_interop_* refuse, with
 * the same status (oneDNN: the C entries in src/xpu/ze/capi/, which return
 * dnnl_invalid_arguments for a null pointer, an engine or stream that is
 * not Level Zero, nhandles < 1, args or deps null with a positive count,
 * a primitive of another engine, and a memory descriptor with format_kind
 * any or runtime dimensions); each refusal also names its rule.
 */
#include "interop_fixture.h"

static const dnnl_dim_t dims[1] = {16};

START_TEST(memory_create_checks_as_onednn)
{
    ifx_t f;
    ifx_open(&f);
    dnnl_memory_desc_t md = ifx_md(1, dims);
    dnnl_memory_t memory = NULL;
    void *allocate = DNNL_MEMORY_ALLOCATE;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E127",
                dnnl_ze_interop_memory_create(&memory, &md, f.engine, 0, &allocate));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E127",
                dnnl_ze_interop_memory_create(&memory, &md, f.engine, 0, NULL));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E127",
                dnnl_ze_interop_memory_create(&memory, &md, f.engine, -1, &allocate));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_memory_create(&memory, &md, f.engine, 1, NULL));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_memory_create(NULL, &md, f.engine, 1, &allocate));
    dnnl_dims_t full = {16};
    dnnl_memory_desc_t any;
    IFX_DNNL_OK(dnnl_memory_desc_init_by_tag(&any, 1, full, dnnl_f32, dnnl_format_tag_any));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E127",
                dnnl_ze_interop_memory_create(&memory, &any, f.engine, 1, &allocate));
    dnnl_dims_t runtime = {DNNL_RUNTIME_DIM_VAL};
    dnnl_memory_desc_t unknown;
    IFX_DNNL_OK(dnnl_memory_desc_init_by_tag(&unknown, 1, runtime, dnnl_f32, dnnl_a));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E127",
                dnnl_ze_interop_memory_create(&memory, &unknown, f.engine, 1, &allocate));
    dnnl_engine_t cpu = NULL;
    IFX_DNNL_OK(dnnl_engine_create(&cpu, dnnl_cpu, 0));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E105",
                dnnl_ze_interop_memory_create(&memory, &md, cpu, 1, &allocate));
    ck_assert_ptr_null(memory);
    /* and what it accepts: one handle, DNNL_MEMORY_ALLOCATE */
    IFX_DNNL_OK(dnnl_ze_interop_memory_create(&memory, &md, f.engine, 1, &allocate));
    IFX_DNNL_OK(dnnl_memory_destroy(memory));
    IFX_DNNL_OK(dnnl_engine_destroy(cpu));
    ifx_close(&f);
}
END_TEST

START_TEST(engine_and_stream_entries_check_as_onednn)
{
    ifx_t f;
    ifx_open(&f);
    dnnl_engine_t engine = NULL, cpu = NULL;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_engine_create(NULL, f.env.driver, f.env.device, f.env.context));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_engine_create(&engine, NULL, f.env.device, f.env.context));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_engine_create(&engine, f.env.driver, NULL, f.env.context));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_engine_create(&engine, f.env.driver, f.env.device, NULL));
    ck_assert_ptr_null(engine);
    IFX_DNNL_OK(dnnl_engine_create(&cpu, dnnl_cpu, 0));
    ze_context_handle_t context = NULL;
    ze_device_handle_t device = NULL;
    ze_driver_handle_t driver = NULL;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E105",
                dnnl_ze_interop_engine_get_context(cpu, &context));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E105",
                dnnl_ze_interop_engine_get_device(cpu, &device));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E105",
                dnnl_ze_interop_engine_get_driver(cpu, &driver));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_engine_get_context(f.engine, NULL));
    dnnl_stream_t stream = NULL;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_stream_create(NULL, f.engine, f.list, 0));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_stream_create(&stream, f.engine, NULL, 0));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E105",
                dnnl_ze_interop_stream_create(&stream, cpu, f.list, 0));
    ck_assert_ptr_null(stream);
    ze_command_list_handle_t list = NULL;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_stream_get_list(f.stream, NULL));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101", dnnl_ze_interop_stream_get_list(NULL, &list));
    IFX_DNNL_OK(dnnl_engine_destroy(cpu));
    ifx_close(&f);
}
END_TEST

START_TEST(execute_checks_as_onednn)
{
    ifx_t f;
    ifx_open(&f);
    dnnl_memory_desc_t md = ifx_md(1, dims);
    dnnl_primitive_t relu = ifx_eltwise(f.engine, &md, dnnl_eltwise_relu, 0, 0);
    ze_event_handle_t done = NULL;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_primitive_execute(NULL, f.stream, 0, NULL, 0, NULL, &done));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_primitive_execute(relu, NULL, 0, NULL, 0, NULL, &done));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_primitive_execute(relu, f.stream, 2, NULL, 0, NULL, &done));
    dnnl_memory_t src = ifx_memory(&f, &md, NULL, NULL), dst = ifx_memory(&f, &md, NULL, NULL);
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_primitive_execute(relu, f.stream, 2, args, 1, NULL, &done));
    /* a primitive of another engine */
    dnnl_engine_t other = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_engine_create(&other, f.env.driver, f.env.device, f.env.context));
    dnnl_primitive_t foreign = ifx_eltwise(other, &md, dnnl_eltwise_relu, 0, 0);
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E132",
                dnnl_ze_interop_primitive_execute(foreign, f.stream, 2, args, 0, NULL, &done));
    /* return_event may be null, as in oneDNN */
    IFX_DNNL_OK(dnnl_ze_interop_primitive_execute(relu, f.stream, 2, args, 0, NULL, NULL));
    IFX_DNNL_OK(dnnl_stream_wait(f.stream));
    IFX_DNNL_OK(dnnl_primitive_destroy(foreign));
    IFX_DNNL_OK(dnnl_primitive_destroy(relu));
    IFX_DNNL_OK(dnnl_memory_destroy(src));
    IFX_DNNL_OK(dnnl_memory_destroy(dst));
    IFX_DNNL_OK(dnnl_engine_destroy(other));
    ifx_close(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interop_onednn_arguments");
    TCase *tc = tcase_create("arguments");
    tcase_add_test(tc, memory_create_checks_as_onednn);
    tcase_add_test(tc, engine_and_stream_entries_check_as_onednn);
    tcase_add_test(tc, execute_checks_as_onednn);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
