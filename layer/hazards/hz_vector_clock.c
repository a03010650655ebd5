/*
 * Happens-before: the lock, the slots of the vector clocks, the host's
 * clock, and the per-object state (timelines, events, fences, kernels).
 *
 * One clock for the host, not one per host thread: zeil cannot see how the
 * program's threads synchronize with each other (mutexes, joins), so what
 * one thread learned is taken as known to all. That can hide a race between
 * two host threads' submissions; it cannot invent one, nor refuse a free
 * that another thread made safe.
 */
#include "hz_state.h"

#include "out_of_memory.h"

#include <stdlib.h>
#include <string.h>

atomic_int hz_lock;
uint32_t hz_width;
hz_vector_clock_t hz_host;
uint64_t hz_host_version;
hz_timeline_t *hz_slot_owner[HZ_SLOTS];
int hz_degraded;
uint64_t hz_slot_epoch[HZ_SLOTS];

void hz_lost(const char *doing)
{
    HZ_STORE(hz_degraded, 1);
    oom_dropped(OOM_OTHER, 1, NULL, doing);
}

int hz_enter(void)
{
    hz_lock_take();
    if (!HZ_LOAD(hz_degraded) && !oom_registry_incomplete())
        return 1;
    hz_unlock();
    return 0;
}

void hz_join(hz_vector_clock_t *into, const hz_vector_clock_t *from)
{
    for (uint32_t i = 0, width = hz_width_now(); i < width; i++)
        if (from->at[i] > into->at[i])
            into->at[i] = from->at[i];
}

uint64_t hz_join_host(hz_vector_clock_t *into)
{
    uint64_t version = hz_host_version_now(); /* before the entries: they are at least its */
    for (uint32_t i = 0, width = hz_width_now(); i < width; i++) {
        uint64_t at = HZ_LOAD(hz_host.at[i]);
        if (at > into->at[i])
            into->at[i] = at;
    }
    return version;
}

int hz_slot_take(hz_timeline_t *timeline)
{
    for (uint32_t i = 0; i < HZ_SLOTS; i++) {
        if (hz_slot_owner[i])
            continue;
        hz_slot_owner[i] = timeline;
        HZ_STORE(timeline->slot, i);
        /* A reused slot's epochs go on from its last owner's. */
        HZ_STORE(timeline->last_epoch, HZ_LOAD(hz_slot_epoch[i]));
        if (i >= hz_width)
            __atomic_store_n(&hz_width, i + 1, __ATOMIC_RELEASE);
        return 0;
    }
    HZ_STORE(hz_degraded, 1); /* the caller says so (W096) */
    return -1;
}

/* Under hz_lock: the only writer of the host's clock. */
static void host_advance(uint32_t slot, uint64_t epoch)
{
    HZ_STORE(hz_host.at[slot], epoch);
}

static void host_moved(void)
{
    __atomic_store_n(&hz_host_version, hz_host_version + 1, __ATOMIC_RELEASE);
}

void hz_host_learns(const hz_vector_clock_t *clock)
{
    int changed = 0;
    for (uint32_t i = 0; i < hz_width; i++)
        if (clock->at[i] > hz_host.at[i]) {
            host_advance(i, clock->at[i]);
            changed = 1;
        }
    if (!changed)
        return;
    host_moved();
    for (uint32_t i = 0; i < hz_width; i++)
        if (hz_slot_owner[i])
            hz_waits_prune(hz_slot_owner[i]);
}

hz_timeline_t *hz_timeline_of(zeil_obj_t *obj)
{
    if (!obj || (obj->kind != ZEIL_KIND_COMMAND_LIST && obj->kind != ZEIL_KIND_COMMAND_QUEUE))
        return NULL;
    if (obj->hazard)
        return obj->hazard;
    hz_timeline_t *t = calloc(1, sizeof *t);
    if (!t) {
        hz_lost("keeping the hazard state of a command list or queue");
        return NULL;
    }
    t->slot = HZ_NO_SLOT;
    t->handle = obj->handle;
    /* Queues run the lists they are given one after another as zeil models
     * them (an order claimed that the device may not keep hides races at
     * worst); regular lists only record. */
    t->in_order = obj->kind == ZEIL_KIND_COMMAND_QUEUE || obj->is_in_order;
    t->is_regular = obj->kind == ZEIL_KIND_COMMAND_LIST && !obj->is_immediate;
    __atomic_store_n((hz_timeline_t **)&obj->hazard, t, __ATOMIC_RELEASE); /* appends read it */
    return t;
}

hz_event_t *hz_event_obj(zeil_obj_t *obj)
{
    if (!obj || obj->kind != ZEIL_KIND_EVENT || !atomic_load(&obj->alive))
        return NULL;
    hz_event_t *e = obj->hazard;
    if (!e) {
        /* Published for the host's hooks, which read it without the lock. */
        if (!(e = calloc(1, sizeof *e))) {
            hz_lost("keeping the hazard state of an event");
            return NULL;
        }
        __atomic_store_n((hz_event_t **)&obj->hazard, e, __ATOMIC_RELEASE);
    }
    hz_event_sync(e);
    return e;
}

hz_event_t *hz_event_of(const void *handle)
{
    return handle ? hz_event_obj(registry_find(handle)) : NULL;
}

/* ---- hooks that only keep state ---------------------------------------- */

static void set_mode(const void *handle, ze_command_queue_mode_t mode)
{
    if (!hz_enter())
        return;
    hz_timeline_t *t = hz_timeline_of(registry_find(handle));
    if (t)
        HZ_STORE(t->synchronous, mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
    hz_unlock();
}

void hazards_list_mode(ze_command_list_handle_t list, ze_command_queue_mode_t mode)
{
    set_mode(list, mode);
}

void hazards_queue_mode(ze_command_queue_handle_t queue, ze_command_queue_mode_t mode)
{
    set_mode(queue, mode);
}

void hazards_list_reset(zeil_obj_t *list)
{
    if (!hz_enter())
        return;
    hz_timeline_t *t = list ? list->hazard : NULL;
    if (t && t->is_regular)
        t->count = 0;
    hz_unlock();
}

void hazards_event_external(zeil_obj_t *event)
{
    if (!hz_enter())
        return;
    hz_event_t *e = hz_event_obj(event);
    if (e)
        e->external = 1;
    hz_unlock();
}

void hazards_kernel_argument(zeil_obj_t *kernel, uint32_t index, size_t size, const void *value)
{
    if (!kernel || index >= 64)
        return;
    const void *ptr = NULL;
    if (value && size == sizeof ptr)
        memcpy(&ptr, value, sizeof ptr);
    /* Looked up now, not at each launch: an argument set once is launched
     * many times. Freed and reallocated meanwhile, the guess goes stale:
     * guesses are warnings, and two guesses are never reported. */
    hz_access_t access;
    int usm = hz_access_of(ptr, 0, 1, 1, &access);
    if (!hz_enter())
        return;
    /* Launches read it without the lock: published, and stored field by
     * field (a launch racing with a change of its kernel's arguments is
     * the program's race; it reads one or the other). */
    hz_kernel_t *k = kernel->hazard;
    if (!k && usm && (k = calloc(1, sizeof *k)))
        __atomic_store_n((hz_kernel_t **)&kernel->hazard, k, __ATOMIC_RELEASE);
    if (k) {
        if (usm) {
            /* Its history now, so that launches need not look it up. */
            access.history = hz_history_of(access.base, 1, &access.gen);
            HZ_STORE(k->arg[index].history, access.history);
            HZ_STORE(k->arg[index].gen, access.gen);
            HZ_STORE(k->arg[index].base, access.base);
            HZ_STORE(k->arg[index].lo, access.lo);
            HZ_STORE(k->arg[index].hi, access.hi);
            HZ_STORE(k->arg[index].write, access.write);
            HZ_STORE(k->arg[index].guess, access.guess);
        }
        static uint32_t versions; /* under hz_lock */
        HZ_STORE(k->version, ++versions);
        uint64_t bit = 1ull << index;
        HZ_STORE(k->pointer_args, usm ? k->pointer_args | bit : k->pointer_args & ~bit);
    }
    hz_unlock();
}

void hazards_retired(zeil_obj_t *obj)
{
    if (!obj)
        return;
    hz_lock_take();
    if (obj->hazard &&
        (obj->kind == ZEIL_KIND_COMMAND_LIST || obj->kind == ZEIL_KIND_COMMAND_QUEUE)) {
        hz_timeline_t *t = obj->hazard;
        if (t->slot < HZ_SLOTS) {
            /* The specification lets a list or queue be destroyed only once
             * its work is done: the host may take it as done. */
            uint64_t last = HZ_LOAD(t->last_epoch);
            HZ_STORE(hz_slot_epoch[t->slot], last); /* the next owner goes on from it */
            if (hz_host.at[t->slot] < last) {
                host_advance(t->slot, last);
                host_moved();
            }
            hz_slot_owner[t->slot] = NULL;
        }
        free(t->program);
    }
    void *state = obj->hazard;
    __atomic_store_n(&obj->hazard, NULL, __ATOMIC_RELEASE);
    free(state);
    hz_unlock();
}
