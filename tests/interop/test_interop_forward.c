/* The forward backend, against a STAND-IN for a oneDNN with its own Level
 * Zero runtime (standin_onednn_ze.c; no such oneDNN exists here), selected
 * with ZEIL_INTEROP_BACKEND=forward: every call is validated first, refused
 * calls never reach the stand-in, and forwarded executes are attributed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interop_fixture.h"

int standin_calls(const char *name);

START_TEST(engine_calls_are_validated_then_forwarded)
{
    zt_env_t env;
    zt_open(&env);
    dnnl_engine_t engine = NULL;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E103",
                dnnl_ze_interop_engine_create(&engine, env.driver, (ze_device_handle_t)env.context,
                                              env.context));
    ck_assert_int_eq(standin_calls("engine_create"), 0);
    IFX_DNNL_OK(dnnl_ze_interop_engine_create(&engine, env.driver, env.device, env.context));
    ck_assert_int_eq(standin_calls("engine_create"), 1);
    ze_context_handle_t context = NULL;
    ze_device_handle_t device = NULL;
    ze_driver_handle_t driver = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_engine_get_context(engine, &context));
    IFX_DNNL_OK(dnnl_ze_interop_engine_get_device(engine, &device));
    IFX_DNNL_OK(dnnl_ze_interop_engine_get_driver(engine, &driver));
    ck_assert_ptr_eq(context, env.context);
    ck_assert_ptr_eq(device, env.device);
    ck_assert_ptr_eq(driver, env.driver);
    ck_assert_int_eq(standin_calls("engine_get_context") + standin_calls("engine_get_device") +
                         standin_calls("engine_get_driver"),
                     3);

    size_t size = 0;
    IFX_DNNL_OK(dnnl_ze_interop_engine_get_cache_blob_id(env.driver, env.device, &size, NULL));
    ck_assert_uint_eq(size, 2);
    IFX_DNNL_OK(dnnl_ze_interop_engine_get_cache_blob(engine, &size, NULL));
    uint8_t *blob = malloc(size);
    IFX_DNNL_OK(dnnl_ze_interop_engine_get_cache_blob(engine, &size, blob));
    dnnl_engine_t cached = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_engine_create_from_cache_blob(&cached, env.driver, env.device,
                                                              env.context, size, blob));
    ck_assert_int_eq(standin_calls("engine_create_from_cache_blob:accepted"), 1);
    free(blob);
    IFX_DNNL_OK(dnnl_engine_destroy(cached));
    IFX_DNNL_OK(dnnl_engine_destroy(engine));
    zt_close(&env);
}
END_TEST

START_TEST(memory_is_validated_then_forwarded)
{
    zt_set_system_memory(0); /* a device that cannot use plain host memory */
    zt_env_t env;
    zt_open(&env);
    dnnl_engine_t engine = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_engine_create(&engine, env.driver, env.device, env.context));
    const dnnl_dim_t dims[1] = {32};
    dnnl_memory_desc_t md = ifx_md(1, dims);
    void *host = malloc(128);
    dnnl_memory_t memory = NULL;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E120",
                dnnl_ze_interop_memory_create(&memory, &md, engine, 1, &host));
    ck_assert_int_eq(standin_calls("memory_create"), 0);
    free(host);
    void *usm = ifx_device_alloc(&env, 128);
    IFX_DNNL_OK(dnnl_ze_interop_memory_create(&memory, &md, engine, 1, &usm));
    ck_assert_int_eq(standin_calls("memory_create"), 1);
    IFX_DNNL_OK(dnnl_memory_destroy(memory));
    ZT_OK(zeMemFree(env.context, usm));
    IFX_DNNL_OK(dnnl_engine_destroy(engine));
    zt_close(&env);
}
END_TEST

typedef struct attributed {
    int count;
    char primitive[32];
    char impl[64];
} attributed_t;

static int collect(const zeil_record_t *record, void *user)
{
    attributed_t *seen = user;
    seen->count++;
    snprintf(seen->primitive, sizeof seen->primitive, "%s",
             record->primitive ? record->primitive : "");
    snprintf(seen->impl, sizeof seen->impl, "%s", record->impl ? record->impl : "");
    return 0;
}

START_TEST(streams_need_in_order_lists_and_executes_are_attributed)
{
    ifx_t f;
    memset(&f, 0, sizeof f);
    zt_open(&f.env);
    IFX_DNNL_OK(
        dnnl_ze_interop_engine_create(&f.engine, f.env.driver, f.env.device, f.env.context));
    ze_command_list_desc_t rdesc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0, 0};
    ze_command_list_handle_t regular = NULL;
    ZT_OK(zeCommandListCreate(f.env.context, f.env.device, &rdesc, &regular));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E110",
                dnnl_ze_interop_stream_create(&f.stream, f.engine, regular, 0));
    ze_command_list_handle_t unordered = ifx_list(&f.env, 0);
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E114",
                dnnl_ze_interop_stream_create(&f.stream, f.engine, unordered, 0));
    ck_assert_int_eq(standin_calls("stream_create"), 0);

    f.list = ifx_list(&f.env, 1);
    zeil_handle_info_t info;
    ck_assert(zeil_lookup_handle(f.list, &info));
    ck_assert(info.is_in_order);
    {
        IFX_DNNL_OK(dnnl_ze_interop_stream_create(&f.stream, f.engine, f.list, 0));
        ck_assert_int_eq(standin_calls("stream_create"), 1);
        const dnnl_dim_t dims[1] = {32};
        dnnl_memory_desc_t md = ifx_md(1, dims);
        float x[32], *dst = NULL;
        for (int i = 0; i < 32; i++)
            x[i] = (float)(i - 16);
        dnnl_memory_t src = ifx_memory(&f, &md, x, NULL), out = ifx_memory(&f, &md, NULL, &dst);
        dnnl_primitive_t relu = ifx_eltwise(f.engine, &md, dnnl_eltwise_relu, 0, 0);
        dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, out}};
        ze_event_handle_t unknown = (ze_event_handle_t)(uintptr_t)0x1000, done = NULL;
        IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E130",
                    dnnl_ze_interop_primitive_execute(relu, f.stream, 2, args, 1, &unknown, &done));
        ck_assert_int_eq(standin_calls("primitive_execute"), 0);
        IFX_DNNL_OK(dnnl_ze_interop_primitive_execute(relu, f.stream, 2, args, 0, NULL, &done));
        ifx_wait(done);
        for (int i = 0; i < 32; i++)
            ck_assert_float_eq(dst[i], x[i] > 0 ? x[i] : 0.0f);
        attributed_t seen = {0};
        zeil_records_of_stream((uint64_t)(uintptr_t)f.stream, collect, &seen);
        ck_assert_int_eq(seen.count, 1);
        ck_assert_str_eq(seen.primitive, "eltwise");
        ck_assert_str_eq(seen.impl, ifx_impl(relu));
        IFX_DNNL_OK(dnnl_primitive_destroy(relu));
        IFX_DNNL_OK(dnnl_memory_destroy(src));
        IFX_DNNL_OK(dnnl_memory_destroy(out));
    }
    ZT_OK(zeCommandListDestroy(regular));
    ZT_OK(zeCommandListDestroy(unordered));
    ifx_close(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interop_forward");
    TCase *tc = tcase_create("forward");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, engine_calls_are_validated_then_forwarded);
    tcase_add_test(tc, memory_is_validated_then_forwarded);
    tcase_add_test(tc, streams_need_in_order_lists_and_executes_are_attributed);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
