/*
 * launch_cache.h: each thread remembers the command lists and kernels of its
 * last few plain launches (LAUNCH_CACHE_ENTRIES pairs of list and kernel,
 * once the checked path found them ready), so that a loop of launches finds
 * both and knows them ready without two registry lookups and the whole check
 * every time, also when it alternates between lists (two oneDNN streams fed
 * from one thread) or kernels.
 *
 * What the check found stays true while both objects live: kinds, contexts
 * and devices never change, a kernel's arguments are only ever set, never
 * unset, and ZEIL_TIMING is fixed for the run. Only whether a regular list is
 * closed changes, and the launch still reads that. A destroyed list or
 * kernel may leave a stale entry in any thread: destroying either advances
 * the generation (before zeil frees anything of the list), and an entry of
 * another generation is not used. What the entry's records say
 * (launch_cache_t.desc) holds while the thread's attribution and the
 * kernel's group size do, which the record checks; binding the list to a
 * stream advances the generation too.
 */
#ifndef ZEIL_LAUNCH_CACHE_H
#define ZEIL_LAUNCH_CACHE_H

#include "calls.h"
#include "registry.h"

#include <stdatomic.h>
#include <stdint.h>

/* launch_cache_t is an entry of the launch member of calls_thread_t
 * (calls.h): the launch path finds the entries and the rest of its thread's
 * state with one thread-local lookup. Besides the objects an entry keeps the
 * list's record state, which a list keeps from creation to destruction. A
 * pair of list and kernel has at most one entry. */

/* The generation now: loaded before the registry is asked, so that an
 * entry made from the answer is never newer than the objects it names. */
static inline uint64_t launch_cache_now(void)
{
    return atomic_load_explicit(&launch_cache_generation.value, memory_order_acquire);
}

/* Thread t's entry (t: calls_thread_here()) when it has one for this list
 * and kernel of generation. A loop over one list and kernel finds it first. */
static inline launch_cache_t *launch_cache_find(calls_thread_t *t, const void *list,
                                                const void *kernel, uint64_t generation)
{
    launch_cache_t *c = t->launch;
    for (unsigned i = 0; i < LAUNCH_CACHE_ENTRIES; i++, c++)
        if (c->list_handle == list && c->kernel_handle == kernel)
            return c->generation == generation ? c : NULL;
    return NULL;
}

/* After the checked path found them ready, with the generation loaded
 * before they were looked up: the calling thread's entry for the pair, in
 * place of the pair's own entry, a stale one, or the oldest. */
void launch_cache_remember(const void *list_handle, const void *kernel_handle, zeil_obj_t *list,
                           zeil_obj_t *kernel, uint64_t generation);

#endif
