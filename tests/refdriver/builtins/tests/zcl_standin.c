/*
 * zcl_standin.c: the thread-per-work-item stand-in scheduler of the
 * built-in library's tests (see zcl_standin.h).
 */
#include "zcl_standin.h"
#include "rd_rt.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct zcl_group {
    pthread_barrier_t wg;
    pthread_barrier_t sg[1024 / 8];
    unsigned char *sg_xchg;
    unsigned char *wg_xchg;
} zcl_group_t;

typedef struct zcl_item {
    rd_wi_state_t st;
    zcl_group_t *group;
    void (*fn)(void *ctx);
    void *ctx;
} zcl_item_t;

static void zcl_wg_barrier(rd_wi_state_t *st, uint32_t flags)
{
    (void)flags;
    zcl_item_t *it = (zcl_item_t *)st;
    pthread_barrier_wait(&it->group->wg);
}

static void zcl_sg_barrier(rd_wi_state_t *st)
{
    zcl_item_t *it = (zcl_item_t *)st;
    pthread_barrier_wait(&it->group->sg[st->sg_id]);
}

static void *zcl_thread(void *arg)
{
    zcl_item_t *it = arg;
    rd_rt_set_state(&it->st);
    it->fn(it->ctx);
    return NULL;
}

/* The per-group fields of group g; the per-item ones of item l. */
static void zcl_fill(const zcl_range_t *r, zcl_group_t *grp, const uint64_t g[3], uint32_t l,
                     zcl_item_t *it)
{
    rd_wi_state_t *st = &it->st;
    uint32_t lsize = r->local[0] * r->local[1] * r->local[2];
    memset(st, 0, sizeof *st);
    for (int d = 0; d < 3; d++) {
        st->group_id[d] = g[d];
        st->global_offset[d] = r->offset[d];
        st->global_size[d] = r->global[d];
        st->local_size[d] = r->local[d];
        st->num_groups[d] = (uint32_t)(r->global[d] / r->local[d]);
    }
    st->local_id[0] = l % r->local[0];
    st->local_id[1] = (l / r->local[0]) % r->local[1];
    st->local_id[2] = l / (r->local[0] * r->local[1]);
    st->local_linear_id = l;
    st->work_dim = r->dims;
    st->max_sg_size = r->sg_size;
    st->num_sub_groups = (lsize + r->sg_size - 1) / r->sg_size;
    st->local_linear_size = lsize;
    st->sg_id = l / r->sg_size;
    st->sg_local_id = l % r->sg_size;
    st->sg_size = st->sg_id + 1 < st->num_sub_groups ? r->sg_size : lsize - st->sg_id * r->sg_size;
    st->sg_xchg = (uint64_t)(uintptr_t)(grp->sg_xchg + (size_t)st->sg_id * RD_XCHG_BYTES);
    st->wg_xchg = (uint64_t)(uintptr_t)grp->wg_xchg;
    st->wg_barrier = (uint64_t)(uintptr_t)zcl_wg_barrier;
    st->sg_barrier = (uint64_t)(uintptr_t)zcl_sg_barrier;
    it->group = grp;
}

static int zcl_group_init(zcl_group_t *grp, uint32_t lsize, uint32_t sg)
{
    uint32_t nsg = (lsize + sg - 1) / sg;
    pthread_barrier_init(&grp->wg, NULL, lsize);
    for (uint32_t s = 0; s < nsg; s++)
        pthread_barrier_init(&grp->sg[s], NULL, s + 1 < nsg ? sg : lsize - s * sg);
    grp->sg_xchg = calloc(nsg, RD_XCHG_BYTES);
    grp->wg_xchg = calloc(1, RD_WG_XCHG_BYTES);
    return grp->sg_xchg && grp->wg_xchg ? 0 : -1;
}

static void zcl_group_fini(zcl_group_t *grp, uint32_t lsize, uint32_t sg)
{
    uint32_t nsg = (lsize + sg - 1) / sg;
    pthread_barrier_destroy(&grp->wg);
    for (uint32_t s = 0; s < nsg; s++)
        pthread_barrier_destroy(&grp->sg[s]);
    free(grp->sg_xchg);
    free(grp->wg_xchg);
}

/* Runs groups first .. first + n - 1 (linear group index) at once. */
static int zcl_run_groups(const zcl_range_t *r, uint64_t first, uint64_t n, void (*fn)(void *),
                          void *ctx)
{
    uint32_t lsize = r->local[0] * r->local[1] * r->local[2];
    uint64_t ng0 = r->global[0] / r->local[0], ng1 = r->global[1] / r->local[1];
    zcl_group_t *grps = calloc(n, sizeof *grps);
    zcl_item_t *items = calloc(n * lsize, sizeof *items);
    pthread_t *th = calloc(n * lsize, sizeof *th);
    int rc = grps && items && th ? 0 : -1;
    for (uint64_t k = 0; rc == 0 && k < n; k++) {
        uint64_t lin = first + k, g[3] = {lin % ng0, (lin / ng0) % ng1, lin / (ng0 * ng1)};
        rc = zcl_group_init(&grps[k], lsize, r->sg_size);
        for (uint32_t l = 0; rc == 0 && l < lsize; l++) {
            zcl_item_t *it = &items[k * lsize + l];
            zcl_fill(r, &grps[k], g, l, it);
            it->fn = fn;
            it->ctx = ctx;
        }
    }
    for (uint64_t i = 0; rc == 0 && i < n * lsize; i++)
        if (pthread_create(&th[i], NULL, zcl_thread, &items[i]))
            rc = -1, fprintf(stderr, "zcl_run: pthread_create failed\n"), exit(2);
    for (uint64_t i = 0; rc == 0 && i < n * lsize; i++)
        pthread_join(th[i], NULL);
    for (uint64_t k = 0; grps && k < n; k++)
        if (grps[k].sg_xchg || grps[k].wg_xchg)
            zcl_group_fini(&grps[k], lsize, r->sg_size);
    free(grps);
    free(items);
    free(th);
    return rc;
}

int zcl_run(const zcl_range_t *r, void (*item)(void *ctx), void *ctx)
{
    uint64_t groups = 1;
    for (int d = 0; d < 3; d++)
        groups *= r->global[d] / r->local[d];
    if (r->groups_at_once)
        return zcl_run_groups(r, 0, groups, item, ctx);
    for (uint64_t g = 0; g < groups; g++)
        if (zcl_run_groups(r, g, 1, item, ctx))
            return -1;
    return 0;
}

zcl_range_t zcl_range_1d(uint64_t n, uint32_t local, uint32_t sg)
{
    zcl_range_t r = {1, {n, 1, 1}, {local, 1, 1}, {0, 0, 0}, sg, 0};
    return r;
}
