/*
 * A stress worker: launches, copies, allocations and frees on its own lists,
 * as fast as it can, while seven others do the same on the same context.
 */
#include "stress.h"

#include "test_kernels.h"

#include <string.h>

#define KERNEL_ITEMS 16

/* Each list has its own kernel object (arguments are kernel state) and its
 * own destinations: the two lists run at the same time. */
enum {
    ON_IMMEDIATE,
    ON_REGULAR,
    LIST_KINDS
};

typedef struct worker_buffers {
    ze_kernel_handle_t kernel[LIST_KINDS];
    float *a, *b, *c[LIST_KINDS];          /* vector_add operands (shared USM) */
    void *copy_src, *copy_dst[LIST_KINDS]; /* host USM, 64 bytes each */
    void *live[STRESS_LIVE_ALLOCS];
    ze_event_pool_handle_t pool;
    ze_event_handle_t done; /* signalled by the last launch of a batch */
} worker_buffers_t;

void stress_worker_open(stress_worker_t *w)
{
    w->immediate = zt_immediate_list(w->env, 0);
    w->regular = zt_regular_list(w->env);
    w->queue = zt_queue(w->env, 0);
}

void stress_worker_close(stress_worker_t *w)
{
    ZT_OK(zeCommandListDestroy(w->immediate));
    ZT_OK(zeCommandListDestroy(w->regular));
    ZT_OK(zeCommandQueueDestroy(w->queue));
}

static void open_buffers(stress_worker_t *w, worker_buffers_t *b)
{
    memset(b, 0, sizeof *b);
    b->a = zt_usm_alloc(w->env, ZT_USM_SHARED, KERNEL_ITEMS * sizeof(float), 64);
    b->b = zt_usm_alloc(w->env, ZT_USM_SHARED, KERNEL_ITEMS * sizeof(float), 64);
    for (int i = 0; i < KERNEL_ITEMS; i++)
        b->a[i] = (float)i, b->b[i] = 1.0f;
    b->copy_src = zt_usm_alloc(w->env, ZT_USM_HOST, 64, 64);
    memset(b->copy_src, 0x5a, 64);
    uint64_t n = KERNEL_ITEMS;
    for (int l = 0; l < LIST_KINDS; l++) {
        b->kernel[l] = zt_kernel(w->module, TK_VECTOR_ADD);
        b->c[l] = zt_usm_alloc(w->env, ZT_USM_SHARED, KERNEL_ITEMS * sizeof(float), 64);
        b->copy_dst[l] = zt_usm_alloc(w->env, ZT_USM_HOST, 64, 64);
        ZT_ARG(b->kernel[l], 0, b->a);
        ZT_ARG(b->kernel[l], 1, b->b);
        ZT_ARG(b->kernel[l], 2, b->c[l]);
        ZT_ARG(b->kernel[l], 3, n);
        ZT_OK(zeKernelSetGroupSize(b->kernel[l], KERNEL_ITEMS, 1, 1));
    }
    b->pool = zt_event_pool(w->env, 1, 0);
    b->done = zt_event(b->pool, 0);
}

static void close_buffers(stress_worker_t *w, worker_buffers_t *b)
{
    for (int i = 0; i < STRESS_LIVE_ALLOCS; i++)
        if (b->live[i]) {
            ZT_OK(zeMemFree(w->env->context, b->live[i]));
            w->frees++;
        }
    for (int l = 0; l < LIST_KINDS; l++) {
        ck_assert_float_eq(b->c[l][KERNEL_ITEMS - 1], (float)KERNEL_ITEMS);
        ck_assert_int_eq(memcmp(b->copy_src, b->copy_dst[l], 64), 0);
        ZT_OK(zeMemFree(w->env->context, b->c[l]));
        ZT_OK(zeMemFree(w->env->context, b->copy_dst[l]));
        ZT_OK(zeKernelDestroy(b->kernel[l]));
    }
    void *owned[] = {b->a, b->b, b->copy_src};
    for (size_t i = 0; i < sizeof owned / sizeof owned[0]; i++)
        ZT_OK(zeMemFree(w->env->context, owned[i]));
    ZT_OK(zeEventDestroy(b->done));
    ZT_OK(zeEventPoolDestroy(b->pool));
}

/* Replaces one live allocation: a free (when the slot is taken) and an
 * allocation of another kind and size. */
static void churn_allocation(stress_worker_t *w, worker_buffers_t *b, uint64_t i)
{
    int slot = (int)(i % STRESS_LIVE_ALLOCS);
    if (b->live[slot]) {
        void *old = b->live[slot];
        ZT_OK(zeMemFree(w->env->context, old));
        atomic_store(&w->newest_freed, old);
        w->frees++;
    }
    zt_usm_kind_t kind = (zt_usm_kind_t)(i % ZT_USM_KINDS);
    size_t size = 64u << (i % 7);
    b->live[slot] = zt_usm_alloc(w->env, kind, size, 64);
    atomic_store(&w->newest_alloc, b->live[slot]);
    w->allocations++;
}

static void append_immediate(stress_worker_t *w, worker_buffers_t *b, int last_of_batch)
{
    ze_event_handle_t signal = last_of_batch ? b->done : NULL;
    ZT_OK(zeCommandListAppendMemoryCopy(w->immediate, b->copy_dst[ON_IMMEDIATE], b->copy_src, 64,
                                        NULL, 0, NULL));
    ze_group_count_t groups = {1, 1, 1};
    ZT_OK(zeCommandListAppendLaunchKernel(w->immediate, b->kernel[ON_IMMEDIATE], &groups, signal, 0,
                                          NULL));
    w->immediate_appends += 2;
    if (last_of_batch) {
        ZT_OK(zeEventHostSynchronize(b->done, UINT64_MAX));
        ZT_OK(zeEventHostReset(b->done));
    }
}

static void append_regular(stress_worker_t *w, worker_buffers_t *b, int last_of_batch)
{
    ZT_OK(zeCommandListAppendMemoryCopy(w->regular, b->copy_dst[ON_REGULAR], b->copy_src, 64, NULL,
                                        0, NULL));
    ze_group_count_t groups = {1, 1, 1};
    ZT_OK(
        zeCommandListAppendLaunchKernel(w->regular, b->kernel[ON_REGULAR], &groups, NULL, 0, NULL));
    w->regular_appends += 2;
    if (last_of_batch) {
        ZT_OK(zeCommandListClose(w->regular));
        ZT_OK(zeCommandQueueExecuteCommandLists(w->queue, 1, &w->regular, NULL));
        ZT_OK(zeCommandQueueSynchronize(w->queue, UINT64_MAX));
        ZT_OK(zeCommandListReset(w->regular));
    }
}

void *stress_worker_run(void *worker)
{
    stress_worker_t *w = worker;
    worker_buffers_t b;
    open_buffers(w, &b);
    /* Each iteration: one allocation, one free, and a launch and a copy on
     * one of the two lists, alternating; so ops iterations make ops of each. */
    uint64_t half = w->ops / 2;
    for (uint64_t i = 0; i < w->ops; i++) {
        churn_allocation(w, &b, i);
        uint64_t k = i / 2;
        int last = (k + 1) % STRESS_BATCH == 0 || k + 1 == half;
        if (i % 2 == 0)
            append_immediate(w, &b, last);
        else
            append_regular(w, &b, last);
    }
    close_buffers(w, &b);
    return NULL;
}
