/*
 * Misuse of the interop API's cache blobs (rules ZEIL-E104, E107, E140 to
 * E145): blobs of another device, driver, oneDNN or zeil, corrupt ones, ones
 * whose binary is not zeil's module, and output buffers too small. A refused
 * blob builds no module.
 */
#include "misuse.h"

#include "cache_blob.h"
#include "misuse_interop.h"

#include <stdlib.h>
#include <string.h>

/* The engine's own blob, decoded for editing. */
static uint8_t *engine_blob(interop_fixture_t *x, size_t *size, cache_blob_view_t *view)
{
    DNNL_OK(dnnl_ze_interop_engine_get_cache_blob(x->engine, size, NULL));
    uint8_t *blob = malloc(*size);
    DNNL_OK(dnnl_ze_interop_engine_get_cache_blob(x->engine, size, blob));
    ck_assert_int_eq(cache_blob_parse(blob, *size, view, NULL, 0), CACHE_BLOB_OK);
    return blob;
}

/* Re-encodes the engine's blob with an edited ID (so the checksum is right)
 * and offers it: it must be refused without building anything. */
static void offer_edited_blob(void (*edit)(cache_blob_id_t *id))
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    size_t size;
    cache_blob_view_t view;
    uint8_t *blob = engine_blob(&x, &size, &view);
    edit(&view.id);
    uint8_t *edited = malloc(size);
    cache_blob_encode(&view.id, view.binary, view.binary_size, edited);
    uint64_t modules = misuse_live_modules();
    dnnl_engine_t engine = NULL;
    DNNL_STATUS(dnnl_invalid_arguments,
                dnnl_ze_interop_engine_create_from_cache_blob(
                    &engine, x.f.env.driver, x.f.env.device, x.f.env.context, size, edited));
    ck_assert_ptr_null(engine);
    ck_assert_uint_eq(misuse_live_modules(), modules);
    free(edited);
    free(blob);
}

static void blob_corrupt(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    size_t size;
    cache_blob_view_t view;
    uint8_t *blob = engine_blob(&x, &size, &view);
    blob[size / 2] ^= 0x10;
    dnnl_engine_t engine = NULL;
    uint64_t modules = misuse_live_modules();
    DNNL_STATUS(dnnl_invalid_arguments,
                dnnl_ze_interop_engine_create_from_cache_blob(
                    &engine, x.f.env.driver, x.f.env.device, x.f.env.context, size, blob));
    ck_assert_uint_eq(misuse_live_modules(), modules);
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
    id->dnnl_patch += 1;
}
static void other_zeil(cache_blob_id_t *id)
{
    id->format_version += 1;
}
static void blob_of_other_device(void)
{
    offer_edited_blob(other_device);
}
static void blob_of_other_driver(void)
{
    offer_edited_blob(other_driver);
}
static void blob_of_other_dnnl(void)
{
    offer_edited_blob(other_dnnl);
}
static void blob_of_other_zeil(void)
{
    offer_edited_blob(other_zeil);
}

static void blob_buffer_too_small(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    size_t size = 16;
    uint8_t small[16];
    memset(small, 0xee, sizeof small);
    DNNL_STATUS(dnnl_invalid_arguments,
                dnnl_ze_interop_engine_get_cache_blob(x.engine, &size, small));
    ck_assert_uint_eq(small[15], 0xee); /* nothing written past or into it */
}

/* A blob whose ID matches but whose binary is no loadable module: the
 * device cannot run it and there is nothing to forward to. */
static void blob_with_garbage_binary(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    size_t size;
    cache_blob_view_t view;
    uint8_t *blob = engine_blob(&x, &size, &view);
    uint8_t garbage[64];
    memset(garbage, 0x42, sizeof garbage);
    size_t edited_size = cache_blob_size(sizeof garbage);
    uint8_t *edited = malloc(edited_size);
    cache_blob_encode(&view.id, garbage, sizeof garbage, edited);
    dnnl_engine_t engine = NULL;
    uint64_t modules = misuse_live_modules();
    dnnl_status_t status = dnnl_ze_interop_engine_create_from_cache_blob(
        &engine, x.f.env.driver, x.f.env.device, x.f.env.context, edited_size, edited);
    ck_assert_int_ne(status, dnnl_success);
    ck_assert_uint_eq(misuse_live_modules(), modules);
    free(blob);
}

/* A blob holding a loadable module that is not zeil's (the test kernels). */
static void blob_with_foreign_module(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    size_t size;
    cache_blob_view_t view;
    uint8_t *blob = engine_blob(&x, &size, &view);
    size_t module_size;
    uint8_t *module = zt_read_file(getenv("ZEIL_TEST_KERNELS"), &module_size);
    size_t edited_size = cache_blob_size(module_size);
    uint8_t *edited = malloc(edited_size);
    cache_blob_encode(&view.id, module, module_size, edited);
    dnnl_engine_t engine = NULL;
    uint64_t modules = misuse_live_modules();
    dnnl_status_t status = dnnl_ze_interop_engine_create_from_cache_blob(
        &engine, x.f.env.driver, x.f.env.device, x.f.env.context, edited_size, edited);
    ck_assert_int_ne(status, dnnl_success);
    ck_assert_uint_eq(misuse_live_modules(), modules);
    free(blob);
}

static const misuse_case_t cases[] = {
    {"interop_blob_garbage_binary", "ZEIL-E104", blob_with_garbage_binary, NULL},
    {"interop_blob_foreign_module", "ZEIL-E107", blob_with_foreign_module, NULL},
    {"interop_blob_corrupt", "ZEIL-E140", blob_corrupt, NULL},
    {"interop_blob_other_device", "ZEIL-E141", blob_of_other_device, NULL},
    {"interop_blob_other_driver", "ZEIL-E142", blob_of_other_driver, NULL},
    {"interop_blob_other_dnnl", "ZEIL-E143", blob_of_other_dnnl, NULL},
    {"interop_blob_other_zeil", "ZEIL-E144", blob_of_other_zeil, NULL},
    {"interop_blob_buffer_too_small", "ZEIL-E145", blob_buffer_too_small, NULL},
};

misuse_case_list_t misuse_interop_blob_cases(void)
{
    return MISUSE_LIST(cases);
}
