/* local.cl: work-groups sharing local memory across barriers. */
__kernel void reduce_sum(__global const int *in, __global int *out, __local int *scratch)
{
    uint lid = get_local_id(0), n = get_local_size(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = n / 2; s > 0; s /= 2) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0];
}

#define TILE 16
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1))) void transpose(__global const float *in,
                                                                              __global float *out, uint w, uint h)
{
    __local float tile[TILE][TILE + 1];
    uint x = get_global_id(0), y = get_global_id(1);
    tile[get_local_id(1)][get_local_id(0)] = in[y * w + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint tx = get_group_id(1) * TILE + get_local_id(0), ty = get_group_id(0) * TILE + get_local_id(1);
    out[ty * h + tx] = tile[get_local_id(0)][get_local_id(1)];
}
