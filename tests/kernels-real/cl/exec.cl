/* exec.cl (core cl_khr_subgroups only: the SPIR-V needs no extension): the
 * work-item scheduler's promises, on real kernels: barriers
 * over many groups, sub-groups in lockstep at 8, 16 and 32, the direct path
 * for kernels without barriers, and a kernel that faults. */

/* Each work-item writes, meets the others at a barrier, reads its
 * neighbour's value: rounds times. */
__kernel void neighbour(__global int *out, __local int *tmp, int rounds)
{
    uint lid = (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) + get_local_id(0);
    uint n = get_local_size(0) * get_local_size(1) * get_local_size(2);
    uint gsx = get_global_size(0), gsy = get_global_size(1);
    uint g = (get_global_id(2) * gsy + get_global_id(1)) * gsx + get_global_id(0);
    int acc = 0;
    for (int r = 0; r < rounds; r++) {
        tmp[lid] = (int)g * 7 + r;
        barrier(CLK_LOCAL_MEM_FENCE);
        acc += tmp[(lid + 1) % n];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[g] = acc;
}

#define SG_KERNEL(N)                                                                               \
    __kernel __attribute__((intel_reqd_sub_group_size(N))) void sg_rotate##N(__global int *out, int rounds) \
    {                                                                                              \
        uint g = get_global_id(0), l = get_sub_group_local_id(), size = get_sub_group_size();      \
        int v = (int)g, ok = 1;                                                                    \
        for (int r = 0; r < rounds; r++) {                                                         \
            int got = sub_group_broadcast(v + r, (uint)r % size);                                  \
            ok &= got == (int)(g - l + (uint)r % size) + r;                                        \
            ok &= sub_group_scan_inclusive_add(1) == (int)l + 1;                                   \
            ok &= sub_group_reduce_add(1) == (int)size;                                            \
        }                                                                                          \
        out[g] = ok ? (int)size : -1;                                                              \
    }
SG_KERNEL(8)
SG_KERNEL(16)
SG_KERNEL(32)

/* No barrier: the direct path after work-item 0. */
__kernel void ids(__global uint *out)
{
    uint g = get_global_id(0) + get_global_id(1) * get_global_size(0);
    out[2 * g] = get_local_id(0) | get_local_id(1) << 8;
    out[2 * g + 1] = get_sub_group_id() | get_sub_group_local_id() << 8 |
                     (get_local_id(1) * get_local_size(0) + get_local_id(0)) << 16;
}

/* Work-item bad_gid stores through bad (set to null by the test). */
__kernel void fault(__global int *out, __global int *bad, ulong bad_gid)
{
    size_t g = get_global_id(0);
    __global int *p = g == bad_gid ? bad : out + g;
    *p = 1;
}

/* A barrier in the odd groups only (legal: every work-item of a group
 * reaches it or none). */
__kernel void some_groups(__global int *out, __local int *tmp)
{
    uint lid = get_local_id(0), n = get_local_size(0);
    if (get_group_id(0) % 2) {
        tmp[lid] = (int)lid;
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = tmp[(lid + 1) % n];
    } else {
        out[get_global_id(0)] = -(int)lid;
    }
}
