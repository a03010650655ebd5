/* Rules that need more than one device or driver (ZEIL_CPU_DEVICES=2 and a
 * second copy of the reference driver), with the zeil layer active. */
#include <stdlib.h>
#include <string.h>

#include "interop_fixture.h"

/* oneDNN has no nhandles == 0: DNNL_MEMORY_ALLOCATE asks for a buffer. */
static void *allocate = DNNL_MEMORY_ALLOCATE;

/* Both drivers with their first device, each with a context. */
typedef struct two_drivers {
    ze_driver_handle_t driver[2];
    ze_device_handle_t device[2][2];
    ze_context_handle_t context[2];
} two_drivers_t;

static void open_two(two_drivers_t *t)
{
    ZT_OK(zeInit(0));
    uint32_t n = 2;
    ZT_OK(zeDriverGet(&n, t->driver));
    ck_assert_uint_eq(n, 2);
    for (int d = 0; d < 2; d++) {
        uint32_t count = 2;
        ZT_OK(zeDeviceGet(t->driver[d], &count, t->device[d]));
        ck_assert_uint_eq(count, 2);
        ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
        ZT_OK(zeContextCreate(t->driver[d], &desc, &t->context[d]));
    }
}

START_TEST(objects_of_two_drivers_do_not_belong_together)
{
    two_drivers_t t;
    open_two(&t);
    dnnl_engine_t engine = NULL;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E102",
                dnnl_ze_interop_engine_create(&engine, t.driver[0], t.device[1][0], t.context[0]));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E102",
                dnnl_ze_interop_engine_create(&engine, t.driver[0], t.device[0][0], t.context[1]));
    size_t size = 0;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E102",
                dnnl_ze_interop_engine_get_cache_blob_id(t.driver[1], t.device[0][1], &size, NULL));
    IFX_DNNL_OK(dnnl_ze_interop_engine_create(&engine, t.driver[1], t.device[1][1], t.context[1]));
    IFX_DNNL_OK(dnnl_engine_destroy(engine));
    for (int d = 0; d < 2; d++)
        ZT_OK(zeContextDestroy(t.context[d]));
}
END_TEST

START_TEST(list_memory_and_blob_of_another_device_are_refused)
{
    two_drivers_t t;
    open_two(&t);
    zt_env_t env0 = {t.driver[0], t.device[0][0], t.context[0]};
    zt_env_t env1 = {t.driver[0], t.device[0][1], t.context[0]};
    dnnl_engine_t engine0 = NULL, engine1 = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_engine_create(&engine0, env0.driver, env0.device, env0.context));
    IFX_DNNL_OK(dnnl_ze_interop_engine_create(&engine1, env1.driver, env1.device, env1.context));
    ze_command_list_handle_t list1 = ifx_list(&env1, 1);
    dnnl_stream_t stream = NULL;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E111",
                dnnl_ze_interop_stream_create(&stream, engine0, list1, 0));
    const dnnl_dim_t dims[1] = {64};
    dnnl_memory_desc_t md = ifx_md(1, dims);
    void *usm1 = ifx_device_alloc(&env1, 256);
    dnnl_memory_t memory = NULL;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E120",
                dnnl_ze_interop_memory_create(&memory, &md, engine0, 1, &usm1));
    size_t size = 0;
    IFX_DNNL_OK(dnnl_ze_interop_engine_get_cache_blob(engine1, &size, NULL));
    uint8_t *blob = malloc(size);
    IFX_DNNL_OK(dnnl_ze_interop_engine_get_cache_blob(engine1, &size, blob));
    dnnl_engine_t cached = NULL;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E141",
                dnnl_ze_interop_engine_create_from_cache_blob(&cached, env0.driver, env0.device,
                                                              env0.context, size, blob));
    free(blob);
    ZT_OK(zeMemFree(env0.context, usm1));
    ZT_OK(zeCommandListDestroy(list1));
    IFX_DNNL_OK(dnnl_engine_destroy(engine0));
    IFX_DNNL_OK(dnnl_engine_destroy(engine1));
    for (int d = 0; d < 2; d++)
        ZT_OK(zeContextDestroy(t.context[d]));
}
END_TEST

static int count_launches(const zeil_record_t *record, void *user)
{
    *(int *)user += record->kind == ZEIL_RECORD_LAUNCH;
    return 0;
}

/* With two drivers the loader wraps handles: the stream's records must
 * still be found (zeil binds the driver handle of the list). */
START_TEST(records_are_attributed_when_the_loader_wraps_handles)
{
    two_drivers_t t;
    open_two(&t);
    ifx_t f;
    memset(&f, 0, sizeof f);
    f.env = (zt_env_t){t.driver[1], t.device[1][0], t.context[1]};
    IFX_DNNL_OK(
        dnnl_ze_interop_engine_create(&f.engine, f.env.driver, f.env.device, f.env.context));
    f.list = ifx_list(&f.env, 1);
    IFX_DNNL_OK(dnnl_ze_interop_stream_create(&f.stream, f.engine, f.list, 0));
    const dnnl_dim_t dims[1] = {64};
    dnnl_memory_desc_t md = ifx_md(1, dims);
    dnnl_memory_t src = NULL, dst = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_memory_create(&src, &md, f.engine, 1, &allocate));
    IFX_DNNL_OK(dnnl_ze_interop_memory_create(&dst, &md, f.engine, 1, &allocate));
    dnnl_primitive_t relu = ifx_eltwise(f.engine, &md, dnnl_eltwise_relu, 0, 0);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
    ze_event_handle_t done = NULL;
    for (int i = 0; i < 3; i++) {
        IFX_DNNL_OK(dnnl_ze_interop_primitive_execute(relu, f.stream, 2, args, 0, NULL, &done));
        ifx_wait(done);
    }
    int launches = 0;
    zeil_records_of_stream((uint64_t)(uintptr_t)f.stream, count_launches, &launches);
    ck_assert_int_eq(launches, 3);
    IFX_DNNL_OK(dnnl_primitive_destroy(relu));
    IFX_DNNL_OK(dnnl_memory_destroy(src));
    IFX_DNNL_OK(dnnl_memory_destroy(dst));
    ZT_OK(zeContextDestroy(t.context[0]));
    t.context[0] = NULL;
    ifx_close(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interop_devices");
    TCase *tc = tcase_create("devices");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, objects_of_two_drivers_do_not_belong_together);
    tcase_add_test(tc, list_memory_and_blob_of_another_device_are_refused);
    tcase_add_test(tc, records_are_attributed_when_the_loader_wraps_handles);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
