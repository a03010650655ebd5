/* Side tables keyed by handle value (uthash under one mutex per table: these
 * are looked up once per interop call, never on a device's hot path). */
#include "handle_map.h"

#include <stdlib.h>
#include <uthash.h>

struct handle_map_entry {
    const void *key;
    void *value;
    UT_hash_handle hh;
};

int handle_map_put(handle_map_t *map, const void *key, void *value)
{
    struct handle_map_entry *entry = NULL;
    pthread_mutex_lock(&map->lock);
    HASH_FIND_PTR(map->entries, &key, entry);
    if (!entry) {
        entry = calloc(1, sizeof *entry);
        if (!entry) {
            pthread_mutex_unlock(&map->lock);
            return -1;
        }
        entry->key = key;
        HASH_ADD_PTR(map->entries, key, entry);
        if (!entry->hh.tbl) { /* uthash could not grow its table */
            free(entry);
            pthread_mutex_unlock(&map->lock);
            return -1;
        }
        atomic_fetch_add_explicit(&map->count, 1, memory_order_release);
    }
    entry->value = value;
    pthread_mutex_unlock(&map->lock);
    return 0;
}

void *handle_map_get(handle_map_t *map, const void *key)
{
    if (!atomic_load_explicit(&map->count, memory_order_acquire))
        return NULL;
    struct handle_map_entry *entry = NULL;
    pthread_mutex_lock(&map->lock);
    HASH_FIND_PTR(map->entries, &key, entry);
    void *value = entry ? entry->value : NULL;
    pthread_mutex_unlock(&map->lock);
    return value;
}

void *handle_map_take(handle_map_t *map, const void *key)
{
    struct handle_map_entry *entry = NULL;
    void *value = NULL;
    pthread_mutex_lock(&map->lock);
    HASH_FIND_PTR(map->entries, &key, entry);
    if (entry) {
        value = entry->value;
        HASH_DEL(map->entries, entry);
        free(entry);
        atomic_fetch_sub_explicit(&map->count, 1, memory_order_release);
    }
    pthread_mutex_unlock(&map->lock);
    return value;
}
