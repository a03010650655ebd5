/* convert.cl: conversions with rounding modes and saturation, half
 * through vstore_half / vload_half, double arithmetic. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void float_to_int(__global const float *in, __global int *out)
{
    size_t i = get_global_id(0);
    float x = in[i];
    out[8 * i + 0] = convert_int_rte(x);
    out[8 * i + 1] = convert_int_rtz(x);
    out[8 * i + 2] = convert_int_rtp(x);
    out[8 * i + 3] = convert_int_rtn(x);
    out[8 * i + 4] = convert_uchar_sat(x);
    out[8 * i + 5] = convert_char_sat_rte(x);
    out[8 * i + 6] = convert_short_sat(x * 1000.0f);
    out[8 * i + 7] = as_int(x);
}

__kernel void half_round_trip(__global const float *in, __global half *h, __global float *back)
{
    size_t i = get_global_id(0);
    vstore_half_rte(in[i], i, h);
    back[i] = vload_half(i, h);
}

__kernel void double_ops(__global const double *in, __global double *out)
{
    size_t i = get_global_id(0);
    double x = in[i];
    out[3 * i] = sqrt(fabs(x));
    out[3 * i + 1] = x / 3.0;
    out[3 * i + 2] = (double)(float)x;
}
