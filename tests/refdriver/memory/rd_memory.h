/*
 * rd_memory.h: the driver's table of USM allocations.
 *
 * Every allocation is host memory from the driver's arena (rd_arena.h); the table records what kind the
 * application asked for, on which context and device, so that
 * zeMemGetAllocProperties and zeMemGetAddressRange can answer for any
 * pointer, including one inside an allocation (binary search over the
 * allocations sorted by base address).
 */
#ifndef ZEIL_RD_MEMORY_H
#define ZEIL_RD_MEMORY_H

#include <level_zero/ze_api.h>

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

struct rd_context;
struct rd_device;

typedef struct rd_alloc {
    uintptr_t base;
    size_t size;
    ze_memory_type_t type;
    uint64_t id;
    struct rd_context *context;
    struct rd_device *device; /* null for host allocations */
    size_t block;             /* the arena block holding it */
} rd_alloc_t;

typedef struct rd_alloc_table {
    pthread_mutex_t lock;
    rd_alloc_t *items; /* sorted by base */
    size_t count;
    size_t capacity;
    uint64_t next_id;
} rd_alloc_table_t;

void rd_alloc_table_init(rd_alloc_table_t *table);

#endif
