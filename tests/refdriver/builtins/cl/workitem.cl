/*
 * workitem.cl: OpenCL C's work-item functions, read from the calling
 * work-item's state (rd_workitem.h), and the barriers and fences.
 * Out-of-range dimensions answer what the specification says (0 or 1).
 */
#include "zcl_rt.h"

ZCL_OVL uint get_work_dim(void) { return ZCL_ST->work_dim; }

ZCL_OVL size_t get_global_size(uint d) { return d < 3 ? ZCL_ST->global_size[d] : 1; }
ZCL_OVL size_t get_local_size(uint d) { return d < 3 ? ZCL_ST->local_size[d] : 1; }
ZCL_OVL size_t get_enqueued_local_size(uint d) { return d < 3 ? ZCL_ST->local_size[d] : 1; }
ZCL_OVL size_t get_num_groups(uint d) { return d < 3 ? ZCL_ST->num_groups[d] : 1; }
ZCL_OVL size_t get_group_id(uint d) { return d < 3 ? ZCL_ST->group_id[d] : 0; }
ZCL_OVL size_t get_local_id(uint d) { return d < 3 ? ZCL_ST->local_id[d] : 0; }
ZCL_OVL size_t get_global_offset(uint d) { return d < 3 ? ZCL_ST->global_offset[d] : 0; }

ZCL_OVL size_t get_global_id(uint d)
{
    __global rd_wi_state_t *st = ZCL_ST;
    if (d >= 3)
        return 0;
    return st->group_id[d] * st->local_size[d] + st->local_id[d] + st->global_offset[d];
}

ZCL_OVL size_t get_local_linear_id(void) { return ZCL_ST->local_linear_id; }

ZCL_OVL size_t get_global_linear_id(void)
{
    __global rd_wi_state_t *st = ZCL_ST;
    size_t l = 0;
    for (int d = 2; d >= 0; d--) {
        size_t id = st->group_id[d] * st->local_size[d] + st->local_id[d];
        l = l * st->global_size[d] + id;
    }
    return l;
}

/* Sub-groups (cl_khr_subgroups, cl_intel_subgroups). */
ZCL_OVL uint get_sub_group_size(void) { return ZCL_ST->sg_size; }
ZCL_OVL uint get_max_sub_group_size(void) { return ZCL_ST->max_sg_size; }
ZCL_OVL uint get_num_sub_groups(void) { return ZCL_ST->num_sub_groups; }
ZCL_OVL uint get_enqueued_num_sub_groups(void) { return ZCL_ST->num_sub_groups; }
ZCL_OVL uint get_sub_group_id(void) { return ZCL_ST->sg_id; }
ZCL_OVL uint get_sub_group_local_id(void) { return ZCL_ST->sg_local_id; }

/* Barriers: the scheduler switches work-items; its switch orders memory. */
ZCL_OVL void barrier(cl_mem_fence_flags flags) { __zeil_wg_barrier(flags); }
ZCL_OVL void work_group_barrier(cl_mem_fence_flags flags) { __zeil_wg_barrier(flags); }
ZCL_OVL void work_group_barrier(cl_mem_fence_flags flags, memory_scope scope) { (void)scope; __zeil_wg_barrier(flags); }
ZCL_OVL void sub_group_barrier(cl_mem_fence_flags flags) { (void)flags; __zeil_sg_barrier(); }
ZCL_OVL void sub_group_barrier(cl_mem_fence_flags flags, memory_scope scope) { (void)flags; (void)scope; __zeil_sg_barrier(); }

/* Fences: one host thread runs a group's work-items, so a compiler fence
 * orders them; other groups need a real fence. */
ZCL_OVL void mem_fence(cl_mem_fence_flags flags) { (void)flags; __c11_atomic_thread_fence(__ATOMIC_SEQ_CST); }
ZCL_OVL void read_mem_fence(cl_mem_fence_flags flags) { (void)flags; __c11_atomic_thread_fence(__ATOMIC_ACQUIRE); }
ZCL_OVL void write_mem_fence(cl_mem_fence_flags flags) { (void)flags; __c11_atomic_thread_fence(__ATOMIC_RELEASE); }
ZCL_OVL void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order, memory_scope scope)
{
    (void)flags; (void)scope;
    if (order != memory_order_relaxed)
        __c11_atomic_thread_fence(__ATOMIC_SEQ_CST);
}
