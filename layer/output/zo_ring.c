/* zo_ring.c: per-thread SPSC trace rings (see zo_ring.h). */
#include "zo_ring.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static _Atomic(zo_ring_t *) all_rings;
static _Atomic uint64_t ringless_drops; /* entries of threads without a ring */
__thread zo_ring_t *zo_ring_of_thread;
static pthread_key_t release_key;
static pthread_once_t release_key_once = PTHREAD_ONCE_INIT;

/* Runs at thread exit: the ring stays in the list (the consumer still drains
 * what is left) and a later thread may take it over. */
static void release_ring(void *ring)
{
    atomic_store_explicit(&((zo_ring_t *)ring)->owned, 0, memory_order_release);
}

static void create_release_key(void)
{
    (void)pthread_key_create(&release_key, release_ring);
}

static zo_ring_t *claim_released_ring(void)
{
    for (zo_ring_t *r = atomic_load_explicit(&all_rings, memory_order_acquire); r; r = r->next) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&r->owned, &expected, 1))
            return r;
    }
    return 0;
}

static zo_ring_t *new_ring(void)
{
    zo_ring_t *r = aligned_alloc(_Alignof(zo_ring_t), sizeof *r);
    if (!r)
        return 0;
    memset(r, 0, sizeof *r);
    atomic_init(&r->owned, 1);
    zo_ring_t *head = atomic_load_explicit(&all_rings, memory_order_relaxed);
    do {
        r->next = head;
    } while (!atomic_compare_exchange_weak_explicit(&all_rings, &head, r, memory_order_release,
                                                    memory_order_relaxed));
    return r;
}

zo_ring_t *zo_ring_claim(void)
{
    if (zo_ring_of_thread)
        return zo_ring_of_thread;
    pthread_once(&release_key_once, create_release_key);
    zo_ring_t *r = claim_released_ring();
    if (!r)
        r = new_ring();
    if (!r) {
        atomic_fetch_add_explicit(&ringless_drops, 1, memory_order_relaxed);
        return 0;
    }
    (void)pthread_setspecific(release_key, r);
    zo_ring_of_thread = r;
    return r;
}

zo_ring_t *zo_ring_first(void)
{
    return atomic_load_explicit(&all_rings, memory_order_acquire);
}

uint64_t zo_ring_dropped_total(void)
{
    uint64_t n = atomic_load_explicit(&ringless_drops, memory_order_relaxed);
    for (zo_ring_t *r = zo_ring_first(); r; r = r->next)
        n += atomic_load_explicit(&r->dropped, memory_order_relaxed);
    return n;
}

void zo_copy_bounded(char *dst, size_t size, const char *s)
{
    if (!s) {
        dst[0] = 0;
        return;
    }
    size_t n = strnlen(s, size);
    if (n < size) {
        memcpy(dst, s, n + 1);
        return;
    }
    memcpy(dst, s, size - 4);
    memcpy(dst + size - 4, "...", 4);
}
