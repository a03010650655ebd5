/*
 * The access histories by allocation base: a hash under its own lock, a
 * per-thread cache in front of it (an append finds its allocations without
 * a lock, launch after launch), and the counters a free reads first
 * (hazards_histories_at). Histories are never freed: a forgotten one is
 * recycled with its generation advanced, so whoever still holds it reads a
 * history, sees the generation move and takes its entries as gone.
 */
#include "hz_state.h"

#include "spin_lock.h"

#include <stdlib.h>

_Atomic uint32_t hazards_histories_at[HAZARDS_FILTER];
static spin_lock_t table_lock;
static hz_history_t *table;     /* live histories by base, under table_lock */
static hz_history_t *free_list; /* forgotten ones, under table_lock */
/* Written under table_lock, read without it; a line of its own, as every
 * repeated launch reads it. */
uint64_t hz_histories_forgotten __attribute__((aligned(64)));

#define NEAR_SLOTS 64u
typedef struct near {
    uintptr_t base;
    hz_history_t *history;
    uint32_t gen;
} near_t;
static _Thread_local near_t near[NEAR_SLOTS];

static inline unsigned near_slot(uintptr_t base)
{
    return (unsigned)((base >> 6) ^ (base >> 14)) & (NEAR_SLOTS - 1);
}

static hz_history_t *made(uintptr_t base)
{
    hz_history_t *h = free_list;
    if (h)
        free_list = h->next_free;
    else if (!(h = calloc(1, sizeof *h)))
        return NULL; /* accesses to it go unchecked */
    h->next_free = NULL;
    HZ_STORE(h->base, base);
    HASH_ADD(hh, table, base, sizeof h->base, h);
    atomic_fetch_add_explicit(&hazards_histories_at[hazards_filter_slot(base)], 1,
                              memory_order_release);
    return h;
}

static __attribute__((noinline)) hz_history_t *looked_up(uintptr_t base, int create, uint32_t *gen)
{
    spin_lock(&table_lock);
    hz_history_t *h = NULL;
    HASH_FIND(hh, table, &base, sizeof base, h);
    if (!h && create)
        h = made(base);
    if (h)
        *gen = HZ_LOAD(h->gen);
    spin_unlock(&table_lock);
    if (h)
        near[near_slot(base)] = (near_t){base, h, *gen};
    return h;
}

hz_history_t *hz_history_of(uintptr_t base, int create, uint32_t *gen)
{
    const near_t *n = &near[near_slot(base)];
    hz_history_t *h = n->history;
    if (h && n->base == base && HZ_LOAD(h->base) == base && HZ_LOAD(h->gen) == n->gen) {
        *gen = n->gen;
        return h;
    }
    return looked_up(base, create, gen);
}

void hz_history_forget(uintptr_t base)
{
    spin_lock(&table_lock);
    hz_history_t *h = NULL;
    HASH_FIND(hh, table, &base, sizeof base, h);
    if (h) {
        HASH_DEL(table, h);
        atomic_fetch_sub_explicit(&hazards_histories_at[hazards_filter_slot(base)], 1,
                                  memory_order_relaxed);
        HZ_STORE(h->base, 0);
        HZ_STORE(h->gen, HZ_LOAD(h->gen) + 1);
        h->next_free = free_list;
        free_list = h;
        __atomic_store_n(&hz_histories_forgotten, hz_histories_forgotten + 1, __ATOMIC_RELEASE);
    }
    spin_unlock(&table_lock);
}
