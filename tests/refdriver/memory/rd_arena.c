/*
 * The USM arena: power-of-two blocks (64 B and up) carved from mapped
 * regions, one free list per size class.
 *
 * Regions are reserved REGION_BYTES at a time (MAP_NORESERVE: only touched
 * pages cost memory) on a REGION_BYTES boundary; a block bigger than a
 * region gets a mapping of its own. Nothing is ever unmapped: an address
 * that was USM stays the arena's, so the C heap (or anyone's mmap) never
 * gets it. Freed blocks of LARGE_BYTES or more give their pages back
 * (MADV_DONTNEED) and keep the addresses.
 *
 * A block is aligned to its own size (blocks of a region are carved at
 * multiples of their size from a region aligned to REGION_BYTES), so any
 * alignment up to the block size holds; a larger alignment asks for a
 * larger block. Small classes are carved a SLAB_BYTES slab at a time.
 *
 * Free lists are rings of addresses (growable, C heap: bookkeeping, not
 * USM). The reuse mode pops the newest, otherwise the oldest. One mutex:
 * allocation is not on anyone's hot path here.
 *
 * Under AddressSanitizer a free block, and the tail of a block past the
 * size asked for, are poisoned: a use after free or an overflow of USM is
 * reported as it would be for malloc's memory.
 */
#include "rd_arena.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define MIN_SHIFT 6u                     /* 64-byte blocks */
#define CLASSES 58u                      /* up to 2^63 */
#define REGION_BYTES ((size_t)256 << 20) /* address space per region */
#define SLAB_BYTES ((size_t)64 << 10)    /* small classes are carved by slab */
#define LARGE_BYTES ((size_t)64 << 10)   /* freed: pages given back */

typedef struct free_ring {
    uintptr_t *items;
    size_t head, count, capacity; /* capacity: a power of two */
} free_ring_t;

static struct {
    pthread_mutex_t lock;
    free_ring_t free[CLASSES];
    uintptr_t region, region_used; /* the region being carved */
} arena = {.lock = PTHREAD_MUTEX_INITIALIZER};

static pthread_once_t reuse_once = PTHREAD_ONCE_INIT;
static int reuse;

static void read_reuse(void)
{
    const char *value = getenv("ZEIL_CPU_REUSE");
    reuse = value && strtol(value, NULL, 10) != 0;
}

int rd_reuse_mode(void)
{
    pthread_once(&reuse_once, read_reuse);
    return reuse;
}

/* A fork's child has only the forking thread: a lock held by another is
 * never released. */
static void arena_after_fork_in_child(void)
{
    pthread_mutex_init(&arena.lock, NULL);
}

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void register_fork_handler(void)
{
    pthread_atfork(NULL, NULL, arena_after_fork_in_child);
}

static unsigned class_of(size_t size, size_t alignment)
{
    size_t need = size > alignment ? size : alignment;
    unsigned shift = MIN_SHIFT;
    while (shift < 63 && ((size_t)1 << shift) < need)
        shift++;
    return shift - MIN_SHIFT;
}

static int ring_push(free_ring_t *r, uintptr_t p)
{
    if (r->count == r->capacity) {
        size_t capacity = r->capacity ? 2 * r->capacity : 64;
        uintptr_t *items = malloc(capacity * sizeof *items);
        if (!items)
            return -1;
        for (size_t i = 0; i < r->count; i++)
            items[i] = r->items[(r->head + i) & (r->capacity - 1)];
        free(r->items);
        r->items = items;
        r->head = 0;
        r->capacity = capacity;
    }
    r->items[(r->head + r->count) & (r->capacity - 1)] = p;
    r->count++;
    return 0;
}

/* The newest (reuse mode) or the oldest freed block, or 0. */
static uintptr_t ring_pop(free_ring_t *r)
{
    if (!r->count)
        return 0;
    r->count--;
    if (rd_reuse_mode())
        return r->items[(r->head + r->count) & (r->capacity - 1)];
    uintptr_t p = r->items[r->head];
    r->head = (r->head + 1) & (r->capacity - 1);
    return p;
}

/* Fresh address space of `bytes` on a boundary of `align`, or 0. */
static uintptr_t map_aligned(size_t bytes, size_t align)
{
    size_t extra = align > 4096 ? align : 0;
    if (bytes > SIZE_MAX - extra)
        return 0;
    char *raw = mmap(NULL, bytes + extra, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED)
        return 0;
    uintptr_t p = ((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1);
    if (p > (uintptr_t)raw)
        munmap(raw, p - (uintptr_t)raw);
    uintptr_t end = (uintptr_t)raw + bytes + extra;
    if (p + bytes < end)
        munmap((void *)(p + bytes), end - (p + bytes));
    return p;
}

/* Under the lock: `bytes` (a power of two up to REGION_BYTES) of the
 * current region at a multiple of bytes, a new region when it is full. The
 * gap skipped for alignment is lost address space, never memory. */
static uintptr_t carve(size_t bytes)
{
    uintptr_t at = (arena.region_used + bytes - 1) & ~(uintptr_t)(bytes - 1);
    if (!arena.region || at + bytes > REGION_BYTES) {
        uintptr_t region = map_aligned(REGION_BYTES, REGION_BYTES);
        if (!region)
            return 0;
        arena.region = region;
        at = 0;
    }
    arena.region_used = at + bytes;
    return arena.region + at;
}

/* Under the lock: one more free block of class c (a slab's worth for small
 * classes). 0 or -1. */
static int refill(unsigned c)
{
    size_t block = (size_t)1 << (c + MIN_SHIFT);
    if (block > REGION_BYTES) {
        uintptr_t p = map_aligned(block, block);
        if (!p)
            return -1;
        POISON((void *)p, block);
        return ring_push(&arena.free[c], p) == 0 ? 0 : (munmap((void *)p, block), -1);
    }
    size_t bytes = block < SLAB_BYTES ? SLAB_BYTES : block;
    uintptr_t p = carve(bytes);
    if (!p)
        return -1;
    POISON((void *)p, bytes);
    for (size_t off = 0; off < bytes; off += block)
        if (ring_push(&arena.free[c], p + off) != 0)
            return off ? 0 : -1; /* the rest of the slab stays unused */
    return 0;
}

void *rd_arena_alloc(size_t size, size_t alignment, size_t *block)
{
    pthread_once(&fork_once, register_fork_handler);
    if (!size || size > ((size_t)1 << 62) || alignment > ((size_t)1 << 62))
        return NULL;
    unsigned c = class_of(size, alignment ? alignment : 1);
    pthread_mutex_lock(&arena.lock);
    uintptr_t p = ring_pop(&arena.free[c]);
    if (!p && refill(c) == 0)
        p = ring_pop(&arena.free[c]);
    pthread_mutex_unlock(&arena.lock);
    if (!p)
        return NULL;
    *block = (size_t)1 << (c + MIN_SHIFT);
    UNPOISON((void *)p, size);
    return (void *)p;
}

void rd_arena_free(void *ptr, size_t block)
{
    unsigned c = class_of(block, 1);
    if (block >= LARGE_BYTES)
        madvise(ptr, block, MADV_DONTNEED);
    POISON(ptr, block);
    pthread_mutex_lock(&arena.lock);
    /* Out of memory for the list itself: the block is lost, never reused. */
    (void)ring_push(&arena.free[c], (uintptr_t)ptr);
    pthread_mutex_unlock(&arena.lock);
}
