/*
 * Where handles come from: the C heap, or in the reuse mode (rd_arena.h) a
 * stack per kind of the objects most recently deleted, so that the next
 * object of a kind gets the handle value just destroyed, on any thread.
 * A deleted object keeps its dead tag readable (a destroyed handle is
 * answered, not dereferenced as something else); under AddressSanitizer the
 * rest of it is poisoned until it is handed out again.
 */
#include "rd_arena.h"
#include "rd_object.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define KINDS (RD_MAGIC_PHYSICAL_MEM - RD_MAGIC_DRIVER + 1)
#define KEPT_PER_KIND 4096u /* more deleted objects than that go back to the heap */
#define TAG_BYTES 8u

static struct {
    pthread_mutex_t lock;
    void *objects[KEPT_PER_KIND];
    size_t size;
    uint32_t count;
} deleted[KINDS];

static pthread_once_t deleted_once = PTHREAD_ONCE_INIT;

static void deleted_after_fork_in_child(void)
{
    for (unsigned k = 0; k < KINDS; k++)
        pthread_mutex_init(&deleted[k].lock, NULL);
}

static void deleted_init(void)
{
    deleted_after_fork_in_child();
    pthread_atfork(NULL, NULL, deleted_after_fork_in_child);
}

static int kind_index(rd_magic_t magic)
{
    return magic >= RD_MAGIC_DRIVER && magic <= RD_MAGIC_PHYSICAL_MEM
               ? (int)(magic - RD_MAGIC_DRIVER)
               : -1;
}

void *rd_object_new(rd_magic_t magic, size_t size)
{
    int k = kind_index(magic);
    if (k >= 0 && rd_reuse_mode()) {
        pthread_once(&deleted_once, deleted_init);
        pthread_mutex_lock(&deleted[k].lock);
        void *object = deleted[k].count && deleted[k].size == size
                           ? deleted[k].objects[--deleted[k].count]
                           : NULL;
        pthread_mutex_unlock(&deleted[k].lock);
        if (object) {
            UNPOISON(object, size);
            memset(object, 0, size);
            return object;
        }
    }
    return calloc(1, size);
}

void rd_object_delete(void *object, rd_magic_t magic, size_t size)
{
    if (!object)
        return;
    *(uint32_t *)object = (uint32_t)RD_MAGIC_DEAD;
    int k = kind_index(magic);
    if (k >= 0 && rd_reuse_mode() && size > TAG_BYTES) {
        pthread_once(&deleted_once, deleted_init);
        pthread_mutex_lock(&deleted[k].lock);
        int kept =
            deleted[k].count < KEPT_PER_KIND && (!deleted[k].count || deleted[k].size == size);
        if (kept) {
            deleted[k].size = size;
            POISON((char *)object + TAG_BYTES, size - TAG_BYTES);
            deleted[k].objects[deleted[k].count++] = object;
        }
        pthread_mutex_unlock(&deleted[k].lock);
        if (kept)
            return;
    }
    free(object);
}
