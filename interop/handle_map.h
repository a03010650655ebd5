/* handle_map.h: a thread-safe map from a oneDNN handle to zeil's record of it
 * (the side tables binding oneDNN objects to Level Zero objects). */
#ifndef ZEIL_INTEROP_HANDLE_MAP_H
#define ZEIL_INTEROP_HANDLE_MAP_H

#include <pthread.h>
#include <stdatomic.h>

struct handle_map_entry;

typedef struct handle_map {
    pthread_mutex_t lock;
    struct handle_map_entry *entries;
    atomic_size_t count; /* lets a lookup in an empty map skip the lock */
} handle_map_t;

#define HANDLE_MAP_INIT \
    { \
        PTHREAD_MUTEX_INITIALIZER, NULL, 0 \
    }

/* Returns 0, or -1 when out of memory. A key already present is replaced. */
int handle_map_put(handle_map_t *map, const void *key, void *value);
/* The value, or null when the key is absent. Takes no lock while the map
 * is empty: zeil's dnnl_primitive_execute asks for every oneDNN execute,
 * and a program may have no interop stream at all. */
void *handle_map_get(handle_map_t *map, const void *key);
/* Removes the key and returns its value (null when absent). */
void *handle_map_take(handle_map_t *map, const void *key);

#endif
