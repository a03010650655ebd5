/*
 * registry_alloc_index.h: the state of the USM allocation index, shared by
 * its writers (registry_allocs.c, which says how readers and writers share
 * it, registry_alloc_frees.c, and their usual cases inline in
 * usm_hot_paths.h) and its readers (registry_alloc_lookup.c).
 */
#ifndef ZEIL_REGISTRY_ALLOC_INDEX_H
#define ZEIL_REGISTRY_ALLOC_INDEX_H

#include "registry.h"
#include "registry_alloc_tables.h"
#include "call_counter.h"

#define ALLOC_CREATORS 255u /* an index of 8 bits, 0 for null */
/* Seqlock reads before a reader takes the writers' lock once. */
#define READ_ATTEMPTS 64u
_Static_assert(ZEIL_TOMBSTONES <= 65536u, "a FIFO place takes 16 bits");

/* All zero at start (in .bss: 70 KiB, most of it the FIFO). What every
 * writer's operation changes sits in the sequence's line, which each one
 * writes anyway. */
typedef struct alloc_index_state {
    _Alignas(64) _Atomic uint64_t seq; /* odd while a writer changes the indexes */
    _Atomic uint32_t newest_level;     /* of the newest allocation: where frees look first */
    uint32_t fifo_next;
    const char *last_creator; /* the last creator_index asked for, and its index */
    uint32_t last_creator_index;
    uint32_t creator_count;
    uint32_t dead_shrunk; /* levels of the dead index that lost entries */
    _Alignas(64) alloc_index_t live;
    alloc_index_t dead;
    struct {
        uintptr_t base, span; /* span 0: none, or dropped early; the
                                          level is level_of(span) */
    } fifo[ZEIL_TOMBSTONES];
    /* created_by, interned: entries keep an index, 0 for null, i + 1 for
     * creators[i]. */
    const char *_Atomic creators[ALLOC_CREATORS];
} alloc_index_state_t;

extern alloc_index_state_t allocs __attribute__((visibility("hidden")));
/* Writers' lock; a reader that keeps losing to them takes it once. It is
 * the call counter's top bit (call_counter.h): an allocation or a free that
 * has no number yet takes it with the lock, in one read-modify-write. */
static inline void allocs_lock(void)
{
    call_counter_lock();
}

static inline void allocs_unlock(void)
{
    call_counter_unlock();
}

/* The lock if it is free, and a number in *call when it is 0: 1 when
 * taken, 0 (nothing taken) otherwise. */
static inline __attribute__((always_inline)) int allocs_try_lock(uint64_t *call)
{
    return call_counter_try_lock(call);
}

/* ---- writers (registry_allocs.c, registry_alloc_frees.c; under the lock) ---- */

/* Always inline: a call would make the short paths of registry_alloc_frees.c
 * save registers (the compiler declined to inline them there). */
static inline void write_begin(void) __attribute__((always_inline));
static inline void write_end(void) __attribute__((always_inline));

static inline void write_begin(void)
{
    uint64_t s = ALLOC_LOAD(allocs.seq);
    atomic_store_explicit(&allocs.seq, s + 1, memory_order_relaxed);
    /* The stores that follow are releases: none is seen before this one. */
}

static inline void write_end(void)
{
    ALLOC_STORE(allocs.seq, ALLOC_LOAD(allocs.seq) + 1);
}

/* write_begin and write_end for a writer that knows the sequence s (even:
 * it holds the lock) and need not load it again. */
static inline void write_begin_at(uint64_t s) __attribute__((always_inline));
static inline void write_end_at(uint64_t s) __attribute__((always_inline));
static inline void write_begin_at(uint64_t s)
{
    atomic_store_explicit(&allocs.seq, s + 1, memory_order_relaxed);
}

static inline void write_end_at(uint64_t s)
{
    ALLOC_STORE(allocs.seq, s + 2);
}

/* Out of any write section. */
static inline void shrink_dead(void)
{
    while (allocs.dead_shrunk) {
        unsigned k = (unsigned)__builtin_ctz(allocs.dead_shrunk);
        allocs.dead_shrunk &= allocs.dead_shrunk - 1;
        table_maybe_shrink(&allocs.dead, k);
    }
}

static inline void after_write(void)
{
    alloc_tables_after_write();
}

/* registry_allocs.c. In a write section, after table_reserve(&allocs.dead,
 * k): e becomes the newest tombstone. */
void alloc_bury(alloc_entry_t *e, unsigned k) __attribute__((visibility("hidden")));
/* In a write section: drops the tombstones of the levels in the mask that
 * overlap [lo, lo + span). */
void alloc_drop_dead_in_levels(uint32_t levels, uintptr_t lo, uintptr_t span)
    __attribute__((visibility("hidden")));
/* In a write section: drops the tombstones of level k and coarser that
 * overlap [lo, lo + span), a range of level k or finer. */
static inline void drop_dead_overlapping(unsigned k, uintptr_t lo, uintptr_t span)
{
    uint32_t levels = k < 32 ? ALLOC_LOAD(allocs.dead.levels) >> k << k : 0;
    if (levels) /* none, for the usual free: no coarser tombstones */
        alloc_drop_dead_in_levels(levels, lo, span);
}

/* A reader's wait for a writer to finish. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

#endif
