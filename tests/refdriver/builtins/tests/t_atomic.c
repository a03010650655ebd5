/*
 * t_atomic.c: the atomics of zeil_cl_builtins.bc (1.2 names, atom_*, C11
 * style with order and scope, float atomics, flags, local atomics) with
 * every group's work-items running at once as threads, against the totals
 * that every interleaving must give.
 */
#include "zcl_standin.h"
#include "rd_rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void zt_atomic(int *c, int64_t *cl, float *cf, uint32_t *cu, int *winners, int *local_counter);

typedef struct ctx {
    int c[16];
    int64_t cl[2];
    float cf[2];
    uint32_t cu[2];
    int winners[1];
    int local_counter[64]; /* each group's local memory */
} ctx_t;

static void item(void *p)
{
    ctx_t *x = p;
    uint64_t g = rd_rt_get_state()->group_id[0];
    zt_atomic(x->c, x->cl, x->cf, x->cu, x->winners, &x->local_counter[g]);
}

static void expect(const char *what, long long got, long long want)
{
    if (got != want)
        zcl_fail("%s: %lld, want %lld", what, got, want);
}

int main(void)
{
    const int groups = 6, local = 32, n = groups * local;
    for (int round = 0; round < 3; round++) {
        ctx_t x;
        memset(&x, 0, sizeof x);
        x.cf[1] = -1.0f;
        zcl_range_t r = zcl_range_1d((uint64_t)n, (uint32_t)local, 8);
        r.groups_at_once = 1;
        if (zcl_run(&r, item, &x))
            return 2;
        long long sumg = (long long)n * (n - 1) / 2;
        uint32_t xr = 0;
        for (int g = 0; g < n; g++)
            xr ^= (uint32_t)g;
        expect("atomic_add", x.c[0], n);
        expect("atomic_inc", x.c[1], n);
        expect("atomic_sub", x.c[2], -2LL * n);
        expect("atomic_max", x.c[3], n - 1);
        expect("atomic_min", x.c[4], -(n - 1));
        expect("atomic_or", x.cu[0], 0xffffffffLL);
        expect("atomic_xor", x.cu[1], xr);
        expect("atom_add long", x.cl[0], sumg << 33);
        expect("atomic_fetch_add", x.c[5], 3LL * n);
        expect("atomic_fetch_add_explicit long", x.cl[1], 5LL * n);
        expect("atomic_fetch_add float", (long long)x.cf[0], n);
        expect("atomic_fetch_max float x2", (long long)(x.cf[1] * 2), n - 1);
        expect("atomic_cmpxchg loop", x.c[6], n);
        expect("atomic_compare_exchange_weak loop", x.c[7], 2LL * n);
        expect("atomic_flag_test_and_set winner", x.winners[0] >= 1 && x.winners[0] <= n, 1);
        expect("atomic_flag", x.c[8], 1);
        expect("atomic_xchg", x.c[9], 7);
        expect("local atomics", x.c[10], 2LL * n);
        expect("atomic_store", x.c[11], 42);
    }
    return zcl_report("t_atomic");
}
