/* Cache blob encoding and its defensive parser (see cache_blob.h). */
#include "cache_blob.h"

#include <stdio.h>
#include <string.h>

static const uint8_t blob_magic[8] = {'Z', 'E', 'I', 'L', 'B', 'L', 'O', 'B'};

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_u32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static uint64_t fnv1a64(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static void put_string(uint8_t *p, const char *s, size_t field)
{
    size_t n = strnlen(s, field - 1);
    memset(p, 0, field);
    memcpy(p, s, n);
}

/* A field is a valid string when it holds a terminator. */
static int get_string(char *dst, const uint8_t *p, size_t field)
{
    if (!memchr(p, 0, field))
        return -1;
    memcpy(dst, p, field);
    return 0;
}

void cache_blob_id_encode(const cache_blob_id_t *id, uint8_t out[CACHE_BLOB_ID_SIZE])
{
    uint8_t *p = out;
    put_u32(p, id->format_version), p += 4;
    memcpy(p, id->device_uuid, CACHE_BLOB_UUID_SIZE), p += CACHE_BLOB_UUID_SIZE;
    put_u32(p, id->driver_version), p += 4;
    put_u32(p, id->dnnl_major), p += 4;
    put_u32(p, id->dnnl_minor), p += 4;
    put_u32(p, id->dnnl_patch), p += 4;
    put_string(p, id->dnnl_hash, CACHE_BLOB_HASH_SIZE), p += CACHE_BLOB_HASH_SIZE;
    put_string(p, id->device_name, CACHE_BLOB_NAME_SIZE);
}

int cache_blob_id_decode(const uint8_t *bytes, size_t size, cache_blob_id_t *id)
{
    if (size != CACHE_BLOB_ID_SIZE)
        return -1;
    const uint8_t *p = bytes;
    id->format_version = get_u32(p), p += 4;
    memcpy(id->device_uuid, p, CACHE_BLOB_UUID_SIZE), p += CACHE_BLOB_UUID_SIZE;
    id->driver_version = get_u32(p), p += 4;
    id->dnnl_major = get_u32(p), p += 4;
    id->dnnl_minor = get_u32(p), p += 4;
    id->dnnl_patch = get_u32(p), p += 4;
    if (get_string(id->dnnl_hash, p, CACHE_BLOB_HASH_SIZE) != 0)
        return -1;
    p += CACHE_BLOB_HASH_SIZE;
    return get_string(id->device_name, p, CACHE_BLOB_NAME_SIZE);
}

size_t cache_blob_size(size_t binary_size)
{
    const size_t fixed = CACHE_BLOB_HEADER_SIZE + CACHE_BLOB_ID_SIZE + CACHE_BLOB_TRAILER_SIZE;
    if (binary_size > SIZE_MAX - fixed)
        return 0;
    return fixed + binary_size;
}

void cache_blob_encode(const cache_blob_id_t *id, const uint8_t *binary, size_t binary_size,
                       uint8_t *out)
{
    uint8_t *p = out;
    memcpy(p, blob_magic, sizeof blob_magic), p += sizeof blob_magic;
    put_u32(p, CACHE_BLOB_FORMAT_VERSION), p += 4;
    put_u32(p, CACHE_BLOB_ID_SIZE), p += 4;
    put_u64(p, binary_size), p += 8;
    cache_blob_id_encode(id, p), p += CACHE_BLOB_ID_SIZE;
    if (binary_size)
        memcpy(p, binary, binary_size);
    p += binary_size;
    put_u64(p, fnv1a64(out, (size_t)(p - out)));
}

#define WHY(...) (why ? (void)snprintf(why, why_size, __VA_ARGS__) : (void)0)

cache_blob_status_t cache_blob_parse(const uint8_t *blob, size_t size, cache_blob_view_t *view,
                                     char *why, size_t why_size)
{
    if (!blob || size < CACHE_BLOB_HEADER_SIZE) {
        WHY("blob has %zu bytes, its header alone needs %d", size, CACHE_BLOB_HEADER_SIZE);
        return CACHE_BLOB_TRUNCATED;
    }
    if (memcmp(blob, blob_magic, sizeof blob_magic) != 0) {
        WHY("blob does not start with the magic \"ZEILBLOB\"");
        return CACHE_BLOB_BAD_MAGIC;
    }
    uint32_t format = get_u32(blob + 8);
    if (format != CACHE_BLOB_FORMAT_VERSION) {
        WHY("blob format version %u, this zeil reads version %u", format,
            CACHE_BLOB_FORMAT_VERSION);
        return CACHE_BLOB_OTHER_FORMAT;
    }
    uint32_t id_size = get_u32(blob + 12);
    uint64_t binary_size = get_u64(blob + 16);
    if (id_size != CACHE_BLOB_ID_SIZE) {
        WHY("blob says its ID has %u bytes, format %u IDs have %d", id_size, format,
            CACHE_BLOB_ID_SIZE);
        return CACHE_BLOB_BAD_LAYOUT;
    }
    size_t available = size - CACHE_BLOB_HEADER_SIZE;
    size_t fixed_rest = CACHE_BLOB_ID_SIZE + CACHE_BLOB_TRAILER_SIZE;
    if (available < fixed_rest || binary_size > available - fixed_rest) {
        WHY("blob has %zu bytes, its header says %llu", size,
            (unsigned long long)CACHE_BLOB_HEADER_SIZE + fixed_rest + binary_size);
        return CACHE_BLOB_TRUNCATED;
    }
    if (binary_size != available - fixed_rest) {
        WHY("blob has %zu bytes after its end", (size_t)(available - fixed_rest - binary_size));
        return CACHE_BLOB_BAD_LAYOUT;
    }
    size_t body = size - CACHE_BLOB_TRAILER_SIZE;
    uint64_t stored = get_u64(blob + body), actual = fnv1a64(blob, body);
    if (stored != actual) {
        WHY("checksum mismatch (blob says 0x%016llx, contents give 0x%016llx)",
            (unsigned long long)stored, (unsigned long long)actual);
        return CACHE_BLOB_BAD_CHECKSUM;
    }
    const uint8_t *id = blob + CACHE_BLOB_HEADER_SIZE;
    if (cache_blob_id_decode(id, CACHE_BLOB_ID_SIZE, &view->id) != 0) {
        WHY("blob ID has an unterminated string");
        return CACHE_BLOB_BAD_ID;
    }
    view->format_version = format;
    view->binary = id + CACHE_BLOB_ID_SIZE;
    view->binary_size = (size_t)binary_size;
    return CACHE_BLOB_OK;
}

static void uuid_text(const uint8_t *uuid, char out[2 * CACHE_BLOB_UUID_SIZE + 1])
{
    for (int i = 0; i < CACHE_BLOB_UUID_SIZE; i++)
        snprintf(out + 2 * i, 3, "%02x", uuid[i]);
}

cache_blob_mismatch_t cache_blob_id_compare(const cache_blob_id_t *blob,
                                            const cache_blob_id_t *here, char *why, size_t why_size)
{
    if (blob->format_version != here->format_version) {
        WHY("blob ID format version %u, this zeil writes version %u", blob->format_version,
            here->format_version);
        return CACHE_BLOB_OTHER_ZEIL;
    }
    if (memcmp(blob->device_uuid, here->device_uuid, CACHE_BLOB_UUID_SIZE) != 0 ||
        strcmp(blob->device_name, here->device_name) != 0) {
        char a[2 * CACHE_BLOB_UUID_SIZE + 1], b[2 * CACHE_BLOB_UUID_SIZE + 1];
        uuid_text(blob->device_uuid, a);
        uuid_text(here->device_uuid, b);
        WHY("blob is for device '%s' (uuid %s), this device is '%s' (uuid %s)", blob->device_name,
            a, here->device_name, b);
        return CACHE_BLOB_OTHER_DEVICE;
    }
    if (blob->driver_version != here->driver_version) {
        WHY("blob is for driver version 0x%x, this driver is 0x%x", blob->driver_version,
            here->driver_version);
        return CACHE_BLOB_OTHER_DRIVER;
    }
    if (blob->dnnl_major != here->dnnl_major || blob->dnnl_minor != here->dnnl_minor ||
        blob->dnnl_patch != here->dnnl_patch || strcmp(blob->dnnl_hash, here->dnnl_hash) != 0) {
        WHY("blob is for oneDNN %u.%u.%u (hash %s), this is oneDNN %u.%u.%u (hash %s)",
            blob->dnnl_major, blob->dnnl_minor, blob->dnnl_patch, blob->dnnl_hash, here->dnnl_major,
            here->dnnl_minor, here->dnnl_patch, here->dnnl_hash);
        return CACHE_BLOB_OTHER_DNNL;
    }
    return CACHE_BLOB_MATCH;
}
