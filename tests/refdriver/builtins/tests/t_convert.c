/*
 * t_convert.c: conversions of zeil_cl_builtins.bc (rounding modes,
 * saturation, NaN, out-of-range values), a few integer functions, and sin/exp
 * within OpenCL's ulp bounds, against C's fenv rounding and libm.
 */
#include "zcl_standin.h"

#include <fenv.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NV 16

void zt_convert(const float *f, const int64_t *l, int *oi, float *of, uint8_t *ou, _Float16 *oh);

typedef struct ctx {
    float *f;
    int64_t *l;
    int *oi;
    float *of;
    uint8_t *ou;
    _Float16 *oh;
} ctx_t;

static void item(void *c)
{
    ctx_t *x = c;
    zt_convert(x->f, x->l, x->oi, x->of, x->ou, x->oh);
}

static int sat_int(double r)
{
    return isnan(r) ? 0 : r < INT_MIN ? INT_MIN : r > INT_MAX ? INT_MAX : (int)r;
}

static float long_to_float(int64_t v, int mode)
{
    fesetround(mode);
    volatile int64_t vv = v;
    float r = (float)vv;
    fesetround(FE_TONEAREST);
    return r;
}

static double ulps(float got, double want)
{
    if (isnan(got) && isnan(want))
        return 0;
    double u = nextafterf((float)fabs(want), INFINITY) - (float)fabs(want);
    return fabs(got - want) / u;
}

/* v rounded to half toward the mode: the nearest (one rounding from long
 * double), then a step of the bits when it lies on the wrong side. */
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

static _Float16 to_half(long double v, int mode)
{
    _Float16 r = (_Float16)v;
    long double g = (long double)r;
    if ((mode == FE_UPWARD && g < v) || (mode == FE_TOWARDZERO && g < v && v < 0))
        r = half_step(r, 1);
    else if ((mode == FE_DOWNWARD && g > v) || (mode == FE_TOWARDZERO && g > v && v > 0))
        r = half_step(r, 0);
    return r;
}

static uint8_t sat_uchar(double r)
{
    return isnan(r) ? 0 : r < 0 ? 0 : r > 255 ? 255 : (uint8_t)r;
}

int main(void)
{
    float f[NV] = {0.5f, 1.5f,          2.5f,  -2.5f,   -0.4f, 3.7f,  1e10f,  -1e10f,
                   NAN,  2147483520.0f, -7.5f, 100.25f, 0.0f,  -0.0f, 254.5f, 1e-30f};
    int64_t l[NV] = {1,
                     -1,
                     40000,
                     -40000,
                     0x7fffffffffffffffLL,
                     (int64_t)0x8000000000000000ULL,
                     16777217,
                     -16777217,
                     123456789012345LL,
                     255,
                     65535,
                     1 << 20,
                     3,
                     0,
                     -129,
                     77};
    ctx_t c = {f,
               l,
               calloc(NV * 8, 4),
               calloc(NV * 4, 4),
               calloc(NV * 4, 1),
               calloc(NV * 4, sizeof(_Float16))};
    zcl_range_t r = zcl_range_1d(NV, 8, 8);
    if (!c.oi || !c.of || !c.ou || !c.oh || zcl_run(&r, item, &c))
        return 2;
    for (int i = 0; i < NV; i++) {
        double x = f[i];
        int want_i[8] = {sat_int(nearbyint(x)),
                         isnan(x) ? c.oi[i * 8 + 1] : sat_int(floor(x)),
                         isnan(x) ? c.oi[i * 8 + 2] : sat_int(ceil(x)),
                         sat_int(trunc(x)),
                         l[i] < SHRT_MIN   ? SHRT_MIN
                         : l[i] > SHRT_MAX ? SHRT_MAX
                                           : (int)l[i],
                         (int32_t)l[i] == 0 ? 32 : __builtin_clz((uint32_t)l[i]),
                         __builtin_popcountll((uint64_t)l[i]) +
                             100 * ((int8_t)l[i] + 100 > 127    ? 127
                                    : (int8_t)l[i] + 100 < -128 ? -128
                                                                : (int8_t)l[i] + 100),
                         !!isnan(x) + 2 * (x < 0)};
        for (int k = 0; k < 8; k++) {
            if ((k == 1 || k == 2) && fabs(x) > 2e9)
                continue; /* out of range without _sat: undefined */
            if (c.oi[i * 8 + k] != want_i[k])
                zcl_fail("value %d (%g, %lld) field %d: %d, want %d", i, x, (long long)l[i], k,
                         c.oi[i * 8 + k], want_i[k]);
        }
        float rz = long_to_float(l[i], FE_TOWARDZERO), rp = long_to_float(l[i], FE_UPWARD);
        if (c.of[i * 4 + 0] != rz || c.of[i * 4 + 1] != rp)
            zcl_fail("convert_float_rtz/rtp(%lld): %.9g %.9g, want %.9g %.9g", (long long)l[i],
                     c.of[i * 4 + 0], c.of[i * 4 + 1], rz, rp);
        if (ulps(c.of[i * 4 + 2], sin(x)) > 4 ||
            ulps(c.of[i * 4 + 3], exp((double)(float)(x * 0.01f))) > 3)
            zcl_fail("sin/exp(%g): %.9g %.9g, want %.9g %.9g", x, c.of[i * 4 + 2], c.of[i * 4 + 3],
                     sin(x), exp((double)(float)(x * 0.01f)));
        _Float16 wh[4] = {to_half(l[i], FE_TOWARDZERO), to_half(l[i], FE_UPWARD),
                          to_half(l[i], FE_DOWNWARD),
                          isnan(x) ? c.oh[i * 4 + 3]
                                   : to_half((long double)((double)f[i] * 1.0001), FE_TOWARDZERO)};
        for (int k = 0; k < 4; k++)
            if (memcmp(&c.oh[i * 4 + k], &wh[k], 2))
                zcl_fail("convert_half mode %d (%lld, %g): %g, want %g", k, (long long)l[i], x,
                         (double)c.oh[i * 4 + k], (double)wh[k]);
        uint8_t wu[4] = {sat_uchar(nearbyint(x)), sat_uchar(nearbyint(-x)),
                         sat_uchar(nearbyint((float)(x * 0.5f))), 255};
        for (int k = 0; k < 4; k++)
            if (c.ou[i * 4 + k] != wu[k])
                zcl_fail("convert_uchar4_sat_rte(%g) lane %d: %u, want %u", x, k, c.ou[i * 4 + k],
                         wu[k]);
    }
    free(c.oi);
    free(c.of);
    free(c.ou);
    free(c.oh);
    return zcl_report("t_convert");
}
