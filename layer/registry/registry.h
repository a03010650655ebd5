/*
 * registry.h: every Level Zero object and USM allocation zeil saw created,
 * keyed by handle (uthash, sharded: each shard its own rwlock for changes;
 * lookups read a lock-free index and take no lock at all). Destroyed objects stay as tombstones in a
 * bounded ring so later misuse can name where they came from.
 *
 * Objects are never freed while alive. A tombstone is freed only after the
 * ring evicted it and a grace period passed since (a second, or 4096 more
 * evictions if they come faster): a pointer
 * returned by registry_find stays readable for a long while even if another
 * thread destroys the object and the driver gives its handle to a new one
 * meanwhile (registry_objects.c says why that is enough).
 */
#ifndef ZEIL_REGISTRY_H
#define ZEIL_REGISTRY_H

#include "registry_index.h"
#include "shim_abi.h"

#include <zeil/zeil.h>

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <uthash.h>

#ifndef ZE_COMMAND_QUEUE_FLAG_IN_ORDER
#define ZE_COMMAND_QUEUE_FLAG_IN_ORDER ZE_BIT(1)
#endif
#ifndef ZE_COMMAND_LIST_FLAG_IN_ORDER
#define ZE_COMMAND_LIST_FLAG_IN_ORDER ZE_BIT(3)
#endif

#define ZEIL_TOMBSTONES 4096u

struct zeil_list_state; /* records.h */

typedef struct zeil_obj {
    UT_hash_handle hh;
    const void *handle;
    zeil_kind_t kind;
    _Atomic int alive;
    const zeil_next_t *next; /* the driver that made it */
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t context;
    void *parent;           /* pool of an event, module of a kernel,
                                         queue of a fence, root of a sub-device */
    const char *created_by; /* API call */
    uint64_t created_call, destroyed_call;
    uint32_t created_thread, destroyed_thread;
    /* Set before the destroying call reaches the driver: if the driver gives
     * the handle to a new object before that call returns, the creation
     * retires this one in its name. */
    _Atomic uint64_t destroying_call;
    _Atomic uint32_t destroying_thread;
    _Atomic int retire_claimed;  /* the one retirement (registry_retire) */
    struct zeil_obj *limbo_next; /* evicted, waiting to be freed */
    uint64_t evicted_ns;

    /* contexts: the devices given at creation; 0 means all of the driver's */
    uint32_t device_count;
    ze_device_handle_t *devices;
    /* command lists and queues */
    int is_immediate, is_in_order;
    uint32_t ordinal;
    _Atomic int is_closed;
    _Atomic uint64_t closed_call;
    _Atomic uint64_t stream_id;
    struct zeil_list_state *records;
    struct zeil_signal_ops *signal_ops; /* regular lists: signals to replay (check_signals.c) */
    /* event pools and events */
    ze_event_pool_flags_t pool_flags;
    _Atomic uint64_t signalled_by_call; /* append that signals it, 0 after reset */
    /* modules and kernels */
    ze_module_format_t module_format;
    const char *origin; /* library that created the module */
    const char *name;   /* kernel name, interned */
    uint32_t kernel_name_count;
    const char **kernel_names; /* a module's kernels, interned */
    _Atomic uint32_t group_size[3];
    _Atomic uint32_t group_size_epoch; /* advanced when group_size changes */
    _Atomic uint64_t args_set;         /* bit i: argument i was set */
    uint32_t arg_count;
    void *hazard; /* layer/hazards state, owned there */
} zeil_obj_t;

/* Publishes a new object (a copy of *proto, which hands over its devices and
 * kernel_names arrays) and returns it. An old entry of the same handle value
 * leaves the index: a tombstone stays in the ring; a live object (its
 * destruction still on its way back from the driver, or missed) is retired,
 * in the name of the destroying call if one is under way. The call fields
 * come from the caller. Out of memory: returns null with the arrays freed and
 * the handle unknown to the registry (no old entry of the same value left);
 * the caller counts the loss. */
zeil_obj_t *registry_insert(const zeil_obj_t *proto);
/* registry_insert for what a creating call made (registry_made.c): proto
 * stamped with call, its thread and next; out of memory the object stays
 * unknown, counted and said (out_of_memory.h). */
struct zeil_call;
zeil_obj_t *registry_register_made(const struct zeil_call *call, const zeil_next_t *next,
                                   zeil_obj_t *proto);
/* registry_find(handle): the live object or tombstone of handle, or null
 * (inline, lock-free: registry_index.h). */
/* Before a destroying call goes to the driver: marks the exact object it
 * destroys (see destroying_call). */
void registry_destroying(zeil_obj_t *obj, uint64_t call, uint32_t thread);
/* Turns a live object into a tombstone; once per object (a second call, from
 * a creation that reused its handle or from the destroyer, does nothing). */
void registry_retire(zeil_obj_t *obj, uint64_t call, uint32_t thread);
/* How many objects were retired so far, plus 1, alone on its cache line: a
 * thread may trust an object it found live while this has not moved
 * (checks.h), and a generation of 0 is never current. */
typedef struct registry_retirements {
    _Alignas(64) _Atomic uint64_t value;
} registry_retirements_t;
extern registry_retirements_t registry_retirements __attribute__((visibility("hidden")));

/* Calls fn for every live object (under each shard's read lock: fn must not
 * call the registry). */
void registry_foreach_live(void (*fn)(zeil_obj_t *obj, void *user), void *user);

/* ---- USM allocations: the index in usm/, behind its one header ---- */
#include "usm/usm_index.h"

/* ---- kind names (kind_names.c) ---- */
/* "command list"; "unknown" for a value out of range. */
const char *registry_kind_name(zeil_kind_t kind);
/* "a command list"; "an unknown object" for a value out of range. */
const char *registry_kind_article(zeil_kind_t kind);

/* ---- strings ---- */
/* A copy that lives as long as the process (same text -> same pointer);
 * null when out of memory (counted). */
const char *registry_intern(const char *text);

/* Sets a kernel's group size; a change advances its epoch, after the new
 * size (what a launch cache entry knows of the size is that of its epoch). */
static inline void registry_set_group_size(zeil_obj_t *kernel, const uint32_t size[3])
{
    int changed = 0;
    for (int i = 0; i < 3; i++)
        if (atomic_load_explicit(&kernel->group_size[i], memory_order_relaxed) != size[i]) {
            atomic_store_explicit(&kernel->group_size[i], size[i], memory_order_relaxed);
            changed = 1;
        }
    if (changed)
        atomic_fetch_add_explicit(&kernel->group_size_epoch, 1, memory_order_release);
}

#endif
