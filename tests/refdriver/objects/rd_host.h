/*
 * rd_host.h: facts about the machine the driver runs on, read once at zeInit.
 * The device properties are these facts, so that they are honest.
 */
#ifndef ZEIL_RD_HOST_H
#define ZEIL_RD_HOST_H

#include <stdint.h>

typedef struct rd_host {
    uint32_t cores;        /* online processors, at least 1 */
    uint64_t memory_bytes; /* physical memory */
    uint64_t page_size;
    uint32_t clock_mhz;   /* maximum core clock, 0 when unknown */
    uint64_t cache_bytes; /* last-level cache, 0 when unknown */
    uint64_t identity;    /* hash of machine-id (or hostname): stable per machine */
    char cpu_name[128];   /* "model name" of /proc/cpuinfo, or the architecture */
} rd_host_t;

void rd_host_read(rd_host_t *host);

/* 64-bit FNV-1a over bytes, continuing from seed (start with RD_HASH_SEED). */
#define RD_HASH_SEED 0xcbf29ce484222325ull
uint64_t rd_hash(uint64_t seed, const void *bytes, uint64_t size);

#endif
