/*
 * What oneDNN's Level Zero interoperability guide and sources say, checked
 * on zeil:
 * - a stream the library creates (dnnl_stream_create on a Level Zero engine)
 *   owns an in-order immediate command list of the engine's context and
 *   device, and dnnl_ze_interop_stream_get_list returns it;
 * - every execute on a stream is appended to its list in order:
 *   dnnl_primitive_execute too, which never runs at once on the host;
 * - dnnl_memory_create(md, engine, DNNL_MEMORY_ALLOCATE) on a Level Zero
 *   engine allocates USM through the engine, owned by the memory object.
 */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "interop_fixture.h"

static const dnnl_dim_t dims[1] = {256};

static int count_primitives(const zeil_record_t *record, void *user)
{
    if (record->primitive)
        ++*(int *)user;
    return 0;
}

START_TEST(library_stream_owns_in_order_immediate_list_of_engine)
{
    ifx_t f;
    ifx_open(&f);
    dnnl_stream_t stream = NULL;
    IFX_DNNL_OK(dnnl_stream_create(&stream, f.engine, dnnl_stream_default_flags));
    ze_command_list_handle_t list = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_stream_get_list(stream, &list));
    ck_assert_ptr_nonnull(list);
    ck_assert_ptr_ne(list, f.list);
    zeil_handle_info_t info;
    ck_assert(zeil_lookup_handle(list, &info));
    ck_assert_int_eq(info.kind, ZEIL_KIND_COMMAND_LIST);
    ck_assert(info.alive && info.is_immediate && info.is_in_order);
    ck_assert_ptr_eq(info.context, f.env.context);
    ck_assert_ptr_eq(info.device, f.env.device);
    ck_assert_uint_eq(info.stream_id, (uint64_t)(uintptr_t)stream);
    /* the user may append to it, as to any stream's list */
    ze_event_pool_handle_t pool = zt_event_pool(&f.env, 1, 0);
    ze_event_handle_t event = zt_event(pool, 0);
    ZT_OK(zeCommandListAppendSignalEvent(list, event));
    ZT_OK(zeEventHostSynchronize(event, UINT64_MAX));
    /* the library destroys what it created, with the stream */
    IFX_DNNL_OK(dnnl_stream_destroy(stream));
    ck_assert(zeil_lookup_handle(list, &info));
    ck_assert(!info.alive);
    ZT_OK(zeEventDestroy(event));
    ZT_OK(zeEventPoolDestroy(pool));
    ifx_close(&f);
}
END_TEST

/* A list blocked on a user event: whatever the execute kind, the output is
 * untouched when execute returns, and written once the event is signalled. */
START_TEST(plain_execute_is_appended_in_order_never_run_at_once)
{
    ifx_t f;
    ifx_open(&f);
    dnnl_stream_t stream = NULL;
    IFX_DNNL_OK(dnnl_stream_create(&stream, f.engine, dnnl_stream_in_order));
    ze_command_list_handle_t list = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_stream_get_list(stream, &list));
    dnnl_memory_desc_t md = ifx_md(1, dims);
    float in[256];
    for (int i = 0; i < 256; i++)
        in[i] = (float)(i - 128);
    float *src_ptr = NULL, *mid_ptr = NULL, *dst_ptr = NULL;
    dnnl_memory_t src = ifx_memory(&f, &md, in, &src_ptr);
    dnnl_memory_t mid = ifx_memory(&f, &md, NULL, &mid_ptr);
    dnnl_memory_t dst = ifx_memory(&f, &md, NULL, &dst_ptr);
    memset(mid_ptr, 0xff, sizeof in);
    memset(dst_ptr, 0xff, sizeof in);
    dnnl_primitive_t relu = ifx_eltwise(f.engine, &md, dnnl_eltwise_relu, 0, 0);
    dnnl_primitive_t twice = ifx_eltwise(f.engine, &md, dnnl_eltwise_linear, 2, 0);
    ze_event_pool_handle_t pool = zt_event_pool(&f.env, 1, 0);
    ze_event_handle_t gate = zt_event(pool, 0);
    ZT_OK(zeCommandListAppendWaitOnEvents(list, 1, &gate));
    /* interop execute, then a plain one that reads its output */
    dnnl_exec_arg_t first[2] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, mid}};
    dnnl_exec_arg_t second[2] = {{DNNL_ARG_SRC, mid}, {DNNL_ARG_DST, dst}};
    ze_event_handle_t done = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_primitive_execute(relu, stream, 2, first, 0, NULL, &done));
    IFX_DNNL_OK(dnnl_primitive_execute(twice, stream, 2, second));
    ck_assert_int_eq(zeEventQueryStatus(done), ZE_RESULT_NOT_READY);
    uint32_t untouched;
    memcpy(&untouched, &dst_ptr[0], sizeof untouched);
    ck_assert_uint_eq(untouched, 0xffffffffu);
    memcpy(&untouched, &mid_ptr[0], sizeof untouched);
    ck_assert_uint_eq(untouched, 0xffffffffu);
    ZT_OK(zeEventHostSignal(gate));
    IFX_DNNL_OK(dnnl_stream_wait(stream));
    for (int i = 0; i < 256; i++)
        ck_assert_float_eq(dst_ptr[i], in[i] > 0 ? 2 * in[i] : 0);
    /* the plain execute was recorded on the stream's list, under the stream */
    int primitives = 0;
    zeil_records_of_stream((uint64_t)(uintptr_t)stream, count_primitives, &primitives);
    ck_assert_int_eq(primitives, 2);
    IFX_DNNL_OK(dnnl_primitive_destroy(relu));
    IFX_DNNL_OK(dnnl_primitive_destroy(twice));
    IFX_DNNL_OK(dnnl_memory_destroy(src));
    IFX_DNNL_OK(dnnl_memory_destroy(mid));
    IFX_DNNL_OK(dnnl_memory_destroy(dst));
    IFX_DNNL_OK(dnnl_stream_destroy(stream));
    ZT_OK(zeEventDestroy(gate));
    ZT_OK(zeEventPoolDestroy(pool));
    ifx_close(&f);
}
END_TEST

/* On a user's interop stream too: a plain execute goes to the user's list. */
START_TEST(plain_execute_on_interop_stream_waits_for_the_list)
{
    ifx_t f;
    ifx_open(&f);
    dnnl_memory_desc_t md = ifx_md(1, dims);
    float in[256];
    for (int i = 0; i < 256; i++)
        in[i] = (float)i;
    float *dst_ptr = NULL;
    dnnl_memory_t src = ifx_memory(&f, &md, in, NULL);
    dnnl_memory_t dst = ifx_memory(&f, &md, NULL, &dst_ptr);
    memset(dst_ptr, 0, sizeof in);
    dnnl_primitive_t twice = ifx_eltwise(f.engine, &md, dnnl_eltwise_linear, 2, 0);
    ze_event_pool_handle_t pool = zt_event_pool(&f.env, 1, 0);
    ze_event_handle_t gate = zt_event(pool, 0);
    ZT_OK(zeCommandListAppendWaitOnEvents(f.list, 1, &gate));
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
    IFX_DNNL_OK(dnnl_primitive_execute(twice, f.stream, 2, args));
    ck_assert_float_eq(dst_ptr[255], 0);
    ZT_OK(zeEventHostSignal(gate));
    IFX_DNNL_OK(dnnl_stream_wait(f.stream));
    ck_assert_float_eq(dst_ptr[255], 510);
    IFX_DNNL_OK(dnnl_primitive_destroy(twice));
    IFX_DNNL_OK(dnnl_memory_destroy(src));
    IFX_DNNL_OK(dnnl_memory_destroy(dst));
    ZT_OK(zeEventDestroy(gate));
    ZT_OK(zeEventPoolDestroy(pool));
    ifx_close(&f);
}
END_TEST

static void *signal_later(void *event)
{
    struct timespec pause = {0, 50 * 1000 * 1000};
    nanosleep(&pause, NULL);
    zeEventHostSignal((ze_event_handle_t)event);
    return NULL;
}

/* stream::wait() waits for everything on the stream's list, as oneDNN's
 * (zeCommandListHostSynchronize): also what the user appended to it, such
 * as a copy into memory to be mapped. */
START_TEST(stream_wait_covers_user_appends_to_the_list)
{
    ifx_t f;
    ifx_open(&f);
    dnnl_stream_t stream = NULL;
    IFX_DNNL_OK(dnnl_stream_create(&stream, f.engine, dnnl_stream_default_flags));
    ze_command_list_handle_t list = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_stream_get_list(stream, &list));
    dnnl_memory_desc_t md = ifx_md(1, dims);
    dnnl_memory_t memory = NULL;
    IFX_DNNL_OK(dnnl_memory_create(&memory, &md, f.engine, DNNL_MEMORY_ALLOCATE));
    void *usm = NULL;
    IFX_DNNL_OK(dnnl_memory_get_data_handle(memory, &usm));
    memset(usm, 0, 256 * sizeof(float));
    static float ones[256];
    for (int i = 0; i < 256; i++)
        ones[i] = 1;
    ze_event_pool_handle_t pool = zt_event_pool(&f.env, 1, 0);
    ze_event_handle_t gate = zt_event(pool, 0);
    ZT_OK(zeCommandListAppendWaitOnEvents(list, 1, &gate));
    ZT_OK(zeCommandListAppendMemoryCopy(list, usm, ones, sizeof ones, NULL, 0, NULL));
    pthread_t signaller;
    ck_assert_int_eq(pthread_create(&signaller, NULL, signal_later, gate), 0);
    IFX_DNNL_OK(dnnl_stream_wait(stream));
    void *mapped = NULL;
    IFX_DNNL_OK(dnnl_memory_map_data(memory, &mapped));
    ck_assert_float_eq(((float *)mapped)[255], 1);
    IFX_DNNL_OK(dnnl_memory_unmap_data(memory, mapped));
    pthread_join(signaller, NULL);
    IFX_DNNL_OK(dnnl_memory_destroy(memory));
    IFX_DNNL_OK(dnnl_stream_destroy(stream));
    ZT_OK(zeEventDestroy(gate));
    ZT_OK(zeEventPoolDestroy(pool));
    ifx_close(&f);
}
END_TEST

START_TEST(memory_create_allocates_usm_of_the_engine)
{
    ifx_t f;
    ifx_open(&f);
    dnnl_memory_desc_t md = ifx_md(1, dims);
    dnnl_memory_t memory = NULL;
    IFX_DNNL_OK(dnnl_memory_create(&memory, &md, f.engine, DNNL_MEMORY_ALLOCATE));
    void *ptr = NULL;
    IFX_DNNL_OK(dnnl_memory_get_data_handle(memory, &ptr));
    ck_assert_ptr_nonnull(ptr);
    ze_memory_allocation_properties_t props = {.stype =
                                                   ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    ze_device_handle_t owner = NULL;
    ZT_OK(zeMemGetAllocProperties(f.env.context, ptr, &props, &owner));
    ck_assert_int_ne(props.type, ZE_MEMORY_TYPE_UNKNOWN);
    zeil_alloc_info_t alloc;
    ck_assert_int_eq(zeil_lookup_pointer(ptr, &alloc), 1);
    ck_assert_uint_ge(alloc.size, dnnl_memory_desc_get_size(&md));
    /* map_data gives a pointer the host writes, unmap_data hands it back */
    void *mapped = NULL;
    IFX_DNNL_OK(dnnl_memory_map_data(memory, &mapped));
    memset(mapped, 0, dnnl_memory_desc_get_size(&md));
    IFX_DNNL_OK(dnnl_memory_unmap_data(memory, mapped));
    /* freed exactly once, with the memory object */
    IFX_DNNL_OK(dnnl_memory_destroy(memory));
    ck_assert_int_eq(zeil_lookup_pointer(ptr, &alloc), 2);
    /* DNNL_MEMORY_NONE has no buffer; a USM handle is wrapped, not owned */
    IFX_DNNL_OK(dnnl_memory_create(&memory, &md, f.engine, DNNL_MEMORY_NONE));
    IFX_DNNL_OK(dnnl_memory_get_data_handle(memory, &ptr));
    ck_assert_ptr_null(ptr);
    IFX_DNNL_OK(dnnl_memory_destroy(memory));
    void *usm = ifx_device_alloc(&f.env, dnnl_memory_desc_get_size(&md));
    IFX_DNNL_OK(dnnl_memory_create(&memory, &md, f.engine, usm));
    IFX_DNNL_OK(dnnl_memory_destroy(memory));
    ck_assert_int_eq(zeil_lookup_pointer(usm, &alloc), 1);
    ZT_OK(zeMemFree(f.env.context, usm));
    ifx_close(&f);
}
END_TEST

/* Streams and memory of plain CPU engines stay oneDNN's own. */
START_TEST(cpu_engine_objects_are_untouched)
{
    dnnl_engine_t cpu = NULL;
    IFX_DNNL_OK(dnnl_engine_create(&cpu, dnnl_cpu, 0));
    dnnl_stream_t stream = NULL;
    IFX_DNNL_OK(dnnl_stream_create(&stream, cpu, dnnl_stream_default_flags));
    ze_command_list_handle_t list = NULL;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E115",
                dnnl_ze_interop_stream_get_list(stream, &list));
    dnnl_memory_desc_t md = ifx_md(1, dims);
    dnnl_memory_t memory = NULL;
    IFX_DNNL_OK(dnnl_memory_create(&memory, &md, cpu, DNNL_MEMORY_ALLOCATE));
    void *ptr = NULL;
    IFX_DNNL_OK(dnnl_memory_get_data_handle(memory, &ptr));
    zeil_alloc_info_t alloc; /* no live USM (the heap may reuse a freed USM address) */
    ck_assert_int_ne(zeil_lookup_pointer(ptr, &alloc), 1);
    IFX_DNNL_OK(dnnl_memory_destroy(memory));
    IFX_DNNL_OK(dnnl_stream_destroy(stream));
    IFX_DNNL_OK(dnnl_engine_destroy(cpu));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interop_onednn_streams");
    TCase *tc = tcase_create("streams");
    tcase_add_test(tc, library_stream_owns_in_order_immediate_list_of_engine);
    tcase_add_test(tc, plain_execute_is_appended_in_order_never_run_at_once);
    tcase_add_test(tc, plain_execute_on_interop_stream_waits_for_the_list);
    tcase_add_test(tc, stream_wait_covers_user_appends_to_the_list);
    tcase_add_test(tc, memory_create_allocates_usm_of_the_engine);
    tcase_add_test(tc, cpu_engine_objects_are_untouched);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
