/*
 * t_math.c: math built-ins of zeil_cl_builtins.bc in float, double and
 * half against long double libm, within the ulp bounds of the OpenCL C
 * specification (full profile), and frexp, fract, sincos exactly.
 */
#include "zcl_standin.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NF 32
#define ND 11
#define NH 3
#define NI 32

void zt_math(const float *x, const float *y, float *of, double *od, _Float16 *oh, int *oi);

typedef struct ctx {
    float x[NI], y[NI], of[NI * NF];
    double od[NI * ND];
    _Float16 oh[NI * NH];
    int oi[NI * 2];
} ctx_t;

static void item(void *p)
{
    ctx_t *c = p;
    zt_math(c->x, c->y, c->of, c->od, c->oh, c->oi);
}

/* Error of got against want in ulps of a type with mant mantissa bits. */
static long double ulps(long double got, long double want, int mant, int emin)
{
    if (isnan(want) && isnan(got))
        return 0;
    if (isinf(want) || isinf(got))
        return got == want ? 0 : 1e9;
    int ex;
    frexpl(want, &ex);
    if (ex - 1 < emin)
        ex = emin + 1;
    long double ulp = ldexpl(1.0L, ex - 1 - mant);
    return fabsl(got - want) / ulp;
}

/* The largest error seen per function, printed at the end. */
static struct {
    const char *what;
    long double max;
    int mant;
} worst[64];

static void note(const char *what, int mant, long double u)
{
    int k = 0;
    while (worst[k].what && !(worst[k].what == what && worst[k].mant == mant) && k < 63)
        k++;
    worst[k].what = what;
    worst[k].mant = mant;
    if (u > worst[k].max)
        worst[k].max = u;
}

static void check(const char *what, int i, long double got, long double want, double bound,
                  int mant, int emin)
{
    long double maxv = ldexpl(2.0L - ldexpl(1.0L, -mant), -emin + 1);
    if (fabsl(want) > maxv + ldexpl(1.0L, -emin - mant))
        want = copysignl(INFINITY, want); /* beyond the type: overflows */
    long double u = ulps(got, want, mant, emin);
    note(what, mant, u);
    if (u > bound)
        zcl_fail("%s[%d]: %.17Lg, want %.17Lg (%.2Lf ulp > %g)", what, i, got, want, u, bound);
}

int main(void)
{
    static ctx_t c;
    for (int i = 0; i < NI; i++) {
        c.x[i] = (float)((i - 12) * 0.37 + (i % 5) * 0.011);
        c.y[i] = (float)(0.03 + i * i * 0.41);
    }
    c.x[31] = 1234.5678f;
    zcl_range_t r = zcl_range_1d(NI, 16, 16);
    if (zcl_run(&r, item, &c))
        return 2;
    for (int i = 0; i < NI; i++) {
        long double a = c.x[i], b = c.y[i];
        const float *f = c.of + i * NF;
        long double wf[18] = {sinl(a),
                              cosl(a),
                              tanl(a),
                              expl(a),
                              exp2l(a),
                              powl(10, a),
                              logl(b),
                              log2l(b),
                              log10l(b),
                              powl(b, a),
                              sqrtl(b),
                              1 / sqrtl(b),
                              tanhl(a),
                              erfl(a),
                              cbrtl(a),
                              atan2l(a, b),
                              (long double)fmaf(c.x[i], c.y[i], 1.0f),
                              sinl(3.14159265358979323846264L * a)};
        double bound[18] = {4, 4, 5, 3, 3, 3, 3, 3, 3, 16, 3, 2, 5, 16, 2, 6, 0, 4};
        static const char *names[18] = {"sin",  "cos",  "tan",   "exp",   "exp2", "exp10",
                                        "log",  "log2", "log10", "pow",   "sqrt", "rsqrt",
                                        "tanh", "erf",  "cbrt",  "atan2", "fma",  "sinpi"};
        for (int k = 0; k < 18; k++)
            check(names[k], i, f[k], wf[k], bound[k], 23, -126);
        float a20 = c.x[i] * 0.05f, a05 = c.x[i] * 0.5f, a01 = c.x[i] * 0.1f,
              b01 = c.y[i] * 0.1f + 0.5f;
        long double wf2[12] = {asinl(a20), acosl(a20),   atanl(a),  sinhl(a05),
                               coshl(a05), expm1l(a01),  log1pl(b), hypotl(a, b),
                               erfcl(a05), tgammal(b01), asinhl(a), atanhl(a20)};
        double bound2[12] = {4, 4, 5, 4, 4, 3, 2, 4, 16, 16, 4, 5};
        static const char *names2[12] = {"asin",  "acos",  "atan", "sinh",   "cosh",  "expm1",
                                         "log1p", "hypot", "erfc", "tgamma", "asinh", "atanh"};
        for (int k = 0; k < 12; k++)
            check(names2[k], i, f[20 + k], wf2[k], bound2[k], 23, -126);
        int e;
        float m = frexpf(c.x[i], &e), fl = floorf(c.x[i]);
        if (f[18] != m || c.oi[i * 2] != e)
            zcl_fail("frexp(%g): %g %d, want %g %d", c.x[i], f[18], c.oi[i * 2], m, e);
        if (f[19] != fminf(c.x[i] - fl, 0x1.fffffep-1f) || c.oi[i * 2 + 1] != (int)fl)
            zcl_fail("fract(%g): %g %d", c.x[i], f[19], c.oi[i * 2 + 1]);
        long double da = (double)c.x[i] * 1.1, db = (double)c.y[i] * 0.9;
        const double *d = c.od + i * ND;
        long double wd[11] = {sinl(da),       expl(da),  logl(db), powl(db, da),
                              sqrtl(db),      tanhl(da), erfl(da), cbrtl(da),
                              atan2l(da, db), sinl(da),  cosl(da)};
        double dbound[11] = {4, 3, 3, 16, 0.5, 5, 16, 2, 6, 4, 4};
        static const char *dnames[11] = {"sin", "exp",  "log",   "pow",        "sqrt",      "tanh",
                                         "erf", "cbrt", "atan2", "sincos.sin", "sincos.cos"};
        for (int k = 0; k < 11; k++)
            check(dnames[k], i, d[k], wd[k], dbound[k], 52, -1022);
        long double ha = (_Float16)(c.x[i] * 0.25f), hb = (_Float16)c.y[i];
        const _Float16 *h = c.oh + i * NH;
        if (fabsl(ha) < 11 && hb < 65504) {
            check("half sin", i, h[0], sinl(ha), 2, 10, -14);
            check("half exp", i, h[1], expl(ha), 2, 10, -14);
            check("half sqrt", i, h[2], sqrtl(hb), 1, 10, -14);
        }
    }
    printf("largest errors (ulp):");
    for (int k = 0; worst[k].what; k++)
        printf(" %s%s %.2f",
               worst[k].mant == 52   ? "d:"
               : worst[k].mant == 10 ? "h:"
                                     : "",
               worst[k].what, (double)worst[k].max);
    printf("\n");
    return zcl_report("t_math");
}
