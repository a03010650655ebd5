/* k_subgroup.cl: sub-group and work-group collectives, written out per work-item. */
#define N 24
#ifdef ZT_SGS /* through the driver: the sub-group size asked for */
__attribute__((intel_reqd_sub_group_size(ZT_SGS)))
#endif
kernel void zt_subgroup(global int *o, global uint *blk, global float *fo)
{
    uint g = get_global_id(0), l = get_sub_group_local_id();
    global int *p = o + g * N;
    int x = (int)(g * 7 % 13) - 6;
    p[0] = sub_group_broadcast(x, 3);
    p[1] = sub_group_reduce_add(x);
    p[2] = sub_group_reduce_min(x);
    p[3] = sub_group_reduce_max(x);
    p[4] = sub_group_scan_inclusive_add(x);
    p[5] = sub_group_scan_exclusive_add(x);
    p[6] = intel_sub_group_shuffle(x, (l + 5) % get_sub_group_size());
    p[7] = intel_sub_group_shuffle_xor(x, 1);
    p[8] = intel_sub_group_shuffle_down(x, x + 100, 3);
    p[9] = intel_sub_group_shuffle_up(x - 100, x, 2);
    p[10] = sub_group_any(x == 5);
    p[11] = sub_group_all(x > -7);
    p[12] = work_group_reduce_add(x);
    p[13] = work_group_scan_inclusive_add(x);
    p[14] = work_group_scan_exclusive_max(x);
    p[15] = work_group_broadcast(x, 2);
    p[16] = (int)sub_group_ballot(x > 0).x;
    float4 f = (float4)(x, x * 2, x * 3, x * 4);
    float4 fs = intel_sub_group_shuffle(f, 1);
    p[17] = (int)(fs.x + fs.y + fs.z + fs.w);
    p[18] = (int)sub_group_reduce_add((float)x);
    p[19] = sub_group_scan_inclusive_max((short)x);
    p[20] = intel_sub_group_shuffle((uchar)(x + 6), 2);
    p[21] = (int)intel_sub_group_shuffle_down((long)x, (long)x, 1);
    /* block read and write: the group's sub-group at blk + base */
    uint base = (g - l) * 4;
    uint4 b = intel_sub_group_block_read4(blk + base);
    p[22] = (int)(b.x + b.y * 3 + b.z * 5 + b.w * 7);
    intel_sub_group_block_write2((global uint *)(fo) + base * 2, (uint2)(b.x + 1, b.w + 1));
    p[23] = 1;
}
