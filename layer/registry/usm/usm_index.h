/*
 * usm_index.h: the USM allocation index (registry/usm/) as the rest of the
 * layer sees it: the one header outside usm/ may include (registry.h does),
 * but for usm_hot_paths.h, the usual cases inline, which the allocation
 * hooks include.
 * Behind it, registry_alloc_tables.h (the tables per size level) and
 * registry_alloc_index.h (what the index's writers and readers share) stay
 * inside the folder.
 */
#ifndef ZEIL_USM_INDEX_H
#define ZEIL_USM_INDEX_H

#include <level_zero/ze_api.h>
#include <zeil/zeil.h>

#include <stddef.h>
#include <stdint.h>

/* ---- USM allocations (registry_allocs.c, registry_alloc_lookup.c) ---- */
typedef struct zeil_alloc {
    void *base;
    size_t size;
    ze_memory_type_t type;
    ze_context_handle_t context;
    ze_device_handle_t device;
    const char *created_by;
    uint64_t created_call, freed_call;
    uint32_t created_thread, freed_thread;
    int alive;
} zeil_alloc_t;

/* Records a live allocation (proto's call fields, not alive or freed_*):
 * 0, or -1 when out of memory: the allocation is then unknown, and so is
 * every freed allocation it overlaps. */
int registry_add_alloc(const zeil_alloc_t *proto);
/* The same, field by field (the allocation hooks: no struct to fill and read
 * back). created_call 0: the allocation takes a number of its own, with the
 * index's lock (call_counter.h). */
int registry_add_alloc_fields(const void *base, size_t size, ze_memory_type_t type,
                              ze_context_handle_t context, ze_device_handle_t device,
                              const char *created_by, uint64_t created_call,
                              uint32_t created_thread);
/* Copies the live allocation containing ptr into *out (1), else the newest
 * tombstone covering it (2), else 0. O(1) expected, lock-free. */
int registry_find_alloc(const void *ptr, zeil_alloc_t *out);
/* The same for zeil_lookup_pointer: straight into its answer. */
int registry_lookup_info(const void *ptr, zeil_alloc_info_t *info);
/* A free in two steps, both before the driver's call, on the exact
 * allocation found by the first: registry_begin_free finds the live
 * allocation with this base, freed by call on thread (1), or none (0),
 * without changing anything; once the free's checks passed,
 * registry_end_free makes it a tombstone (1, or 2 when the tombstone could
 * not be kept: out of memory), or finds it gone (0: a racing free of the
 * same pointer buried it first, the program's double free). Buried before
 * the driver frees it, the allocation is never live in zeil while the
 * driver may give its address to another thread's new allocation; while
 * the driver frees it, other threads see it freed (check_freed_range turns
 * their uses into warnings while the driver still knows the address). If
 * the driver refuses the free, registry_unfree makes it live again. thread
 * is zeil's number of the calling thread. call 0: the free takes its number
 * with the index's lock in registry_end_free (call_counter.h), into
 * freeing->call. */
typedef struct registry_free {
    uintptr_t base;
    uint64_t created_call;       /* which allocation of that base */
    uint64_t call;               /* the free's number (0: none yet) */
    ze_context_handle_t context; /* the allocation's */
    uint32_t thread;
    /* Where registry_begin_free found it, so that registry_end_free need
     * not look again while it is still there. */
    uint32_t level;
    const void *table;
    size_t slot;
    uintptr_t span; /* the allocation's */
} registry_free_t;
int registry_begin_free(const void *base, uint64_t call, uint32_t thread, registry_free_t *freeing);
int registry_end_free(registry_free_t *freeing);
/* After registry_end_free buried it (1 or 2) and the driver refused the
 * free: the allocation is live again, as it was, from its tombstone (found
 * by base and creating call), which leaves. When that tombstone is gone
 * (never kept, or dropped since by newer ones), from what freeing holds:
 * its range, context and creating call; its type (then unknown), device,
 * creating call's name and thread (then null, 0) are lost. 0, or -1 when
 * out of memory: the allocation is then unknown. */
int registry_unfree(const registry_free_t *freeing);
/* Both steps at once (no driver in between): 1, 2 or 0 as above. */
int registry_free_alloc(const void *base, uint64_t call, uint32_t thread);
/* Live allocations (and their bytes) for which keep says 1 (all when keep is
 * null). keep must not touch the allocations' index. */
typedef int (*registry_alloc_filter)(const zeil_alloc_t *alloc, const void *user);
uint64_t registry_count_allocs(registry_alloc_filter keep, const void *user, uint64_t *bytes);

#endif
