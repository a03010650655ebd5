/* The cache blob API: ID and blob size queries, an engine built from a blob
 * behaving like any other, and every kind of unfit blob refused by rule. */
#include <stdlib.h>
#include <string.h>

#include "cache_blob.h"
#include "interop_fixture.h"

static uint8_t *engine_blob(dnnl_engine_t engine, size_t *size)
{
    IFX_DNNL_OK(dnnl_ze_interop_engine_get_cache_blob(engine, size, NULL));
    ck_assert_uint_gt(*size, CACHE_BLOB_HEADER_SIZE + CACHE_BLOB_ID_SIZE);
    uint8_t *blob = malloc(*size);
    IFX_DNNL_OK(dnnl_ze_interop_engine_get_cache_blob(engine, size, blob));
    return blob;
}

/* A well-formed blob whose ID differs as edit says. */
static uint8_t *reencoded(const uint8_t *blob, size_t size, void (*edit)(cache_blob_id_t *),
                          size_t *out_size)
{
    cache_blob_view_t view;
    ck_assert_int_eq(cache_blob_parse(blob, size, &view, NULL, 0), CACHE_BLOB_OK);
    edit(&view.id);
    *out_size = cache_blob_size(view.binary_size);
    uint8_t *out = malloc(*out_size);
    cache_blob_encode(&view.id, view.binary, view.binary_size, out);
    return out;
}

static void other_device(cache_blob_id_t *id)
{
    id->device_uuid[0] ^= 0xff;
}
static void other_driver(cache_blob_id_t *id)
{
    id->driver_version += 1;
}
static void other_dnnl(cache_blob_id_t *id)
{
    id->dnnl_minor += 1;
}
static void other_zeil(cache_blob_id_t *id)
{
    id->format_version += 1;
}

START_TEST(blob_id_names_device_driver_and_onednn)
{
    zt_env_t env;
    zt_open(&env);
    size_t size = 0;
    IFX_DNNL_OK(dnnl_ze_interop_engine_get_cache_blob_id(env.driver, env.device, &size, NULL));
    ck_assert_uint_eq(size, CACHE_BLOB_ID_SIZE);
    uint8_t id_bytes[CACHE_BLOB_ID_SIZE];
    IFX_DNNL_OK(dnnl_ze_interop_engine_get_cache_blob_id(env.driver, env.device, &size, id_bytes));
    cache_blob_id_t id;
    ck_assert_int_eq(cache_blob_id_decode(id_bytes, size, &id), 0);
    ze_device_properties_t props = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ZT_OK(zeDeviceGetProperties(env.device, &props));
    ck_assert_str_eq(id.device_name, props.name);
    ck_assert_mem_eq(id.device_uuid, props.uuid.id, CACHE_BLOB_UUID_SIZE);
    ck_assert_uint_eq(id.dnnl_major, (uint32_t)dnnl_version()->major);
    ck_assert_uint_eq(id.format_version, CACHE_BLOB_FORMAT_VERSION);
    size_t small = 4;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E145",
                dnnl_ze_interop_engine_get_cache_blob_id(env.driver, env.device, &small, id_bytes));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_engine_get_cache_blob_id(env.driver, NULL, &size, NULL));
    zt_close(&env);
}
END_TEST

START_TEST(engine_from_blob_runs_primitives)
{
    ifx_t f;
    ifx_open(&f);
    size_t size = 0;
    uint8_t *blob = engine_blob(f.engine, &size);
    dnnl_engine_t plain = NULL;
    IFX_DNNL_OK(dnnl_engine_create(&plain, dnnl_cpu, 0));
    size_t plain_size = 0;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E105",
                dnnl_ze_interop_engine_get_cache_blob(plain, &plain_size, NULL));
    IFX_DNNL_OK(dnnl_engine_destroy(plain));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_engine_get_cache_blob(f.engine, NULL, NULL));
    size_t small = size - 1;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E145",
                dnnl_ze_interop_engine_get_cache_blob(f.engine, &small, blob));
    dnnl_engine_t cached = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_engine_create_from_cache_blob(&cached, f.env.driver, f.env.device,
                                                              f.env.context, size, blob));
    ze_context_handle_t context = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_engine_get_context(cached, &context));
    ck_assert_ptr_eq(context, f.env.context);
    /* The blob of the blob's engine is the same blob. */
    size_t again_size = 0;
    uint8_t *again = engine_blob(cached, &again_size);
    ck_assert_uint_eq(again_size, size);
    ck_assert_mem_eq(again, blob, size);

    ze_command_list_handle_t list = ifx_list(&f.env, 1);
    dnnl_stream_t stream = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_stream_create(&stream, cached, list, 0));
    const dnnl_dim_t dims[2] = {4, 4};
    dnnl_memory_desc_t md = ifx_md(2, dims);
    ifx_t g = f;
    g.engine = cached;
    float x[16], *dst = NULL;
    for (int i = 0; i < 16; i++)
        x[i] = (float)(i - 8);
    dnnl_memory_t src = ifx_memory(&g, &md, x, NULL), out = ifx_memory(&g, &md, NULL, &dst);
    dnnl_primitive_t relu = ifx_eltwise(cached, &md, dnnl_eltwise_relu, 0, 0);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, out}};
    ze_event_handle_t done = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_primitive_execute(relu, stream, 2, args, 0, NULL, &done));
    ifx_wait(done);
    for (int i = 0; i < 16; i++)
        ck_assert_float_eq(dst[i], x[i] > 0 ? x[i] : 0.0f);
    IFX_DNNL_OK(dnnl_primitive_destroy(relu));
    IFX_DNNL_OK(dnnl_memory_destroy(src));
    IFX_DNNL_OK(dnnl_memory_destroy(out));
    IFX_DNNL_OK(dnnl_stream_destroy(stream));
    ZT_OK(zeCommandListDestroy(list));
    IFX_DNNL_OK(dnnl_engine_destroy(cached));
    free(again);
    free(blob);
    ifx_close(&f);
}
END_TEST

START_TEST(mismatched_blobs_are_refused_by_rule)
{
    ifx_t f;
    ifx_open(&f);
    size_t size = 0;
    uint8_t *blob = engine_blob(f.engine, &size);
    struct {
        void (*edit)(cache_blob_id_t *);
        const char *rule;
    } cases[] = {{other_device, "ZEIL-E141"},
                 {other_driver, "ZEIL-E142"},
                 {other_dnnl, "ZEIL-E143"},
                 {other_zeil, "ZEIL-E144"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t bad_size = 0;
        uint8_t *bad = reencoded(blob, size, cases[i].edit, &bad_size);
        dnnl_engine_t engine = NULL;
        IFX_REFUSED(dnnl_invalid_arguments, cases[i].rule,
                    dnnl_ze_interop_engine_create_from_cache_blob(
                        &engine, f.env.driver, f.env.device, f.env.context, bad_size, bad));
        ck_assert_ptr_null(engine);
        free(bad);
    }
    free(blob);
    ifx_close(&f);
}
END_TEST

START_TEST(corrupt_and_truncated_blobs_are_refused)
{
    ifx_t f;
    ifx_open(&f);
    size_t size = 0;
    uint8_t *blob = engine_blob(f.engine, &size);
    dnnl_engine_t engine = NULL;
    /* flipped bytes across header, ID, binary and checksum */
    size_t positions[] = {0,
                          7,
                          13,
                          20,
                          CACHE_BLOB_HEADER_SIZE + 3,
                          CACHE_BLOB_HEADER_SIZE + CACHE_BLOB_ID_SIZE + 1,
                          size / 2,
                          size - 1};
    for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++) {
        blob[positions[i]] ^= 0x5a;
        IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E140",
                    dnnl_ze_interop_engine_create_from_cache_blob(
                        &engine, f.env.driver, f.env.device, f.env.context, size, blob));
        blob[positions[i]] ^= 0x5a;
    }
    /* a format version byte changed: named as another zeil version */
    blob[8] ^= 0x01;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E144",
                dnnl_ze_interop_engine_create_from_cache_blob(&engine, f.env.driver, f.env.device,
                                                              f.env.context, size, blob));
    blob[8] ^= 0x01;
    /* truncated at a spread of lengths (the parser suite tries all of them) */
    for (size_t len = 0; len < size; len += len < 64 ? 7 : size / 13) {
        IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E140",
                    dnnl_ze_interop_engine_create_from_cache_blob(
                        &engine, f.env.driver, f.env.device, f.env.context, len, blob));
    }
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_engine_create_from_cache_blob(&engine, f.env.driver, f.env.device,
                                                              f.env.context, size, NULL));
    ck_assert_ptr_null(engine);
    free(blob);
    ifx_close(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interop_cache_blob");
    TCase *tc = tcase_create("cache_blob");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, blob_id_names_device_driver_and_onednn);
    tcase_add_test(tc, engine_from_blob_runs_primitives);
    tcase_add_test(tc, mismatched_blobs_are_refused_by_rule);
    tcase_add_test(tc, corrupt_and_truncated_blobs_are_refused);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
