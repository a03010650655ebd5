/* k_link.cl: calls built-ins of every category, as kernels of OpenCL C 1.2,
 * 2.0 and 3.0 and SPIR-V read back call them; link_check.py checks that the
 * library defines every one. Not run. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void zt_link(global float *f, global int *i, global half *h, global double *d, local float *lf,
                    local int *li, constant float *cf)
{
    size_t g = get_global_id(0) + get_local_id(1) + get_group_id(2) + get_global_size(0) + get_local_size(0) +
               get_num_groups(0) + get_work_dim() + get_global_offset(0);
    float p[16];
    int e;
    float4 v = vload4(g, f) + vload4(0, lf) + vload4(0, cf) + vload4(0, p);
    vstore4(v, g, f);
    vstore4(v, 0, lf);
    vstore_half4_rtz(v, g, h);
    vstore_half(v.x, 0, h);
    v += vload_half4(0, h) + (float4)(vloada_half4(0, h).x);
    f[0] = sin(v.x) + cos(v.y) + exp(v.z) + log(v.w) + pow(v.x, v.y) + sqrt(v.z) + rsqrt(v.z) + fma(v.x, v.y, v.z) +
           mad(v.x, v.y, v.z) + native_exp(v.x) + half_sqrt(v.y) + tanh(v.x) + erf(v.x) + fmin(v.x, 1.0f) +
           fmax(v.x, v.y) + clamp(v.x, 0.0f, 1.0f) + mix(v.x, v.y, 0.5f) + frexp(v.x, &e) + fract(v.y, p) +
           modf(v.z, p + 1) + sincos(v.w, p + 2) + dot(v, v) + length(v) + normalize(v).x + distance(v, v) +
           cross(v, v).x + step(0.5f, v.x) + smoothstep(0.0f, 1.0f, v.y) + sign(v.z) + degrees(v.w) + nan(1u) +
           select(v.x, v.y, 1) + ldexp(v.x, 2) + rootn(v.x, 3) + hypot(v.x, v.y) + atan2pi(v.x, v.y) +
           native_divide(v.x, v.y) + half_recip(v.y) + copysign(v.x, v.y) + trunc(v.x) + round(v.y) + rint(v.z);
    float8 v8 = (float8)(v, v);
    f[1] = sin(v8).s3 + convert_float8(convert_int8_sat_rte(v8)).s1 + any(isless(v, v)) + all(isnan(v8));
    f[2] = convert_float_rtz(i[0]) + (float)convert_half_rtn(v.x) + convert_float(convert_uchar4_sat(v).x);
    i[0] = abs(i[1]) + abs_diff(i[2], i[3]) + add_sat(i[4], i[5]) + hadd(i[1], i[2]) + clz(i[3]) + popcount(i[4]) +
           popcount(i[5]) + rotate(i[1], 3) + mul_hi(i[2], i[3]) + mad_sat(i[1], i[2], i[3]) + mad24(i[1], i[2], i[3]) +
           upsample((short)i[1], (ushort)i[2]) + max(i[1], i[2]) + min(i[3], 4) + (int)bitselect(i[1], i[2], i[3]);
    long4 l4 = convert_long4_sat(v) + mul_hi((long4)(1), (long4)(2)) + rotate((long4)(1), (long4)(3));
    i[1] = (int)l4.w;
    i[2] = atomic_add(i, 1) + atomic_inc(i) + atomic_cmpxchg(i, 1, 2) + atomic_xchg(i, 3) + atomic_min(i, 4) +
           atom_add(li, 1) + atomic_max(li, 5) + (int)atomic_xchg(f, 1.0f);
    d[0] = sin(d[1]) + exp(d[2]) + pow(d[3], d[4]) + sqrt(d[5]) + convert_double_rtz(i[0]) + fma(d[1], d[2], d[3]) +
           (double)convert_float_rtp(d[4]) + vload2(0, d).y;
    h[1] = sin(h[2]) + exp(h[3]) + (half)convert_int_sat(h[4]) + fma(h[1], h[2], h[3]) + fmax(h[5], h[6]);
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    event_t ev = async_work_group_copy(lf, f, 16, 0);
    wait_group_events(1, &ev);
    f[3] = intel_sub_group_shuffle(v.x, 1u) + intel_sub_group_shuffle_down(v.x, v.y, 1u) +
           intel_sub_group_shuffle_up(v.x, v.y, 1u) + intel_sub_group_shuffle_xor(v.x, 1u) +
           sub_group_broadcast(v.x, 0u) + sub_group_reduce_add(v.x) + sub_group_scan_inclusive_max(v.y) +
           sub_group_scan_exclusive_min(v.z) + (float)sub_group_any(1) + (float)sub_group_all(1) +
           (float)get_sub_group_local_id() + (float)get_sub_group_size() + (float)get_max_sub_group_size() +
           (float)get_num_sub_groups() + (float)get_sub_group_id() +
           as_float(intel_sub_group_block_read((const global uint *)i)) +
           as_float(intel_sub_group_block_read4((const global uint *)i).y) +
           (float)intel_sub_group_block_read_us8((const global ushort *)i).s7;
    intel_sub_group_block_write2((global uint *)i, (uint2)(1, 2));
    intel_sub_group_block_write_us((global ushort *)i, (ushort)3);
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    i[3] = intel_sub_group_shuffle((short)i[1], 2u) + intel_sub_group_shuffle(i[4], 1u) +
           (int)intel_sub_group_shuffle((long)i[2], 3u) + sub_group_reduce_add((short)i[2]);
#if __OPENCL_C_VERSION__ >= 200
    i[4] = work_group_reduce_add(i[1]) + work_group_scan_inclusive_add(i[2]) + work_group_broadcast(i[3], 0) +
           work_group_any(i[1]) + work_group_all(i[2]);
    atomic_fetch_add((volatile global atomic_int *)i, 1);
    atomic_fetch_add_explicit((volatile global atomic_int *)i, 1, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_max((volatile local atomic_int *)li, 1);
    int ex = 0;
    atomic_compare_exchange_strong((volatile global atomic_int *)i, &ex, 1);
    atomic_store((volatile global atomic_int *)i, 1);
    i[5] = atomic_load((volatile global atomic_int *)i) + atomic_exchange((volatile global atomic_int *)i, 4);
    atomic_fetch_add((volatile global atomic_float *)f, 1.0f);
    atomic_fetch_min((volatile global atomic_float *)f, 1.0f);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    generic float *gp = i[0] ? (generic float *)f : (generic float *)lf;
    f[4] = vload4(0, gp).x + fract(v.x, gp) + (float)get_enqueued_local_size(0) + (float)get_global_linear_id() +
           (float)get_local_linear_id();
    uint4 b = sub_group_ballot(1);
    i[6] = sub_group_ballot_bit_count(b) + sub_group_elect() + sub_group_non_uniform_reduce_add(i[1]) +
           sub_group_shuffle(i[2], 1u) + sub_group_shuffle_xor(i[3], 1u) + sub_group_shuffle_up(i[4], 1u) +
           sub_group_clustered_reduce_add(i[5], 4u) + (int)get_sub_group_lt_mask().x;
#endif
    printf("%d %f %s\n", i[0], f[0], "x");
}
