/*
 * rd_arena.h: where the driver's USM comes from, and how fast freed memory
 * and handles come back.
 *
 * A device's USM lives in address ranges its driver manages, never in the C
 * heap. So does this driver's: mapped ranges (rd_arena.c) that only grow, so
 * that an address once USM is only ever USM again (host malloc never lands
 * on it) and every reuse of it is a USM allocation a layer sees.
 *
 * ZEIL_CPU_REUSE=1 (the reuse mode) hands out the most recently freed block
 * of a size class first, and the most recently freed object of a kind as the
 * next handle of that kind (rd_object.h): the quickest reuse a driver can
 * make, which is what stress suites want. Otherwise freed blocks wait their
 * turn (oldest freed first) and objects come from the C heap.
 */
#ifndef ZEIL_RD_ARENA_H
#define ZEIL_RD_ARENA_H

#include <stddef.h>

/* 1 when ZEIL_CPU_REUSE is set to a non-zero number (read once). */
int rd_reuse_mode(void);

/* A block of at least size bytes aligned to alignment (a power of two),
 * or null when out of memory. *block: the block's own size, for the free. */
void *rd_arena_alloc(size_t size, size_t alignment, size_t *block);
void rd_arena_free(void *ptr, size_t block);

#endif
