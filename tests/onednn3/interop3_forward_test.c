/*
 * zeil's interop library built against oneDNN 3.13 (libzeil_interop_onednn3)
 * in front of oneDNN's own Level Zero runtime, on the reference driver
 * presented as a GPU: the device is not one zeil's host backend runs on, so
 * every dnnl_ze_interop_* is validated by zeil, then forwarded to oneDNN's.
 * That the objects are oneDNN's own is checked by calling oneDNN's functions
 * directly (dlsym in libdnnl.so.3). Case "forward" needs no kernels; case
 * "kernels" runs a primitive (the driver must compile oneDNN's OpenCL C).
 */
#include <oneapi/dnnl/dnnl.h>
#include <zeil/dnnl_ze.h>
#include <zeil/zeil.h>

#include "zt.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DNNL_OK(call) \
    do { \
        dnnl_status_t s_ = (call); \
        ck_assert_msg(s_ == dnnl_success, "%s returned %d", #call, (int)s_); \
    } while (0)

/* The call returns status and the rule fired exactly once more. */
#define REFUSED(status, rule, call) \
    do { \
        uint64_t before_ = zeil_rule_count(rule); \
        dnnl_status_t s_ = (call); \
        ck_assert_msg(s_ == (status), "%s returned %d, expected %s", #call, (int)s_, #status); \
        ck_assert_msg(zeil_rule_count(rule) == before_ + 1, "%s did not report %s", #call, rule); \
    } while (0)

/* oneDNN's own definition of a dnnl_ze_interop_* function (zeil's comes
 * first in the process). */
static void *onednn_own(const char *name)
{
    void *lib = dlopen("libdnnl.so.3", RTLD_LAZY | RTLD_NOLOAD);
    ck_assert_msg(lib != NULL, "libdnnl.so.3 is not loaded");
    void *f = dlsym(lib, name);
    dlclose(lib);
    ck_assert_msg(f != NULL, "libdnnl.so.3 has no %s", name);
    return f;
}

static ze_command_list_handle_t immediate_list(const zt_env_t *env, int in_order)
{
    ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                    NULL,
                                    0,
                                    0,
                                    in_order ? ZE_BIT(1) : 0,
                                    ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                    ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t list = NULL;
    ZT_OK(zeCommandListCreateImmediate(env->context, env->device, &desc, &list));
    return list;
}

static dnnl_memory_desc_t vector_md(dnnl_dim_t n)
{
    dnnl_memory_desc_t md = NULL;
    const dnnl_dims_t dims = {n};
    DNNL_OK(dnnl_memory_desc_create_with_tag(&md, 1, dims, dnnl_f32, dnnl_a));
    return md;
}

START_TEST(engine_is_onednns_own)
{
    zt_env_t env;
    zt_open(&env);
    dnnl_engine_t engine = NULL;
    REFUSED(dnnl_invalid_arguments, "ZEIL-E103",
            dnnl_ze_interop_engine_create(&engine, env.driver, (ze_device_handle_t)env.context,
                                          env.context));
    DNNL_OK(dnnl_ze_interop_engine_create(&engine, env.driver, env.device, env.context));
    dnnl_engine_kind_t kind = dnnl_any_engine;
    DNNL_OK(dnnl_engine_get_kind(engine, &kind));
    ck_assert_int_eq(kind, dnnl_gpu);
    ze_device_handle_t device = NULL;
    ze_context_handle_t context = NULL;
    DNNL_OK(dnnl_ze_interop_engine_get_device(engine, &device));
    DNNL_OK(dnnl_ze_interop_engine_get_context(engine, &context));
    ck_assert_ptr_eq(device, env.device);
    ck_assert_ptr_eq(context, env.context);
    /* oneDNN itself knows the engine as one of its Level Zero engines. */
    __typeof__(&dnnl_ze_interop_engine_get_device) own_get_device =
        (__typeof__(own_get_device))onednn_own("dnnl_ze_interop_engine_get_device");
    device = NULL;
    DNNL_OK(own_get_device(engine, &device));
    ck_assert_ptr_eq(device, env.device);
    DNNL_OK(dnnl_engine_destroy(engine));
    zt_close(&env);
}
END_TEST

START_TEST(cache_blob_round_trip)
{
    zt_env_t env;
    zt_open(&env);
    size_t id_size = 0;
    DNNL_OK(dnnl_ze_interop_engine_get_cache_blob_id(env.driver, env.device, &id_size, NULL));
    ck_assert_uint_gt(id_size, 0);
    uint8_t *id = malloc(id_size);
    DNNL_OK(dnnl_ze_interop_engine_get_cache_blob_id(env.driver, env.device, &id_size, id));
    free(id);
    dnnl_engine_t engine = NULL;
    DNNL_OK(dnnl_ze_interop_engine_create(&engine, env.driver, env.device, env.context));
    size_t size = 0;
    DNNL_OK(dnnl_ze_interop_engine_get_cache_blob(engine, &size, NULL));
    ck_assert_uint_gt(size, 0);
    uint8_t *blob = malloc(size);
    DNNL_OK(dnnl_ze_interop_engine_get_cache_blob(engine, &size, blob));
    dnnl_engine_t cached = NULL;
    DNNL_OK(dnnl_ze_interop_engine_create_from_cache_blob(&cached, env.driver, env.device,
                                                          env.context, size, blob));
    ze_device_handle_t device = NULL;
    DNNL_OK(dnnl_ze_interop_engine_get_device(cached, &device));
    ck_assert_ptr_eq(device, env.device);
    free(blob);
    DNNL_OK(dnnl_engine_destroy(cached));
    DNNL_OK(dnnl_engine_destroy(engine));
    zt_close(&env);
}
END_TEST

START_TEST(memory_is_validated_then_forwarded)
{
    setenv("ZEIL_CPU_SYSTEM_MEMORY", "0", 1); /* a device that cannot use plain host memory */
    zt_env_t env;
    zt_open(&env);
    dnnl_engine_t engine = NULL;
    DNNL_OK(dnnl_ze_interop_engine_create(&engine, env.driver, env.device, env.context));
    dnnl_memory_desc_t md = vector_md(32);
    void *host = malloc(128);
    dnnl_memory_t memory = NULL;
    REFUSED(dnnl_invalid_arguments, "ZEIL-E120",
            dnnl_ze_interop_memory_create(&memory, md, engine, 1, &host));
    free(host);
    ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    void *usm = NULL;
    ZT_OK(zeMemAllocDevice(env.context, &desc, 128, 64, env.device, &usm));
    DNNL_OK(dnnl_ze_interop_memory_create(&memory, md, engine, 1, &usm));
    void *handle = NULL;
    DNNL_OK(dnnl_memory_get_data_handle(memory, &handle));
    ck_assert_ptr_eq(handle, usm);
    DNNL_OK(dnnl_memory_destroy(memory));
    DNNL_OK(dnnl_memory_desc_destroy(md));
    ZT_OK(zeMemFree(env.context, usm));
    DNNL_OK(dnnl_engine_destroy(engine));
    zt_close(&env);
    unsetenv("ZEIL_CPU_SYSTEM_MEMORY");
}
END_TEST

START_TEST(streams_need_in_order_lists)
{
    zt_env_t env;
    zt_open(&env);
    dnnl_engine_t engine = NULL;
    DNNL_OK(dnnl_ze_interop_engine_create(&engine, env.driver, env.device, env.context));
    dnnl_stream_t stream = NULL;
    ze_command_list_desc_t rdesc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0, 0};
    ze_command_list_handle_t regular = NULL;
    ZT_OK(zeCommandListCreate(env.context, env.device, &rdesc, &regular));
    REFUSED(dnnl_invalid_arguments, "ZEIL-E110",
            dnnl_ze_interop_stream_create(&stream, engine, regular, 0));
    ze_command_list_handle_t unordered = immediate_list(&env, 0);
    REFUSED(dnnl_invalid_arguments, "ZEIL-E114",
            dnnl_ze_interop_stream_create(&stream, engine, unordered, 0));
    REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
            dnnl_ze_interop_stream_create(&stream, engine, NULL, 0));
    ze_command_list_handle_t list = immediate_list(&env, 1);
    DNNL_OK(dnnl_ze_interop_stream_create(&stream, engine, list, 0));
    ze_command_list_handle_t got = NULL;
    DNNL_OK(dnnl_ze_interop_stream_get_list(stream, &got));
    ck_assert_ptr_eq(got, list);
    /* oneDNN's own stream, on the user's list. */
    __typeof__(&dnnl_ze_interop_stream_get_list) own_get_list =
        (__typeof__(own_get_list))onednn_own("dnnl_ze_interop_stream_get_list");
    got = NULL;
    DNNL_OK(own_get_list(stream, &got));
    ck_assert_ptr_eq(got, list);
    DNNL_OK(dnnl_stream_destroy(stream));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeCommandListDestroy(unordered));
    ZT_OK(zeCommandListDestroy(regular));
    DNNL_OK(dnnl_engine_destroy(engine));
    zt_close(&env);
}
END_TEST

/* A stream oneDNN makes itself on a forward engine (dnnl_stream_create): zeil
 * has no record of it, so zeil's get_list refuses it (E115), while oneDNN's
 * own answers with the list it made. */
START_TEST(library_streams_are_onednns)
{
    zt_env_t env;
    zt_open(&env);
    dnnl_engine_t engine = NULL;
    DNNL_OK(dnnl_ze_interop_engine_create(&engine, env.driver, env.device, env.context));
    dnnl_stream_t stream = NULL;
    DNNL_OK(dnnl_stream_create(&stream, engine, dnnl_stream_in_order));
    ze_command_list_handle_t list = NULL;
    REFUSED(dnnl_invalid_arguments, "ZEIL-E115", dnnl_ze_interop_stream_get_list(stream, &list));
    __typeof__(&dnnl_ze_interop_stream_get_list) own_get_list =
        (__typeof__(own_get_list))onednn_own("dnnl_ze_interop_stream_get_list");
    DNNL_OK(own_get_list(stream, &list));
    ck_assert_ptr_nonnull(list);
    DNNL_OK(dnnl_stream_destroy(stream));
    DNNL_OK(dnnl_engine_destroy(engine));
    zt_close(&env);
}
END_TEST

/* What zeil recorded for the stream: each kernel with its primitive. */
typedef struct seen {
    int count;
    char kernel[128], primitive[64];
} seen_t;

static int collect(const zeil_record_t *record, void *user)
{
    seen_t *seen = user;
    if (seen->count++ == 0) {
        snprintf(seen->kernel, sizeof seen->kernel, "%s", record->kernel ? record->kernel : "");
        snprintf(seen->primitive, sizeof seen->primitive, "%s",
                 record->primitive ? record->primitive : "");
    }
    return 0; /* go on */
}

START_TEST(execute_runs_onednns_kernel)
{
    zt_env_t env;
    zt_open(&env);
    dnnl_engine_t engine = NULL;
    DNNL_OK(dnnl_ze_interop_engine_create(&engine, env.driver, env.device, env.context));
    ze_command_list_handle_t list = immediate_list(&env, 1);
    dnnl_stream_t stream = NULL;
    DNNL_OK(dnnl_ze_interop_stream_create(&stream, engine, list, 0));
    dnnl_memory_desc_t md = vector_md(64);
    ze_host_mem_alloc_desc_t hdesc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
    float *x = NULL, *y = NULL;
    ZT_OK(zeMemAllocHost(env.context, &hdesc, 64 * sizeof(float), 64, (void **)&x));
    ZT_OK(zeMemAllocHost(env.context, &hdesc, 64 * sizeof(float), 64, (void **)&y));
    for (int i = 0; i < 64; i++)
        x[i] = (float)(i - 32);
    dnnl_memory_t src = NULL, dst = NULL;
    DNNL_OK(dnnl_ze_interop_memory_create(&src, md, engine, 1, (void **)&x));
    DNNL_OK(dnnl_ze_interop_memory_create(&dst, md, engine, 1, (void **)&y));
    dnnl_primitive_desc_t pd = NULL;
    DNNL_OK(dnnl_eltwise_forward_primitive_desc_create(&pd, engine, dnnl_forward_inference,
                                                       dnnl_eltwise_relu, md, md, 0.f, 0.f, NULL));
    dnnl_primitive_t relu = NULL;
    DNNL_OK(dnnl_primitive_create(&relu, pd));
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
    ze_event_handle_t done = NULL;
    DNNL_OK(dnnl_ze_interop_primitive_execute(relu, stream, 2, args, 0, NULL, &done));
    /* oneDNN 3.13 returns no event on an in-order stream: wait for the stream. */
    if (done)
        ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    else
        DNNL_OK(dnnl_stream_wait(stream));
    for (int i = 0; i < 64; i++)
        ck_assert_float_eq(y[i], x[i] > 0 ? x[i] : 0.0f);
    seen_t seen = {0};
    zeil_records_of_stream((uint64_t)(uintptr_t)stream, collect, &seen);
    ck_assert_int_ge(seen.count, 1);
    ck_assert_str_eq(seen.primitive, "eltwise");
    ck_assert_str_ne(seen.kernel, "zeil_dnnl_primitive_execute"); /* oneDNN's own kernel */
    DNNL_OK(dnnl_primitive_destroy(relu));
    DNNL_OK(dnnl_primitive_desc_destroy(pd));
    DNNL_OK(dnnl_memory_destroy(src));
    DNNL_OK(dnnl_memory_destroy(dst));
    DNNL_OK(dnnl_memory_desc_destroy(md));
    DNNL_OK(dnnl_stream_destroy(stream));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeMemFree(env.context, x));
    ZT_OK(zeMemFree(env.context, y));
    DNNL_OK(dnnl_engine_destroy(engine));
    zt_close(&env);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interop3_forward");
    TCase *tc = tcase_create("forward");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, engine_is_onednns_own);
    tcase_add_test(tc, cache_blob_round_trip);
    tcase_add_test(tc, memory_is_validated_then_forwarded);
    tcase_add_test(tc, streams_need_in_order_lists);
    tcase_add_test(tc, library_streams_are_onednns);
    suite_add_tcase(s, tc);
    TCase *kernels = tcase_create("kernels");
    tcase_set_timeout(kernels, 300);
    tcase_add_test(kernels, execute_runs_onednns_kernel);
    suite_add_tcase(s, kernels);
    return zt_run_suite(s);
}
