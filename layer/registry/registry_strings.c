/* Interned strings: kernel names, module origins, attribution labels. They
 * live as long as the process, so records can point at them without copies. */
#include "registry.h"

#include "out_of_memory.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct interned {
    UT_hash_handle hh;
    char text[];
} interned_t;

static interned_t *strings;
static pthread_rwlock_t strings_lock = PTHREAD_RWLOCK_INITIALIZER;

const char *registry_intern(const char *text)
{
    if (!text)
        return NULL;
    size_t len = strlen(text);
    interned_t *s = NULL;
    pthread_rwlock_rdlock(&strings_lock);
    HASH_FIND(hh, strings, text, len, s);
    pthread_rwlock_unlock(&strings_lock);
    if (s)
        return s->text;
    pthread_rwlock_wrlock(&strings_lock);
    HASH_FIND(hh, strings, text, len, s);
    if (!s) {
        s = calloc(1, sizeof *s + len + 1);
        if (s) {
            memcpy(s->text, text, len + 1);
            HASH_ADD_KEYPTR(hh, strings, s->text, len, s);
            if (!s->hh.tbl) { /* uthash could not grow its table */
                free(s);
                s = NULL;
            }
        }
    }
    pthread_rwlock_unlock(&strings_lock);
    if (!s) {
        oom_dropped(OOM_OTHER, 1, NULL, "keeping a name (kernel, library or primitive)");
        return NULL;
    }
    return s->text;
}
