/* The per-thread part of the work-item scheduler (rd_sched_thread.h). */
#include "rd_sched_thread.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(rd_sched_ids_t) == offsetof(rd_wi_state_t, group_id),
               "rd_sched_ids_t is the per work-item block of rd_wi_state_t");

static __thread rd_sched_thread_t *current;
static pthread_key_t thread_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void destroy(void *arg)
{
    rd_sched_thread_t *t = arg;
    for (uint32_t i = 0; i < t->num_fibers; i++) {
        rd_fiber_destroy(&t->fibers[i]->fiber);
        free(t->fibers[i]);
    }
    rd_fiber_fini_thread(&t->main);
    free(t->fibers);
    free(t->ids);
    free(t->done);
    free(t->local);
    free(t->sg_area);
    free(t->wg_area);
    free(t->arg_ptrs);
    free(t->local_ptrs);
    free(t);
    current = NULL;
}

static void make_key(void)
{
    pthread_key_create(&thread_key, destroy);
}

static rd_sched_thread_t *create(void)
{
    rd_sched_thread_t *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->fibers = calloc(RD_SCHED_MAX_ITEMS, sizeof *t->fibers);
    t->ids = calloc(RD_SCHED_MAX_ITEMS, sizeof *t->ids);
    t->done = calloc(RD_SCHED_MAX_ITEMS, 1);
    t->wg_area = aligned_alloc(RD_LOCAL_ALIGN, (RD_WG_XCHG_BYTES + RD_LOCAL_ALIGN - 1) &
                                                   ~(size_t)(RD_LOCAL_ALIGN - 1));
    if (!t->fibers || !t->ids || !t->done || !t->wg_area) {
        destroy(t);
        return NULL;
    }
    rd_fiber_init_thread(&t->main);
    rd_fault_prepare(); /* the alternate signal stack of this thread */
    t->st.sched = (rd_u64)(uintptr_t)t;
    t->st.wg_xchg = (rd_u64)(uintptr_t)t->wg_area;
    return t;
}

rd_sched_thread_t *rd_sched_thread_get(void)
{
    if (current)
        return current;
    pthread_once(&key_once, make_key);
    rd_sched_thread_t *t = create();
    if (!t)
        return NULL;
    pthread_setspecific(thread_key, t);
    current = t;
    return t;
}

/* *buf holds at least size bytes aligned to RD_LOCAL_ALIGN (contents lost). */
static int grow(unsigned char **buf, size_t *cap, size_t size)
{
    if (size <= *cap && *buf)
        return 0;
    size_t want = size < 4096 ? 4096 : (size + RD_LOCAL_ALIGN - 1) & ~(size_t)(RD_LOCAL_ALIGN - 1);
    unsigned char *p = aligned_alloc(RD_LOCAL_ALIGN, want);
    if (!p)
        return -1;
    free(*buf);
    *buf = p;
    *cap = want;
    return 0;
}

int rd_sched_thread_reserve(rd_sched_thread_t *t, size_t local_bytes, uint32_t num_sg,
                            uint32_t num_args)
{
    if (grow(&t->local, &t->local_cap, local_bytes) != 0)
        return -1;
    unsigned char *old_sg = t->sg_area;
    if (grow(&t->sg_area, &t->sg_cap, (size_t)num_sg * RD_XCHG_BYTES) != 0)
        return -1;
    if (t->sg_area != old_sg)
        t->ids_key[4] = 0; /* the ids point into the old area */
    if (num_args > t->args_cap) {
        const void **a = malloc(num_args * sizeof *a);
        void **l = malloc(num_args * sizeof *l);
        if (!a || !l) {
            free(a);
            free(l);
            return -1;
        }
        free(t->arg_ptrs);
        free(t->local_ptrs);
        t->arg_ptrs = a;
        t->local_ptrs = l;
        t->args_cap = num_args;
    }
    return 0;
}

int rd_sched_thread_fibers(rd_sched_thread_t *t, uint32_t n, void (*entry)(void *))
{
    if (t->dirty) {
        for (uint32_t i = 0; i < t->num_fibers; i++) {
            rd_fiber_renew(&t->fibers[i]->fiber);
            rd_fiber_prepare(&t->fibers[i]->fiber, entry, t->fibers[i]);
        }
        t->dirty = 0;
    }
    while (t->num_fibers < n) {
        rd_sched_fiber_t *f = malloc(sizeof *f);
        if (!f || rd_fiber_create(&f->fiber, t->num_fibers) != 0) {
            free(f);
            return -1;
        }
        f->thread = t;
        f->index = t->num_fibers;
        rd_fiber_prepare(&f->fiber, entry, f);
        t->fibers[t->num_fibers++] = f;
    }
    return 0;
}

void rd_sched_thread_layout(rd_sched_thread_t *t)
{
    rd_wi_state_t *st = &t->st;
    uint32_t key[5] = {st->local_size[0], st->local_size[1], st->local_size[2], st->max_sg_size,
                       (uint32_t)(st->sg_xchg_base >> 4) | 1u};
    if (memcmp(key, t->ids_key, sizeof key) == 0)
        return;
    rd_wi_state_t w = *st;
    rd_wi_seek(&w, 0);
    for (uint32_t i = 0; i < st->local_linear_size; i++) {
        memcpy(&t->ids[i], &w, sizeof t->ids[i]);
        rd_wi_step(&w);
    }
    memcpy(t->ids_key, key, sizeof key);
}
