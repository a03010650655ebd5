/* k_atomic.cl: atomics of every family under contention from many work-items. */
kernel void zt_atomic(global int *c, global long *cl, global float *cf, global uint *cu, global int *winners,
                      local int *lcp)
{
    int g = (int)get_global_id(0);
    if (get_local_id(0) == 0)
        *lcp = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&c[0], 1);
    atomic_inc(&c[1]);
    atomic_sub(&c[2], 2);
    atomic_max(&c[3], g);
    atomic_min(&c[4], -g);
    atomic_or(&cu[0], 1u << (g % 32));
    atomic_xor(&cu[1], (uint)g);
    atom_add(&cl[0], (long)g << 33);
    atomic_fetch_add((volatile global atomic_int *)&c[5], 3);
    atomic_fetch_add_explicit((volatile global atomic_long *)&cl[1], 5, memory_order_relaxed, memory_scope_device);
    atomic_fetch_add((volatile global atomic_float *)&cf[0], 1.0f);
    atomic_fetch_max((volatile global atomic_float *)&cf[1], (float)g * 0.5f);
    /* an increment by compare-exchange, both families */
    int old = c[6], seen;
    while ((seen = atomic_cmpxchg(&c[6], old, old + 1)) != old)
        old = seen;
    int e = atomic_load((volatile global atomic_int *)&c[7]);
    while (!atomic_compare_exchange_weak((volatile global atomic_int *)&c[7], &e, e + 2))
        ;
    /* one winner per flag */
    if (!atomic_flag_test_and_set((volatile global atomic_flag *)&c[8]))
        winners[0] = g + 1;
    atomic_xchg(&c[9], 7);
    atomic_add(lcp, 1);
    atom_inc(lcp);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        atomic_add(&c[10], *lcp);
    atomic_store((volatile global atomic_int *)&c[11], 42);
}
