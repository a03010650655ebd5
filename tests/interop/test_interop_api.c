/* Every dnnl_ze_interop_* function with the zeil layer active: success, and
 * each misuse refused with its rule. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interop_fixture.h"

/* oneDNN has no nhandles == 0: DNNL_MEMORY_ALLOCATE asks for a buffer. */
static void *allocate = DNNL_MEMORY_ALLOCATE;

static const dnnl_dim_t small_dims[4] = {1, 2, 4, 4};

START_TEST(engine_binds_the_level_zero_objects)
{
    ifx_t f;
    ifx_open(&f);
    ck_assert(zeil_is_active());
    ze_context_handle_t context = NULL;
    ze_device_handle_t device = NULL;
    ze_driver_handle_t driver = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_engine_get_context(f.engine, &context));
    IFX_DNNL_OK(dnnl_ze_interop_engine_get_device(f.engine, &device));
    IFX_DNNL_OK(dnnl_ze_interop_engine_get_driver(f.engine, &driver));
    ck_assert_ptr_eq(context, f.env.context);
    ck_assert_ptr_eq(device, f.env.device);
    ck_assert_ptr_eq(driver, f.env.driver);
    dnnl_engine_kind_t kind;
    IFX_DNNL_OK(dnnl_engine_get_kind(f.engine, &kind));
    ck_assert_int_eq(kind, dnnl_gpu); /* as oneDNN's Level Zero engines */
    ck_assert_int_eq(zeil_interop_engine_is_ze(f.engine), 1);
    dnnl_engine_t cpu = NULL;
    IFX_DNNL_OK(dnnl_engine_create(&cpu, dnnl_cpu, 0));
    IFX_DNNL_OK(dnnl_engine_get_kind(cpu, &kind));
    ck_assert_int_eq(kind, dnnl_cpu);
    ck_assert_int_eq(zeil_interop_engine_is_ze(cpu), 0);
    ck_assert_int_eq(zeil_interop_engine_is_ze(NULL), 0);
    IFX_DNNL_OK(dnnl_engine_destroy(cpu));
    ifx_close(&f);
}
END_TEST

START_TEST(engine_create_refuses_null_and_wrong_handles)
{
    zt_env_t env;
    zt_open(&env);
    dnnl_engine_t engine = NULL;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_engine_create(&engine, NULL, env.device, env.context));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_engine_create(&engine, env.driver, env.device, NULL));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_engine_create(NULL, env.driver, env.device, env.context));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E103",
                dnnl_ze_interop_engine_create(&engine, env.driver, (ze_device_handle_t)env.context,
                                              env.context));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E103",
                dnnl_ze_interop_engine_create(&engine, env.driver, env.device,
                                              (ze_context_handle_t)env.device));
    ze_context_handle_t dead = NULL;
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ZT_OK(zeContextCreate(env.driver, &desc, &dead));
    ZT_OK(zeContextDestroy(dead));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E103",
                dnnl_ze_interop_engine_create(&engine, env.driver, env.device, dead));
    ck_assert_ptr_null(engine);
    zt_close(&env);
}
END_TEST

START_TEST(getters_refuse_other_engines_and_destroyed_context)
{
    zt_env_t env;
    zt_open(&env);
    dnnl_engine_t plain = NULL;
    IFX_DNNL_OK(dnnl_engine_create(&plain, dnnl_cpu, 0));
    ze_context_handle_t context = NULL;
    ze_device_handle_t device = NULL;
    ze_driver_handle_t driver = NULL;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E105",
                dnnl_ze_interop_engine_get_context(plain, &context));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E105",
                dnnl_ze_interop_engine_get_device(plain, &device));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E105",
                dnnl_ze_interop_engine_get_driver(plain, &driver));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_engine_get_driver(NULL, &driver));
    IFX_DNNL_OK(dnnl_engine_destroy(plain));

    ze_context_handle_t doomed = NULL;
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ZT_OK(zeContextCreate(env.driver, &desc, &doomed));
    dnnl_engine_t engine = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_engine_create(&engine, env.driver, env.device, doomed));
    IFX_DNNL_OK(dnnl_ze_interop_engine_get_context(engine, &context));
    ck_assert_ptr_eq(context, doomed);
    ZT_OK(zeContextDestroy(doomed));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E106",
                dnnl_ze_interop_engine_get_context(engine, &context));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E106",
                dnnl_ze_interop_engine_get_device(engine, &device));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E106",
                dnnl_ze_interop_engine_get_driver(engine, &driver));
    /* The engine is not destroyed: its module died with the context. The
     * test's process ends here. */
    zt_close(&env);
}
END_TEST

START_TEST(stream_binds_an_in_order_immediate_list)
{
    ifx_t f;
    ifx_open(&f);
    ze_command_list_handle_t list = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_stream_get_list(f.stream, &list));
    ck_assert_ptr_eq(list, f.list);
    zeil_handle_info_t info;
    ck_assert(zeil_lookup_handle(f.list, &info));
    ck_assert_uint_eq(info.stream_id, (uint64_t)(uintptr_t)f.stream);
    dnnl_engine_t engine = NULL;
    IFX_DNNL_OK(dnnl_stream_get_engine(f.stream, &engine));
    ck_assert_ptr_eq(engine, f.engine);
    ifx_close(&f);
}
END_TEST

START_TEST(stream_create_refuses_unfit_lists)
{
    ifx_t f;
    ifx_open(&f);
    dnnl_stream_t stream = NULL;
    /* a regular list */
    ze_command_list_desc_t rdesc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0, 0};
    ze_command_list_handle_t regular = NULL;
    ZT_OK(zeCommandListCreate(f.env.context, f.env.device, &rdesc, &regular));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E110",
                dnnl_ze_interop_stream_create(&stream, f.engine, regular, 0));
    ZT_OK(zeCommandListDestroy(regular));
    /* a destroyed list */
    ze_command_list_handle_t dead = ifx_list(&f.env, 1);
    ZT_OK(zeCommandListDestroy(dead));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E112",
                dnnl_ze_interop_stream_create(&stream, f.engine, dead, 0));
    /* a list of another context */
    zt_env_t other = f.env;
    ze_context_desc_t cdesc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ZT_OK(zeContextCreate(f.env.driver, &cdesc, &other.context));
    ze_command_list_handle_t foreign = ifx_list(&other, 1);
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E111",
                dnnl_ze_interop_stream_create(&stream, f.engine, foreign, 0));
    ZT_OK(zeCommandListDestroy(foreign));
    ZT_OK(zeContextDestroy(other.context));
    /* an engine that is not an interop engine */
    dnnl_engine_t plain = NULL;
    IFX_DNNL_OK(dnnl_engine_create(&plain, dnnl_cpu, 0));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E105",
                dnnl_ze_interop_stream_create(&stream, plain, f.list, 0));
    IFX_DNNL_OK(dnnl_engine_destroy(plain));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_stream_create(&stream, f.engine, NULL, 0));
    ck_assert_ptr_null(stream);
    ifx_close(&f);
}
END_TEST

START_TEST(stream_on_an_out_of_order_list_is_a_warning)
{
    ifx_t f;
    ifx_open(&f);
    ze_command_list_handle_t unordered = ifx_list(&f.env, 0);
    dnnl_stream_t stream = NULL;
    IFX_REFUSED(dnnl_success, "ZEIL-W113",
                dnnl_ze_interop_stream_create(&stream, f.engine, unordered, 0));
    ck_assert_ptr_nonnull(stream);
    IFX_DNNL_OK(dnnl_stream_destroy(stream));
    ZT_OK(zeCommandListDestroy(unordered));
    ifx_close(&f);
}
END_TEST

START_TEST(get_list_refuses_destroyed_list_and_plain_stream)
{
    ifx_t f;
    ifx_open(&f);
    ze_command_list_handle_t list = NULL;
    ZT_OK(zeCommandListDestroy(f.list));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E112",
                dnnl_ze_interop_stream_get_list(f.stream, &list));
    f.list = NULL;
    /* a stream of a plain CPU engine (streams of interop engines own a list) */
    dnnl_engine_t cpu = NULL;
    IFX_DNNL_OK(dnnl_engine_create(&cpu, dnnl_cpu, 0));
    dnnl_stream_t plain = NULL;
    IFX_DNNL_OK(dnnl_stream_create(&plain, cpu, dnnl_stream_default_flags));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E115", dnnl_ze_interop_stream_get_list(plain, &list));
    IFX_DNNL_OK(dnnl_stream_destroy(plain));
    IFX_DNNL_OK(dnnl_engine_destroy(cpu));
    ifx_close(&f);
}
END_TEST

START_TEST(memory_wraps_usm_allocates_or_has_no_buffer)
{
    ifx_t f;
    ifx_open(&f);
    dnnl_memory_desc_t md = ifx_md(4, small_dims);
    float *usm = NULL;
    dnnl_memory_t user = ifx_memory(&f, &md, NULL, &usm);
    void *handle = NULL;
    IFX_DNNL_OK(dnnl_memory_get_data_handle(user, &handle));
    ck_assert_ptr_eq(handle, usm);

    dnnl_memory_t owned = NULL, none = NULL, defaulted = NULL;
    void *allocate = DNNL_MEMORY_ALLOCATE, *nothing = DNNL_MEMORY_NONE;
    IFX_DNNL_OK(dnnl_ze_interop_memory_create(&owned, &md, f.engine, 1, &allocate));
    IFX_DNNL_OK(dnnl_memory_get_data_handle(owned, &handle));
    zeil_alloc_info_t alloc;
    ck_assert_int_eq(zeil_lookup_pointer(handle, &alloc), 1);
    ck_assert_int_eq(alloc.type, ZE_MEMORY_TYPE_DEVICE);
    ck_assert_ptr_eq(alloc.context, f.env.context);
    ck_assert_uint_ge(alloc.size, dnnl_memory_desc_get_size(&md));
    IFX_DNNL_OK(dnnl_ze_interop_memory_create(&none, &md, f.engine, 1, &nothing));
    IFX_DNNL_OK(dnnl_memory_get_data_handle(none, &handle));
    ck_assert_ptr_null(handle);
    IFX_DNNL_OK(dnnl_ze_interop_memory_create(&defaulted, &md, f.engine, 1, &allocate));
    IFX_DNNL_OK(dnnl_memory_get_data_handle(defaulted, &handle));
    ck_assert_int_eq(zeil_lookup_pointer(handle, &alloc), 1);

    IFX_DNNL_OK(dnnl_memory_destroy(user));
    IFX_DNNL_OK(dnnl_memory_destroy(owned));
    IFX_DNNL_OK(dnnl_memory_destroy(none));
    IFX_DNNL_OK(dnnl_memory_destroy(defaulted));
    ZT_OK(zeMemFree(f.env.context, usm));
    ifx_close(&f);
}
END_TEST

START_TEST(memory_create_refuses_unfit_handles)
{
    zt_set_system_memory(0); /* a device that cannot use plain host memory */
    ifx_t f;
    ifx_open(&f);
    dnnl_memory_desc_t md = ifx_md(4, small_dims);
    size_t size = dnnl_memory_desc_get_size(&md);
    dnnl_memory_t memory = NULL;
    void *host = malloc(size);
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E120",
                dnnl_ze_interop_memory_create(&memory, &md, f.engine, 1, &host));
    free(host);
    void *small = ifx_device_alloc(&f.env, size / 2);
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E121",
                dnnl_ze_interop_memory_create(&memory, &md, f.engine, 1, &small));
    void *interior = (char *)ifx_device_alloc(&f.env, size) + 64;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E121",
                dnnl_ze_interop_memory_create(&memory, &md, f.engine, 1, &interior));
    ZT_OK(zeMemFree(f.env.context, small));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E122",
                dnnl_ze_interop_memory_create(&memory, &md, f.engine, 1, &small));
    zt_env_t other = f.env;
    ze_context_desc_t cdesc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ZT_OK(zeContextCreate(f.env.driver, &cdesc, &other.context));
    void *foreign = ifx_device_alloc(&other, size);
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E120",
                dnnl_ze_interop_memory_create(&memory, &md, f.engine, 1, &foreign));
    ZT_OK(zeMemFree(other.context, foreign));
    ZT_OK(zeContextDestroy(other.context));
    void *two[2] = {DNNL_MEMORY_ALLOCATE, DNNL_MEMORY_ALLOCATE};
    IFX_REFUSED(dnnl_unimplemented, "ZEIL-E123",
                dnnl_ze_interop_memory_create(&memory, &md, f.engine, 2, two));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_memory_create(&memory, NULL, f.engine, 1, two));
    ck_assert_ptr_null(memory);
    ZT_OK(zeMemFree(f.env.context, (char *)interior - 64));
    ifx_close(&f);
}
END_TEST

START_TEST(allocated_memory_is_freed_once_with_its_object)
{
    ifx_t f;
    ifx_open(&f);
    dnnl_memory_desc_t md = ifx_md(4, small_dims);
    zeil_live_counts_t before, during, after;
    zeil_get_live_counts(&before);
    uint64_t errors_before = zeil_error_count();
    dnnl_memory_t memories[5];
    for (int i = 0; i < 5; i++)
        IFX_DNNL_OK(dnnl_ze_interop_memory_create(&memories[i], &md, f.engine, 1, &allocate));
    zeil_get_live_counts(&during);
    ck_assert_uint_eq(during.allocations, before.allocations + 5);
    for (int i = 0; i < 5; i++)
        IFX_DNNL_OK(dnnl_memory_destroy(memories[i]));
    zeil_get_live_counts(&after);
    ck_assert_uint_eq(after.allocations, before.allocations);
    ck_assert_uint_eq(after.allocation_bytes, before.allocation_bytes);
    ck_assert_uint_eq(zeil_error_count(), errors_before); /* no double free seen by the layer */
    /* more than any device has: the allocation fails, nothing is left */
    const dnnl_dim_t huge_dims[2] = {(dnnl_dim_t)1 << 30, (dnnl_dim_t)1 << 12};
    dnnl_memory_desc_t huge = ifx_md(2, huge_dims);
    dnnl_memory_t failed = NULL;
    IFX_REFUSED(dnnl_out_of_memory, "ZEIL-E124",
                dnnl_ze_interop_memory_create(&failed, &huge, f.engine, 1, &allocate));
    ck_assert_ptr_null(failed);
    zeil_get_live_counts(&after);
    ck_assert_uint_eq(after.allocations, before.allocations);
    ifx_close(&f);
}
END_TEST

typedef struct rule_seen {
    int found;
    zeil_severity_t severity;
    uint64_t count;
    char summary[128];
} rule_seen_t;

static int find_e101(const zeil_rule_stats_t *stats, void *user)
{
    rule_seen_t *seen = user;
    if (strcmp(stats->rule, "ZEIL-E101") != 0)
        return 0;
    seen->found = 1;
    seen->severity = stats->severity;
    seen->count = stats->count;
    snprintf(seen->summary, sizeof seen->summary, "%s", stats->summary ? stats->summary : "");
    return 1;
}

/* The interop rules are known to the layer (and so to the exit report) with
 * their summaries before any of them fires. */
START_TEST(interop_rules_are_registered_with_the_layer)
{
    rule_seen_t seen = {0};
    zeil_foreach_rule(find_e101, &seen);
    ck_assert_int_eq(seen.found, 1);
    ck_assert_int_eq(seen.severity, ZEIL_SEVERITY_ERROR);
    ck_assert_uint_eq(seen.count, 0);
    ck_assert_str_eq(seen.summary, "null handle or null output pointer");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interop_api");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, engine_binds_the_level_zero_objects);
    tcase_add_test(tc, interop_rules_are_registered_with_the_layer);
    tcase_add_test(tc, engine_create_refuses_null_and_wrong_handles);
    tcase_add_test(tc, getters_refuse_other_engines_and_destroyed_context);
    tcase_add_test(tc, stream_binds_an_in_order_immediate_list);
    tcase_add_test(tc, stream_create_refuses_unfit_lists);
    tcase_add_test(tc, stream_on_an_out_of_order_list_is_a_warning);
    tcase_add_test(tc, get_list_refuses_destroyed_list_and_plain_stream);
    tcase_add_test(tc, memory_wraps_usm_allocates_or_has_no_buffer);
    tcase_add_test(tc, memory_create_refuses_unfit_handles);
    tcase_add_test(tc, allocated_memory_is_freed_once_with_its_object);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
