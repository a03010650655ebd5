/*
 * t_subgroup.c: the sub-group and work-group collectives of
 * zeil_cl_builtins.bc at sub-group sizes 8, 16 and 32 (with a partial last
 * sub-group), against the same collectives computed here.
 */
#include "zcl_standin.h"
#include "zt_subgroup_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N ZT_SUBGROUP_FIELDS

void zt_subgroup(int *o, uint32_t *blk, float *fo);

typedef struct ctx {
    int *o;
    uint32_t *blk;
    uint32_t *wo;
} ctx_t;

static void item(void *c)
{
    ctx_t *x = c;
    zt_subgroup(x->o, x->blk, (float *)x->wo);
}

static void run(uint32_t groups, uint32_t local, uint32_t sgs)
{
    uint32_t total = groups * local;
    ctx_t c = {calloc((size_t)total * N, sizeof(int)), calloc((size_t)total * 4, 4),
               calloc((size_t)total * 8, 4)};
    for (uint32_t i = 0; i < total * 4; i++)
        c.blk[i] = i * 2654435761u;
    zcl_range_t r = zcl_range_1d(total, local, sgs);
    if (!c.o || !c.blk || !c.wo || zcl_run(&r, item, &c))
        exit(2);
    zt_subgroup_check(c.o, c.blk, c.wo, total, local, sgs);
    free(c.o);
    free(c.blk);
    free(c.wo);
}

int main(void)
{
    static const uint32_t sizes[] = {8, 16, 32};
    for (int i = 0; i < 3; i++) {
        run(3, sizes[i] * 2, sizes[i]);
        run(2, sizes[i] * 2 + sizes[i] / 2, sizes[i]); /* a partial last sub-group */
    }
    return zcl_report("t_subgroup");
}
