/* rd_sha256.h: SHA-256 (FIPS 180-4), for the compiled-module cache's keys
 * and its entries' checksums. */
#ifndef ZEIL_RD_SHA256_H
#define ZEIL_RD_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct rd_sha256 {
    uint32_t h[8];
    uint64_t bytes;
    unsigned char block[64];
    size_t used;
} rd_sha256_t;

void rd_sha256_init(rd_sha256_t *s);
void rd_sha256_add(rd_sha256_t *s, const void *data, size_t n);
void rd_sha256_end(rd_sha256_t *s, unsigned char digest[32]);
/* Lower-case hex of a digest: 64 characters and a NUL. */
void rd_sha256_hex(const unsigned char digest[32], char hex[65]);

#endif
