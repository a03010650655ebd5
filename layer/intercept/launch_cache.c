/* Each thread's last plain launches (launch_cache.h). */
#include "launch_cache.h"

#include "records.h"

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
    /* What the record of its launches says comes with the first of them
     * (records_plain_launch.h describes it). */
    static const _Atomic int never_closed;
    *slot = (launch_cache_t){.list_handle = list_handle,
                             .kernel_handle = kernel_handle,
                             .list = list,
                             .kernel = kernel,
                             .closed = list->is_immediate ? &never_closed : &list->is_closed,
                             .records = list->records,
                             .generation = generation,
                             .attribution = &records_undescribed};
}
