/* Each thread's last plain launch (launch_cache.h). */
#include "launch_cache.h"

launch_cache_generation_t launch_cache_generation = {1};

void launch_cache_remember(const void *list_handle, const void *kernel_handle, zeil_obj_t *list,
                           zeil_obj_t *kernel, uint64_t generation)
{
    calls_thread.launch =
        (launch_cache_t){list_handle, kernel_handle, list, kernel, list->records, generation};
}

void launch_cache_forget_all(void)
{
    /* seq_cst: ordered before whatever the destroy then frees. */
    atomic_fetch_add(&launch_cache_generation.value, 1);
}
