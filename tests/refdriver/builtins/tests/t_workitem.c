/*
 * t_workitem.c: the work-item functions of zeil_cl_builtins.bc, run by the
 * stand-in scheduler over a 3-D range with an offset, against the same
 * quantities computed here.
 */
#include "zcl_standin.h"

#include <stdio.h>
#include <stdlib.h>

#define N 20

void zt_workitem(uint64_t *o);

static void item(void *ctx)
{
    zt_workitem(ctx);
}

static void check(const zcl_range_t *r, const uint64_t *o)
{
    uint32_t lsize = r->local[0] * r->local[1] * r->local[2];
    for (uint64_t z = 0; z < r->global[2]; z++)
        for (uint64_t y = 0; y < r->global[1]; y++)
            for (uint64_t x = 0; x < r->global[0]; x++) {
                uint64_t g[3] = {x, y, z}, lin = (z * r->global[1] + y) * r->global[0] + x;
                const uint64_t *p = o + lin * N;
                uint32_t l[3];
                for (int d = 0; d < 3; d++) {
                    l[d] = (uint32_t)(g[d] % r->local[d]);
                    uint64_t want[4] = {g[d] + r->offset[d], l[d], g[d] / r->local[d],
                                        r->global[d] * 1000 + r->local[d] * 100 +
                                            r->global[d] / r->local[d] * 10 + r->offset[d]};
                    for (int k = 0; k < 4; k++)
                        if (p[k * 3 + d] != want[k])
                            zcl_fail("item %llu dim %d query %d: %llu, want %llu",
                                     (unsigned long long)lin, d, k,
                                     (unsigned long long)p[k * 3 + d], (unsigned long long)want[k]);
                }
                uint32_t ll = (l[2] * r->local[1] + l[1]) * r->local[0] + l[0];
                uint32_t nsg = (lsize + r->sg_size - 1) / r->sg_size, sg = ll / r->sg_size;
                uint32_t sgs = sg + 1 < nsg ? r->sg_size : lsize - sg * r->sg_size;
                uint64_t want[7] = {r->dims,
                                    ll,
                                    sg * 1000 + ll % r->sg_size,
                                    sgs * 1000 + r->sg_size,
                                    nsg * 1001,
                                    r->local[0] + 100,
                                    1};
                for (int k = 0; k < 7; k++)
                    if (p[12 + k] != want[k])
                        zcl_fail("item %llu field %d: %llu, want %llu", (unsigned long long)lin,
                                 12 + k, (unsigned long long)p[12 + k],
                                 (unsigned long long)want[k]);
            }
}

int main(void)
{
    zcl_range_t ranges[] = {
        {3, {8, 4, 6}, {4, 2, 3}, {3, 1, 7}, 8, 0},
        {2, {32, 6, 1}, {16, 3, 1}, {0, 5, 0}, 16, 0},
        {1, {96, 1, 1}, {48, 1, 1}, {0, 0, 0}, 32, 1},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        const zcl_range_t *r = &ranges[i];
        uint64_t n = r->global[0] * r->global[1] * r->global[2];
        uint64_t *o = calloc(n * N, sizeof *o);
        if (!o || zcl_run(r, item, o))
            return 2;
        check(r, o);
        free(o);
    }
    return zcl_report("t_workitem");
}
