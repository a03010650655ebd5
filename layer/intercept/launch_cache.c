/* Each thread's last plain launches (launch_cache.h). */
#include "launch_cache.h"

launch_cache_generation_t launch_cache_generation = {1};

void launch_cache_remember(const void *list_handle, const void *kernel_handle, zeil_obj_t *list,
                           zeil_obj_t *kernel, uint64_t generation)
{
    calls_thread_t *t = &calls_thread;
    launch_cache_t *slot = NULL;
    for (unsigned i = 0; !slot && i < LAUNCH_CACHE_ENTRIES; i++)
        if (t->launch[i].list_handle == list_handle && t->launch[i].kernel_handle == kernel_handle)
            slot = &t->launch[i];
    for (unsigned i = 0; !slot && i < LAUNCH_CACHE_ENTRIES; i++)
        if (t->launch[i].generation != generation)
            slot = &t->launch[i]; /* empty, or of objects since destroyed */
    if (!slot) {
        slot = &t->launch[t->launch_victim];
        t->launch_victim = (t->launch_victim + 1) % LAUNCH_CACHE_ENTRIES;
    }
    *slot = (launch_cache_t){list_handle, kernel_handle, list, kernel, list->records, generation};
}

void launch_cache_forget_all(void)
{
    /* seq_cst: ordered before whatever the destroy then frees. */
    atomic_fetch_add(&launch_cache_generation.value, 1);
}
