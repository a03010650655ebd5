/* subgroup.cl: sub-groups of 8, 16 and 32 work-items (intel_reqd_sub_group_size)
 * and atomics under contention. */
#define SG_KERNEL(N)                                                                              \
    __kernel __attribute__((intel_reqd_sub_group_size(N))) void sg_##N(__global const int *in,   \
                                                                        __global int *out)       \
    {                                                                                             \
        size_t i = get_global_id(0);                                                              \
        int x = in[i];                                                                            \
        out[4 * i] = (int)(get_sub_group_size() * 10000 + get_sub_group_id() * 100 +              \
                           get_sub_group_local_id());                                             \
        out[4 * i + 1] = sub_group_reduce_add(x);                                                 \
        out[4 * i + 2] = intel_sub_group_shuffle_down(x, x, 1);                                   \
        out[4 * i + 3] = sub_group_broadcast(x, 3);                                               \
    }
SG_KERNEL(8)
SG_KERNEL(16)
SG_KERNEL(32)

__kernel void count_atomics(__global int *counter, __global int *maximum, __global const int *in)
{
    size_t i = get_global_id(0);
    atomic_inc(counter);
    atomic_add(counter + 1, in[i]);
    atomic_max(maximum, in[i]);
}
