/*
 * cache_blob.h: the engine cache blob and its ID, as bytes. Pure functions
 * (no Level Zero, no oneDNN, no allocation): the parser is what a fuzzer
 * calls, and it must refuse any input it does not fully understand.
 *
 * ID   = u32 format | u8 uuid[16] | u32 driver version | u32 oneDNN major,
 *        minor, patch | char oneDNN hash[64] | char device name[256]
 * Blob = "ZEILBLOB" | u32 format | u32 id size | u64 binary size | ID |
 *        native binary | u64 FNV-1a of everything before it
 * All integers little-endian; strings zero-padded.
 */
#ifndef ZEIL_INTEROP_CACHE_BLOB_H
#define ZEIL_INTEROP_CACHE_BLOB_H

#include <stddef.h>
#include <stdint.h>

#define CACHE_BLOB_FORMAT_VERSION 1u
#define CACHE_BLOB_UUID_SIZE 16
#define CACHE_BLOB_HASH_SIZE 64
#define CACHE_BLOB_NAME_SIZE 256
#define CACHE_BLOB_ID_SIZE \
    (4 + CACHE_BLOB_UUID_SIZE + 4 + 12 + CACHE_BLOB_HASH_SIZE + CACHE_BLOB_NAME_SIZE)
#define CACHE_BLOB_HEADER_SIZE (8 + 4 + 4 + 8)
#define CACHE_BLOB_TRAILER_SIZE 8

typedef struct cache_blob_id {
    uint32_t format_version;
    uint8_t device_uuid[CACHE_BLOB_UUID_SIZE];
    uint32_t driver_version;
    uint32_t dnnl_major, dnnl_minor, dnnl_patch;
    char dnnl_hash[CACHE_BLOB_HASH_SIZE];   /* always zero-terminated */
    char device_name[CACHE_BLOB_NAME_SIZE]; /* always zero-terminated */
} cache_blob_id_t;

/* Writes CACHE_BLOB_ID_SIZE bytes to out. */
void cache_blob_id_encode(const cache_blob_id_t *id, uint8_t out[CACHE_BLOB_ID_SIZE]);
/* 0 on success, -1 when size is not CACHE_BLOB_ID_SIZE or a string is not
 * terminated within its field. */
int cache_blob_id_decode(const uint8_t *bytes, size_t size, cache_blob_id_t *id);

/* Size of a blob holding binary_size bytes of binary; 0 on overflow. */
size_t cache_blob_size(size_t binary_size);
/* Writes the blob into out (cache_blob_size(binary_size) bytes). */
void cache_blob_encode(const cache_blob_id_t *id, const uint8_t *binary, size_t binary_size,
                       uint8_t *out);

typedef enum cache_blob_status {
    CACHE_BLOB_OK = 0,
    CACHE_BLOB_TRUNCATED, /* shorter than its header or its sizes say */
    CACHE_BLOB_BAD_MAGIC,
    CACHE_BLOB_OTHER_FORMAT, /* another zeil blob format version */
    CACHE_BLOB_BAD_LAYOUT,   /* sizes inconsistent or trailing bytes */
    CACHE_BLOB_BAD_CHECKSUM,
    CACHE_BLOB_BAD_ID,
} cache_blob_status_t;

typedef struct cache_blob_view {
    uint32_t format_version;
    cache_blob_id_t id;
    const uint8_t *binary; /* points into the parsed blob */
    size_t binary_size;
} cache_blob_view_t;

/* Parses and checks a blob. On failure, why (if non-null) gets one line
 * saying what is wrong. Never reads outside blob[0..size). */
cache_blob_status_t cache_blob_parse(const uint8_t *blob, size_t size, cache_blob_view_t *view,
                                     char *why, size_t why_size);

typedef enum cache_blob_mismatch {
    CACHE_BLOB_MATCH = 0,
    CACHE_BLOB_OTHER_ZEIL, /* ID format version */
    CACHE_BLOB_OTHER_DEVICE,
    CACHE_BLOB_OTHER_DRIVER,
    CACHE_BLOB_OTHER_DNNL,
} cache_blob_mismatch_t;

/* How the blob's ID differs from this process's, with a one-line why. */
cache_blob_mismatch_t cache_blob_id_compare(const cache_blob_id_t *blob,
                                            const cache_blob_id_t *here, char *why,
                                            size_t why_size);

#endif
