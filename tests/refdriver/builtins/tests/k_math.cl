/* k_math.cl: math built-ins in float, double and half, one input per work-item. */
#define NF 20
#define ND 11
#define NH 3
kernel void zt_math(global const float *x, global const float *y, global float *of, global double *od, global half *oh,
                    global int *oi)
{
    size_t i = get_global_id(0);
    float a = x[i], b = y[i];
    global float *f = of + i * NF;
    f[0] = sin(a); f[1] = cos(a); f[2] = tan(a); f[3] = exp(a); f[4] = exp2(a); f[5] = exp10(a);
    f[6] = log(b); f[7] = log2(b); f[8] = log10(b); f[9] = pow(b, a); f[10] = sqrt(b); f[11] = rsqrt(b);
    f[12] = tanh(a); f[13] = erf(a); f[14] = cbrt(a); f[15] = atan2(a, b); f[16] = fma(a, b, 1.0f);
    f[17] = sinpi(a);
    int e;
    f[18] = frexp(a, &e);
    float ip;
    f[19] = fract(a, &ip);
    oi[i * 2] = e;
    oi[i * 2 + 1] = (int)ip;
    double da = (double)a * 1.1, db = (double)b * 0.9;
    global double *d = od + i * ND;
    d[0] = sin(da); d[1] = exp(da); d[2] = log(db); d[3] = pow(db, da); d[4] = sqrt(db); d[5] = tanh(da);
    d[6] = erf(da); d[7] = cbrt(da); d[8] = atan2(da, db);
    double c;
    d[9] = sincos(da, &c);
    d[10] = c;
    half ha = (half)(a * 0.25f), hb = (half)b;
    global half *h = oh + i * NH;
    h[0] = sin(ha); h[1] = exp(ha); h[2] = sqrt(hb);
}
