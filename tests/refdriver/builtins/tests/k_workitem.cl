/* k_workitem.cl: every work-item function, written out per work-item. */
#define N 20
kernel void zt_workitem(global ulong *o)
{
    global ulong *p = o + get_global_linear_id() * N;
    for (uint d = 0; d < 3; d++) {
        p[0 + d] = get_global_id(d);
        p[3 + d] = get_local_id(d);
        p[6 + d] = get_group_id(d);
        p[9 + d] = get_global_size(d) * 1000 + get_local_size(d) * 100 + get_num_groups(d) * 10 + get_global_offset(d);
    }
    p[12] = get_work_dim();
    p[13] = get_local_linear_id();
    p[14] = get_sub_group_id() * 1000 + get_sub_group_local_id();
    p[15] = get_sub_group_size() * 1000 + get_max_sub_group_size();
    p[16] = get_num_sub_groups() * 1000 + get_enqueued_num_sub_groups();
    p[17] = get_enqueued_local_size(0) + get_global_id(3) + get_local_size(7) * 100;
    p[18] = 1;
}
