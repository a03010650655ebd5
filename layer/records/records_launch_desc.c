/* The interned descriptions of cached plain launches (records_state.h,
 * records_launch_desc_t): one per distinct kernel, stream, attribution and
 * group size, kept for the life of the process. */
#include "records_state.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t descs_lock = PTHREAD_MUTEX_INITIALIZER;
static records_launch_desc_t *descs;

#define DESC_KEY_BYTES sizeof(zo_launch_shared_t)

const records_launch_desc_t *records_launch_desc_of(const records_launch_desc_t *key)
{
    records_launch_desc_t *d = NULL;
    pthread_mutex_lock(&descs_lock);
    HASH_FIND(hh, descs, key, DESC_KEY_BYTES, d);
    if (!d) {
        d = calloc(1, sizeof *d);
        if (d) {
            memcpy(d, key, DESC_KEY_BYTES);
            HASH_ADD(hh, descs, shared, DESC_KEY_BYTES, d);
            if (!d->hh.tbl) { /* uthash could not grow its table */
                free(d);
                d = NULL;
            }
        }
    }
    pthread_mutex_unlock(&descs_lock);
    return d;
}
