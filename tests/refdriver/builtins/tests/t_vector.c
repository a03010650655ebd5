/*
 * t_vector.c: vector loads and stores (float and half, every rounding
 * mode of vstore_half), geometric, relational and shuffle built-ins and
 * printf of zeil_cl_builtins.bc, against C.
 */
#include "zcl_standin.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NI 16

void zt_vector(const float *src, float *dst, _Float16 *h, float *geo, int *rel, float *scratch);

typedef struct ctx {
    float src[64];
    float dst[128];
    _Float16 h[128];
    float geo[NI * 4];
    int rel[NI * 9];
    float scratch[2][8];
} ctx_t;

static void item(void *p)
{
    ctx_t *x = p;
    zt_vector(x->src, x->dst, x->h, x->geo, x->rel, x->scratch[0]);
}

/* f rounded to half in the given mode: the nearest half, then one step
 * toward the mode's side when the nearest is on the wrong side. */
static _Float16 half_step(_Float16 h, int up)
{
    uint16_t b;
    memcpy(&b, &h, 2);
    if ((b & 0x7fff) == 0)
        b = up ? 1 : 0x8001;
    else if ((b & 0x8000) == 0)
        b = up ? b + 1 : b - 1;
    else
        b = up ? b - 1 : b + 1;
    memcpy(&h, &b, 2);
    return h;
}

static _Float16 to_half(float f, int mode)
{
    _Float16 r = (_Float16)f;
    float g = (float)r;
    if ((mode == FE_UPWARD && g < f) || (mode == FE_TOWARDZERO && g < f && f < 0))
        r = half_step(r, 1);
    else if ((mode == FE_DOWNWARD && g > f) || (mode == FE_TOWARDZERO && g > f && f > 0))
        r = half_step(r, 0);
    return r;
}

static void near(const char *what, int i, double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol * fabs(want) + 1e-30))
        zcl_fail("%s[%d]: %.9g, want %.9g", what, i, got, want);
}

int main(void)
{
    static ctx_t x;
    for (int k = 0; k < 64; k++)
        x.src[k] = (float)k * 0.75f + 0.3f;
    zcl_range_t r = zcl_range_1d(NI, 8, 8);
    fflush(stdout);
    char path[] = "/tmp/zt_vector_XXXXXX";
    int fd = mkstemp(path), saved = dup(1);
    if (fd < 0 || saved < 0)
        return 2;
    dup2(fd, 1);
    int rc = zcl_run(&r, item, &x);
    fflush(stdout);
    dup2(saved, 1);
    if (rc)
        return 2;
    char out[1024] = {0};
    lseek(fd, 0, SEEK_SET);
    ssize_t got = read(fd, out, sizeof out - 1);
    close(fd);
    unlink(path);
    char want[1024];
    snprintf(want, sizeof want,
             "zt_vector 5 %.2f ok 16\n"
             "1.500000,-2.000000,3.250000,%f|-7,300|1,2,3,4,5,6,7,250|-1,0,65536|-5000000000,9|"
             "0.500000,-1.000000,2.000000,10000000000.000000|0,1,2,3,4,5,6,7,8,9,a,b,c,d,e,ff|0."
             "500000,-3.000000\n",
             x.src[5], x.src[5]);
    if (got <= 0 || strcmp(out, want))
        zcl_fail("printf: \"%s\", want \"%s\"", out, want);
    int differ = 0;
    for (int i = 0; i < NI; i++)
        differ += x.h[i] != x.h[i + 16];
    if (differ < NI / 2)
        zcl_fail("vstore_half_rtz and _rtp agree on %d of %d inexact values", NI - differ, NI);
    for (int i = 0; i < NI; i++) {
        for (int k = 0; k < 3; k++)
            near("vstore3", i * 3 + k, x.dst[i * 3 + k], x.src[i * 3 + k] * 2.0f, 0);
        int l = i % 8, pair = l & ~1;
        float sc[2] = {x.src[pair + (i - l) + 3] + x.src[pair + (i - l) + 15],
                       x.src[pair + 1 + (i - l) + 3] + x.src[pair + 1 + (i - l) + 15]};
        near("local vload2", i, x.dst[64 + i], sc[0] + sc[1], 1e-6);
        float f = x.src[i] * 1.001f;
        if (x.h[i] != to_half(f, FE_TOWARDZERO) || x.h[i + 16] != to_half(f, FE_UPWARD))
            zcl_fail("vstore_half_rtz/rtp(%.9g): %g %g, want %g %g", f, (double)x.h[i],
                     (double)x.h[i + 16], (double)to_half(f, FE_TOWARDZERO),
                     (double)to_half(f, FE_UPWARD));
        float hs = 0;
        for (int k = 0; k < 3; k++)
            hs += (float)to_half(x.src[i * 3 + k], FE_DOWNWARD);
        near("vstorea_half3_rtn/vload_half4", i, x.dst[80 + i], hs, 1e-6);
        double v[4] = {x.src[i], -1, 2, 0.5}, d = 0;
        for (int k = 0; k < 4; k++)
            d += v[k] * v[k];
        near("dot", i, x.geo[i * 4 + 0], d, 1e-6);
        near("length", i, x.geo[i * 4 + 1], sqrt(d), 1e-6);
        near("normalize", i, x.geo[i * 4 + 2], -1 / sqrt(d), 1e-6);
        near("cross", i, x.geo[i * 4 + 3], x.src[i], 1e-6);
        int want_rel[9] = {10 + 2 + 30 + 4,
                           1 + 0 + 4,
                           0x0ff0,
                           8765,
                           -1 - 4,
                           x.src[i] > 3.0f,
                           5 + 12 + 21 + 4 * (8 + i),
                           1,
                           4 * (1 + i) + 3 + 2 - 1};
        for (int k = 0; k < 9; k++)
            if (x.rel[i * 9 + k] != want_rel[k])
                zcl_fail("relational %d item %d: %d, want %d", k, i, x.rel[i * 9 + k], want_rel[k]);
    }
    return zcl_report("t_vector");
}
