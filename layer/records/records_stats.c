/*
 * Per-(list, stream, kernel, primitive, impl) launch counters. Live lists keep
 * theirs beside their ring; a destroyed list's counters move to the retired
 * table, so the exit report still shows every launch ever made.
 */
#include "records_state.h"

#include "out_of_memory.h"

#include <stdlib.h>
#include <string.h>

static stats_entry_t *retired_stats;

/* A key as the table hashes it: as bytes, padding too. */
static stats_key_t key_of(const stats_key_t *fields)
{
    stats_key_t key;
    memset(&key, 0, sizeof key);
    key.stream_id = fields->stream_id;
    key.kernel = fields->kernel;
    key.primitive = fields->primitive;
    key.impl = fields->impl;
    return key;
}

/* The entry of key, made when new; null when out of memory. */
static stats_entry_t *entry_of(stats_entry_t **table, const stats_key_t *key)
{
    stats_entry_t *e = NULL;
    HASH_FIND(hh, *table, key, sizeof *key, e);
    if (!e) {
        /* calloc, not aligned_alloc: the padding in stats_entry_t keeps the
         * launch counter off other blocks' lines, and aligned_alloc would
         * leave the heap split around its blocks. */
        e = calloc(1, sizeof *e);
        if (!e)
            return NULL;
        e->key = *key;
        HASH_ADD(hh, *table, key, sizeof e->key, e);
        if (!e->hh.tbl) { /* uthash could not grow its table */
            free(e);
            return NULL;
        }
    }
    return e;
}

int records_count_launch_keyed(zeil_list_state_t *state, const stats_key_t *fields, int locked)
{
    stats_key_t key = key_of(fields);
    if (!locked)
        records_lock(state);
    stats_entry_t *e = entry_of(&state->stats, &key);
    if (e)
        stats_count_one(e);
    state->last_stats = e;
    if (!locked)
        records_unlock(state);
    return e ? 0 : -1;
}

void records_count_device_time(zeil_list_state_t *state, const zeil_record_t *record)
{
    if (record->kind != ZEIL_RECORD_LAUNCH || record->device_end_ns < record->device_start_ns)
        return;
    stats_key_t key = key_of(
        &(stats_key_t){NULL, record->stream_id, record->kernel, record->primitive, record->impl});
    stats_entry_t *e = entry_of(&state->stats, &key);
    if (!e) {
        oom_dropped(OOM_OTHER, 1, NULL, "counting a launch's device time");
        return;
    }
    uint64_t ns = record->device_end_ns - record->device_start_ns;
    e->timed_launches++;
    e->total_device_ns += ns;
    if (ns > e->max_device_ns)
        e->max_device_ns = ns;
}

/* Each entry moves to the retired table as it is (no allocation), or is
 * added into the retired entry of the same key. */
uint64_t records_retire_stats(zeil_list_state_t *state)
{
    uint64_t lost = 0;
    state->last_stats = NULL;
    stats_entry_t *e, *tmp;
    HASH_ITER(hh, state->stats, e, tmp)
    {
        HASH_DEL(state->stats, e);
        e->key.list = state->list;
        stats_entry_t *r = NULL;
        HASH_FIND(hh, retired_stats, &e->key, sizeof e->key, r);
        if (!r) {
            HASH_ADD(hh, retired_stats, key, sizeof e->key, e);
            if (e->hh.tbl)
                continue;
            lost += atomic_load(&e->launches); /* uthash could not grow its table */
            free(e);
            continue;
        }
        atomic_store(&r->launches, atomic_load(&r->launches) + atomic_load(&e->launches));
        r->timed_launches += e->timed_launches;
        r->total_device_ns += e->total_device_ns;
        if (e->max_device_ns > r->max_device_ns)
            r->max_device_ns = e->max_device_ns;
        free(e);
    }
    return lost;
}

static int visit(const stats_entry_t *e, ze_command_list_handle_t list, zeil_kernel_stats_fn fn,
                 void *user)
{
    zeil_kernel_stats_t row = {
        e->key.stream_id,  list,
        e->key.kernel,     e->key.primitive,
        e->key.impl,       atomic_load_explicit(&e->launches, memory_order_relaxed),
        e->timed_launches, e->total_device_ns,
        e->max_device_ns};
    return fn ? fn(&row, user) : 0;
}

size_t zeil_foreach_kernel_stats(zeil_kernel_stats_fn fn, void *user)
{
    size_t visited = 0;
    int stop = 0;
    pthread_mutex_lock(&records_states_lock);
    for (zeil_list_state_t *s = records_states; s && !stop; s = s->next) {
        records_lock(s);
        for (stats_entry_t *e = s->stats; e && !stop; e = e->hh.next) {
            visited++;
            stop = visit(e, s->list, fn, user);
        }
        records_unlock(s);
    }
    for (stats_entry_t *e = retired_stats; e && !stop; e = e->hh.next) {
        visited++;
        stop = visit(e, e->key.list, fn, user);
    }
    pthread_mutex_unlock(&records_states_lock);
    return visited;
}
