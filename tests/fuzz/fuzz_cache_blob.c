/*
 * Fuzz target: the interop library's cache blob parser (interop/cache_blob.c),
 * which reads bytes an application hands to
 * dnnl_ze_interop_engine_create_from_cache_blob.
 *
 * Beyond "no crash, no out-of-bounds read", it checks what the parser
 * promises: a blob it accepts has its binary inside the input and terminated
 * strings, and re-encodes to a blob of the same size that parses to the same
 * ID and binary. (Bytes after a string's terminator are not compared: the
 * encoder zero-pads, a parsed blob may carry anything there.)
 * Every input is parsed twice: as it is, and with its trailing checksum
 * recomputed, so that mutations get past the checksum to the ID decoding
 * (a fuzzer cannot guess a 64-bit FNV-1a).
 */
#include "cache_blob.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken promise is a crash for the fuzzer, with the promise named. */
#define require(condition) \
    do { \
        if (!(condition)) { \
            fprintf(stderr, "%s:%d: broken: %s\n", __FILE__, __LINE__, #condition); \
            abort(); \
        } \
    } while (0)

static int same_id(const cache_blob_id_t *a, const cache_blob_id_t *b)
{
    return a->format_version == b->format_version &&
           memcmp(a->device_uuid, b->device_uuid, sizeof a->device_uuid) == 0 &&
           a->driver_version == b->driver_version && a->dnnl_major == b->dnnl_major &&
           a->dnnl_minor == b->dnnl_minor && a->dnnl_patch == b->dnnl_patch &&
           strcmp(a->dnnl_hash, b->dnnl_hash) == 0 && strcmp(a->device_name, b->device_name) == 0;
}

static void check_accepted(const uint8_t *data, size_t size, const cache_blob_view_t *view)
{
    require(view->binary >= data && view->binary_size <= size &&
            (size_t)(view->binary - data) <= size - view->binary_size);
    require(memchr(view->id.device_name, 0, sizeof view->id.device_name) != NULL);
    require(memchr(view->id.dnnl_hash, 0, sizeof view->id.dnnl_hash) != NULL);
    size_t again_size = cache_blob_size(view->binary_size);
    require(again_size == size);
    uint8_t *again = malloc(again_size);
    require(again != NULL);
    cache_blob_encode(&view->id, view->binary, view->binary_size, again);
    cache_blob_view_t back;
    require(cache_blob_parse(again, again_size, &back, NULL, 0) == CACHE_BLOB_OK);
    require(same_id(&back.id, &view->id) && back.binary_size == view->binary_size);
    require(memcmp(back.binary, view->binary, view->binary_size) == 0);
    free(again);
}

/* The format's checksum (cache_blob.h: FNV-1a 64 of everything before it). */
static uint64_t fnv1a64(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static void parse_one(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    parse_one(data, size);
    if (size >= CACHE_BLOB_TRAILER_SIZE) {
        uint8_t *repaired = malloc(size);
        require(repaired != NULL);
        memcpy(repaired, data, size);
        uint64_t sum = fnv1a64(repaired, size - CACHE_BLOB_TRAILER_SIZE);
        for (int i = 0; i < 8; i++)
            repaired[size - CACHE_BLOB_TRAILER_SIZE + (size_t)i] = (uint8_t)(sum >> (8 * i));
        parse_one(repaired, size);
        free(repaired);
    }
    return 0;
}

static void parse_one(const uint8_t *data, size_t size)
{
    cache_blob_view_t view;
    char why[256];
    memset(why, 0x55, sizeof why);
    cache_blob_status_t status = cache_blob_parse(data, size, &view, why, sizeof why);
    if (status == CACHE_BLOB_OK) {
        check_accepted(data, size, &view);
        cache_blob_id_t here;
        memset(&here, 0, sizeof here);
        here.format_version = CACHE_BLOB_FORMAT_VERSION;
        strcpy(here.device_name, "zeil fuzz device");
        char mismatch[256];
        cache_blob_id_compare(&view.id, &here, mismatch, sizeof mismatch);
        require(memchr(mismatch, 0, sizeof mismatch) != NULL);
    } else {
        require(memchr(why, 0, sizeof why) != NULL);
    }
    /* Tiny why buffers must be respected too. */
    char small[3];
    cache_blob_parse(data, size, &view, small, sizeof small);

    cache_blob_id_t id;
    if (cache_blob_id_decode(data, size, &id) == 0) {
        require(size == CACHE_BLOB_ID_SIZE);
        uint8_t back[CACHE_BLOB_ID_SIZE];
        cache_blob_id_encode(&id, back);
        cache_blob_id_t id2;
        require(cache_blob_id_decode(back, sizeof back, &id2) == 0);
        require(same_id(&id2, &id));
    }
}
