/*
 * The registry thread: while the workers run, it asks zeil about their live
 * lists and about allocations just made or just freed (which race with the
 * workers on purpose), and about handles it destroys itself.
 */
#include "stress.h"

#include <zeil/zeil.h>

#include <sched.h>

static void query_lists(stress_querier_t *q, const stress_worker_t *w)
{
    zeil_handle_info_t info;
    ck_assert_int_eq(zeil_lookup_handle(w->immediate, &info), 1);
    ck_assert_int_eq(info.kind, ZEIL_KIND_COMMAND_LIST);
    ck_assert(info.alive && info.is_immediate && info.context == q->env->context);
    ck_assert_int_eq(zeil_lookup_handle(w->regular, &info), 1);
    ck_assert(info.alive && !info.is_immediate);
    ck_assert_int_eq(zeil_lookup_handle(w->queue, &info), 1);
    ck_assert_int_eq(info.kind, ZEIL_KIND_COMMAND_QUEUE);
    q->handle_lookups += 3;
}

/* A pointer a worker may have freed (and the driver reused) by now: any
 * answer is possible, but an answer must describe a range holding it. */
static void query_pointer(stress_querier_t *q, const void *ptr)
{
    if (!ptr)
        return;
    zeil_alloc_info_t info;
    int found = zeil_lookup_pointer(ptr, &info);
    ck_assert(found >= 0 && found <= 2);
    if (found) {
        ck_assert((const char *)ptr >= (const char *)info.base &&
                  (const char *)ptr < (const char *)info.base + info.size);
        ck_assert_int_eq(info.alive, found == 1);
        ck_assert(info.context == q->env->context);
    }
    q->pointer_lookups++;
}

/* Objects only this thread creates and destroys: right after the destroy the
 * registry must hold them as tombstones, not as live objects. */
static void query_own_tombstones(stress_querier_t *q)
{
    ze_event_pool_handle_t pool = zt_event_pool(q->env, 1, 0);
    ze_event_handle_t event = zt_event(pool, 0);
    zeil_handle_info_t info;
    ck_assert_int_eq(zeil_lookup_handle(event, &info), 1);
    ck_assert(info.alive && info.kind == ZEIL_KIND_EVENT && info.parent == (void *)pool);
    uint64_t created = info.created_call;
    ZT_OK(zeEventDestroy(event));
    ZT_OK(zeEventPoolDestroy(pool));
    /* With the driver's reuse mode a worker's next creation may take the
     * handle at once: then it is a live object created after ours. */
    ck_assert_int_eq(zeil_lookup_handle(event, &info), 1);
    if (info.alive)
        ck_assert_uint_gt(info.created_call, created);
    else {
        ck_assert_int_eq(info.kind, ZEIL_KIND_EVENT);
        ck_assert_uint_ne(info.destroyed_call, 0);
    }
    ck_assert_int_eq(zeil_lookup_handle(pool, &info), 1);
    if (info.alive)
        ck_assert_uint_gt(info.created_call, created);
    q->handle_lookups += 3;
    q->tombstones_seen += 2;
}

void *stress_querier_run(void *querier)
{
    stress_querier_t *q = querier;
    for (uint64_t round = 0; !atomic_load(q->stop); round++) {
        for (int i = 0; i < STRESS_WORKERS; i++) {
            stress_worker_t *w = &q->workers[i];
            query_lists(q, w);
            query_pointer(q, atomic_load(&w->newest_alloc));
            query_pointer(q, atomic_load(&w->newest_freed));
        }
        if (round % 64 == 0)
            query_own_tombstones(q);
        sched_yield();
    }
    return NULL;
}
