/*
 * Writes the generated part of corpus/cache_blob/: valid blobs (with and
 * without a binary) and one of each way a blob can be wrong, made with the
 * library's own encoder. Run once by hand when the blob format changes:
 *   build/tests/fuzz/seed_cache_blobs tests/fuzz/corpus/cache_blob
 */
#include "cache_blob.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void write_seed(const char *dir, const char *name, const uint8_t *bytes, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, size, f) != size || fclose(f) != 0) {
        fprintf(stderr, "seed_cache_blobs: cannot write %s\n", path);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    cache_blob_id_t id;
    memset(&id, 0, sizeof id);
    id.format_version = CACHE_BLOB_FORMAT_VERSION;
    for (int i = 0; i < CACHE_BLOB_UUID_SIZE; i++)
        id.device_uuid[i] = (uint8_t)i;
    id.driver_version = 0x10000;
    id.dnnl_major = 2, id.dnnl_minor = 6, id.dnnl_patch = 3;
    strcpy(id.dnnl_hash, "N/A");
    strcpy(id.device_name, "zeil cpu 0");
    const uint8_t binary[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};

    size_t size = cache_blob_size(sizeof binary);
    uint8_t *blob = malloc(size);
    cache_blob_encode(&id, binary, sizeof binary, blob);
    write_seed(argv[1], "valid", blob, size);
    write_seed(argv[1], "truncated_header", blob, CACHE_BLOB_HEADER_SIZE - 3);
    write_seed(argv[1], "truncated_binary", blob, size - CACHE_BLOB_TRAILER_SIZE - 4);
    blob[size - 1] ^= 0x40;
    write_seed(argv[1], "bad_checksum", blob, size);
    blob[size - 1] ^= 0x40;
    blob[0] = 'X';
    write_seed(argv[1], "bad_magic", blob, size);
    free(blob);

    size_t empty_size = cache_blob_size(0);
    uint8_t *empty = malloc(empty_size);
    cache_blob_encode(&id, NULL, 0, empty);
    write_seed(argv[1], "valid_no_binary", empty, empty_size);
    id.format_version = CACHE_BLOB_FORMAT_VERSION + 1;
    cache_blob_encode(&id, NULL, 0, empty);
    write_seed(argv[1], "other_id_format", empty, empty_size);
    free(empty);

    uint8_t id_bytes[CACHE_BLOB_ID_SIZE];
    id.format_version = CACHE_BLOB_FORMAT_VERSION;
    cache_blob_id_encode(&id, id_bytes);
    write_seed(argv[1], "id_only", id_bytes, sizeof id_bytes);
    return 0;
}
