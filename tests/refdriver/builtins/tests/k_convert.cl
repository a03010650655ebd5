/* k_convert.cl: conversions with rounding modes and saturation, and a few math and integer functions. */
kernel void zt_convert(global const float *f, global const long *l, global int *oi, global float *of, global uchar *ou)
{
    size_t i = get_global_id(0);
    float x = f[i];
    oi[i * 8 + 0] = convert_int_sat_rte(x);
    oi[i * 8 + 1] = convert_int_rtn(x);
    oi[i * 8 + 2] = convert_int_rtp(x);
    oi[i * 8 + 3] = convert_int_sat(x);
    oi[i * 8 + 4] = convert_short_sat(l[i]);
    oi[i * 8 + 5] = clz((int)l[i]);
    oi[i * 8 + 6] = popcount(l[i]) + 100 * add_sat((char)l[i], (char)100);
    oi[i * 8 + 7] = isnan(x) + 2 * isless(x, 0.0f);
    of[i * 4 + 0] = convert_float_rtz(l[i]);
    of[i * 4 + 1] = convert_float_rtp(l[i]);
    of[i * 4 + 2] = sin(x);
    of[i * 4 + 3] = exp(x * 0.01f);
    uchar4 u = convert_uchar4_sat_rte((float4)(x, -x, x * 0.5f, 300.0f));
    *(global uchar4 *)(ou + i * 4) = u;
}
