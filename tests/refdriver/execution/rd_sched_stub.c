/*
 * A stand-in for the work-item scheduler (rd_schedule.h) until the real one
 * lands: each work-group runs its work-items one after the other through the
 * kernel's direct entry, so kernels that reach no barrier and no sub-group
 * collective run correctly; barriers do nothing. Faults are not caught.
 */
#include "rd_schedule.h"

#include <stdlib.h>
#include <string.h>

#define RD_STUB_SG_SIZE 16u

typedef struct stub_run {
    const rd_sched_launch_t *l;
} stub_run_t;

static void run_group(void *ctx, uint64_t index)
{
    const rd_sched_launch_t *l = ((const stub_run_t *)ctx)->l;
    const rd_cm_kernel_t *k = l->kernel;
    rd_wi_state_t st;
    memset(&st, 0, sizeof st);
    const uint32_t *count = l->group_count;
    st.group_id[0] = index % count[0];
    st.group_id[1] = index / count[0] % count[1];
    st.group_id[2] = index / ((uint64_t)count[0] * count[1]);
    st.work_dim = 1;
    for (int d = 0; d < 3; d++) {
        st.local_size[d] = l->group_size[d];
        st.num_groups[d] = count[d];
        st.global_size[d] = (uint64_t)count[d] * l->group_size[d];
        st.global_offset[d] = l->global_offset[d];
        if (st.global_size[d] > 1)
            st.work_dim = (uint32_t)d + 1;
    }
    st.local_linear_size = l->group_size[0] * l->group_size[1] * l->group_size[2];
    st.max_sg_size = k->reqd_sg_size ? k->reqd_sg_size : RD_STUB_SG_SIZE;
    st.num_sub_groups = (st.local_linear_size + st.max_sg_size - 1) / st.max_sg_size;
    uint32_t n = k->num_args;
    const void **args = calloc(n ? n : 1, sizeof *args);
    void **bufs = calloc(n ? n : 1, sizeof *bufs);
    for (uint32_t i = 0; args && bufs && i < n; i++) {
        if (l->local_sizes && k->args[i].kind == RD_CM_ARG_LOCAL) {
            bufs[i] = aligned_alloc(64, (l->local_sizes[i] + 63u) & ~63u);
            args[i] = &bufs[i];
        } else {
            args[i] = l->args[i];
        }
    }
    if (args && bufs)
        k->direct(args, &st, 0, st.local_linear_size);
    for (uint32_t i = 0; bufs && i < n; i++)
        free(bufs[i]);
    free(bufs);
    free(args);
}

ze_result_t rd_sched_run(rd_threadpool_t *pool, const rd_sched_launch_t *launch)
{
    uint64_t total = (uint64_t)launch->group_count[0] * launch->group_count[1] * launch->group_count[2];
    stub_run_t run = {launch};
    rd_threadpool_run(pool, total, run_group, &run);
    return ZE_RESULT_SUCCESS;
}
