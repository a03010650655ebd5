/*
 * launch_cache.h: each thread remembers the command list and kernel of its
 * last plain launch (launch_is_plain in intercept_appends.c held for them),
 * so that a loop of launches finds both and knows them ready without two
 * registry lookups and the whole check every time.
 *
 * What the check found stays true while both objects live: kinds, contexts
 * and devices never change, a kernel's arguments are only ever set, never
 * unset, and ZEIL_TIMING is fixed for the run. Only whether a regular list is
 * closed changes, and the launch still reads that. A destroyed list or
 * kernel may leave a stale entry in any thread: destroying either advances
 * the generation (before zeil frees anything of the list), and an entry of
 * another generation is not used.
 */
#ifndef ZEIL_LAUNCH_CACHE_H
#define ZEIL_LAUNCH_CACHE_H

#include "calls.h"
#include "registry.h"

#include <stdatomic.h>
#include <stdint.h>

/* launch_cache_t is the launch member of calls_thread_t (calls.h): the
 * launch path finds the entry and the rest of its thread's state with one
 * thread-local lookup. Besides the objects it keeps the list's record state,
 * which a list keeps from creation to destruction. */

/* Alone on its cache line: launches only read it. */
typedef struct launch_cache_generation {
    _Alignas(64) _Atomic uint64_t value;
} launch_cache_generation_t;

extern launch_cache_generation_t launch_cache_generation __attribute__((visibility("hidden")));

/* The generation now: loaded before the registry is asked, so that an
 * entry made from the answer is never newer than the objects it names. */
static inline uint64_t launch_cache_now(void)
{
    return atomic_load_explicit(&launch_cache_generation.value, memory_order_acquire);
}

/* The thread's entry when it is for this list and kernel and of generation. */
static inline launch_cache_t *launch_cache_find(const void *list, const void *kernel,
                                                uint64_t generation)
{
    launch_cache_t *c = &calls_thread.launch;
    if (c->list_handle != list || c->kernel_handle != kernel || c->generation != generation)
        return NULL;
    /* The compiler would find the thread-local's address again at each use
     * (a call into the TLS descriptor code each time) rather than keep it:
     * hiding where c came from makes it keep it in a register. */
    __asm__("" : "+r"(c));
    return c;
}

/* After launch_is_plain held for them, with the generation loaded before
 * they were looked up. */
void launch_cache_remember(const void *list_handle, const void *kernel_handle, zeil_obj_t *list,
                           zeil_obj_t *kernel, uint64_t generation);
/* A list or kernel is being destroyed: every thread's entry is stale. */
void launch_cache_forget_all(void);

#endif
