/*
 * zt_subgroup_ref.c: what k_subgroup.cl must write, computed from the
 * definitions of the collectives; shared by the stand-in test (t_subgroup.c)
 * and the one through the driver (t_driver_subgroup.c).
 */
#include "zt_subgroup_ref.h"
#include "zcl_check.h"

#include <stddef.h>

#define N ZT_SUBGROUP_FIELDS

static int val(uint32_t g)
{
    return (int)(g * 7 % 13) - 6;
}

/* What work-item g wants at field k: computed from the definitions. */
static long want(uint32_t g, uint32_t local, uint32_t sgs, int k, const uint32_t *blk)
{
    uint32_t grp0 = g / local * local, l0 = g - grp0, s0 = grp0 + l0 / sgs * sgs;
    uint32_t n = grp0 + local - s0 < sgs ? grp0 + local - s0 : sgs, l = g - s0;
    long r = 0;
    switch (k) {
    case 0:
        return val(s0 + 3);
    case 1:
        for (uint32_t i = 0; i < n; i++)
            r += val(s0 + i);
        return r;
    case 2:
        r = 99;
        for (uint32_t i = 0; i < n; i++)
            r = val(s0 + i) < r ? val(s0 + i) : r;
        return r;
    case 3:
        r = -99;
        for (uint32_t i = 0; i < n; i++)
            r = val(s0 + i) > r ? val(s0 + i) : r;
        return r;
    case 4:
        for (uint32_t i = 0; i <= l; i++)
            r += val(s0 + i);
        return r;
    case 5:
        for (uint32_t i = 0; i < l; i++)
            r += val(s0 + i);
        return r;
    case 6:
        return val(s0 + (l + 5) % n);
    case 7:
        return val(s0 + (l ^ 1));
    case 8:
        return l + 3 < n ? val(s0 + l + 3) : val(s0 + l + 3 - n) + 100;
    case 9:
        return l >= 2 ? val(s0 + l - 2) : val(s0 + l + n - 2) - 100;
    case 10:
        for (uint32_t i = 0; i < n; i++)
            r |= val(s0 + i) == 5;
        return r;
    case 11:
        return 1;
    case 12:
        for (uint32_t i = 0; i < local; i++)
            r += val(grp0 + i);
        return r;
    case 13:
        for (uint32_t i = 0; i <= l0; i++)
            r += val(grp0 + i);
        return r;
    case 14:
        r = INT32_MIN;
        for (uint32_t i = 0; i < l0; i++)
            r = val(grp0 + i) > r ? val(grp0 + i) : r;
        return r;
    case 15:
        return val(grp0 + 2);
    case 16:
        for (uint32_t i = 0; i < n; i++)
            r |= (long)(val(s0 + i) > 0) << i;
        return (int)(uint32_t)r;
    case 17:
        return val(s0 + 1) * 10;
    case 18:
        for (uint32_t i = 0; i < n; i++)
            r += val(s0 + i);
        return r;
    case 19:
        r = -32768;
        for (uint32_t i = 0; i <= l; i++)
            r = val(s0 + i) > r ? val(s0 + i) : r;
        return r;
    case 20:
        return val(s0 + 2) + 6;
    case 21:
        return l + 1 < n ? val(s0 + l + 1) : val(s0 + l + 1 - n);
    case 22: {
        const uint32_t *b = blk + s0 * 4;
        return (long)(uint32_t)(b[l] + b[l + n] * 3 + b[l + 2 * n] * 5 + b[l + 3 * n] * 7);
    }
    default:
        return 1;
    }
}

void zt_subgroup_check(const int *o, const uint32_t *blk, const uint32_t *wo, uint32_t total,
                       uint32_t local, uint32_t sgs)
{
    for (uint32_t g = 0; g < total; g++)
        for (int k = 0; k < N; k++) {
            long w = want(g, local, sgs, k, blk);
            if (k == 20 || k == 16 || k == 22)
                w = k == 20 ? (uint8_t)w : w;
            if (o[(size_t)g * N + k] != (int)w)
                zcl_fail("sg %u local %u item %u field %d: %d, want %ld", sgs, local, g, k,
                         o[(size_t)g * N + k], w);
        }
    /* block writes: lane l of the sub-group at s0 wrote b.x + 1 at l, b.w + 1 at l + n */
    for (uint32_t g = 0; g < total; g++) {
        uint32_t grp0 = g / local * local, s0 = grp0 + (g - grp0) / sgs * sgs, l = g - s0;
        uint32_t n = grp0 + local - s0 < sgs ? grp0 + local - s0 : sgs;
        const uint32_t *b = blk + s0 * 4, *w = wo + s0 * 8;
        if (w[l] != b[l] + 1 || w[l + n] != b[l + 3 * n] + 1)
            zcl_fail("sg %u item %u block write: %u %u, want %u %u", sgs, g, w[l], w[l + n],
                     b[l] + 1, b[l + 3 * n] + 1);
    }
}
