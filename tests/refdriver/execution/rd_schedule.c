/*
 * The work-item scheduler (rd_schedule.h): work-groups in parallel on the
 * driver's pool, each group on one thread (rd_sched_thread.h).
 *
 * A group starts with work-item 0 alone on a fiber ("probing"). If it ends
 * without reaching a barrier or a sub-group collective, the kernel's direct
 * entry runs the others on the thread's stack (rd_workitem.h says why that
 * is enough). Otherwise every work-item gets a fiber: a work-group barrier
 * switches to the next work-item in linear order (the last to the first
 * not ended), a sub-group barrier to the next lane of the same sub-group
 * (the last lane to the first), so that a sub-group runs in lockstep
 * between its collectives and a barrier holds for the whole group. All the
 * fibers of a group run on one thread, so the barrier's local and global
 * fences need nothing more than the call itself.
 */
#include "rd_schedule.h"
#include "rd_sched_thread.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sub-group size of a kernel that requires none. */
#define RD_SCHED_DEFAULT_SG 16u

enum {
    RUN_OK = 0,
    RUN_FAULT = 1,
    RUN_NO_MEMORY = 2
};

/* One launch, shared by the threads that run its groups. */
typedef struct sched_run {
    const rd_sched_launch_t *launch;
    const rd_cm_kernel_t *kernel;
    uint64_t id;
    uint32_t n, sg_size, num_sg, work_dim;
    size_t local_bytes;
    int state; /* atomic: RUN_* */
    /* the first fault, written by the thread that set state to RUN_FAULT */
    rd_fault_scope_t fault;
    uint64_t group_id[3];
    uint32_t local_id[3];
} sched_run_t;

static uint64_t next_launch_id = 1; /* atomic */

static size_t align_local(size_t n)
{
    return (n + RD_LOCAL_ALIGN - 1) & ~(size_t)(RD_LOCAL_ALIGN - 1);
}

/* ---- switching between work-items ---- */

static uint32_t next_alive(const rd_sched_thread_t *t, uint32_t i)
{
    uint32_t j = i;
    do
        j = j + 1 == t->n ? 0 : j + 1;
    while (t->done[j] && j != i);
    return j;
}

/* Leaves work-item `from` (the one running) for `to`. */
static void resume(rd_sched_thread_t *t, uint32_t from, uint32_t to)
{
    t->ids[from].xchg_parity = t->st.xchg_parity;
    if (to == from)
        return;
    memcpy(&t->st, &t->ids[to], sizeof t->ids[to]);
    t->cur = to;
    rd_fiber_jump(&t->fibers[from]->fiber, &t->fibers[to]->fiber);
}

static void fiber_main(void *arg);

/* The running fiber leaves the group for good (a fault, no memory): back
 * to the thread's own stack, which sees t->left. */
static void leave_group(rd_sched_thread_t *t, int why)
{
    t->left = why;
    rd_fiber_jump(&t->fibers[t->cur]->fiber, &t->main);
    abort(); /* never resumed: the fibers are prepared again first */
}

/* The fault handler's way out of a fiber (rd_fault.h). */
static void *fault_stack(void *arg)
{
    rd_sched_thread_t *t = arg;
    if (!t->in_fiber)
        return NULL; /* direct mode, on the thread's stack: siglongjmp */
    const rd_fiber_t *f = &t->fibers[t->cur]->fiber;
    return (char *)f->stack + f->stack_size;
}

static void fault_exit(void *arg)
{
    leave_group(arg, RD_SCHED_LEFT_FAULT);
}

/* Work-item 0 reached a barrier: the group needs every fiber. */
static void stop_probing(rd_sched_thread_t *t)
{
    t->probing = 0;
    if (rd_sched_thread_fibers(t, t->n, fiber_main) != 0) {
        rd_fault_leave();
        leave_group(t, RD_SCHED_LEFT_NO_MEMORY);
    }
}

static void wg_barrier(rd_wi_state_t *st, rd_u32 flags)
{
    (void)flags; /* one thread runs the group: every fence holds */
    rd_sched_thread_t *t = (rd_sched_thread_t *)(uintptr_t)st->sched;
    if (t->direct)
        return; /* not every work-item reaches it: undefined, kept harmless */
    if (t->probing)
        stop_probing(t);
    uint32_t i = t->cur;
    uint32_t next = i + 1 == t->n ? 0 : i + 1;
    if (t->done[next])
        next = next_alive(t, i);
    resume(t, i, next);
}

static void sg_barrier(rd_wi_state_t *st)
{
    rd_sched_thread_t *t = (rd_sched_thread_t *)(uintptr_t)st->sched;
    if (t->direct)
        return;
    if (t->probing)
        stop_probing(t);
    uint32_t i = t->cur;
    uint32_t lane = st->sg_local_id;
    uint32_t next = lane + 1 == st->sg_size ? i - lane : i + 1;
    if (t->done[next])
        next = next_alive(t, i);
    resume(t, i, next);
}

/* Runs a work-item each time it is resumed, for as long as the thread
 * lives: the fiber of work-item i runs work-item i of every group. */
static void fiber_main(void *arg)
{
    rd_sched_fiber_t *f = arg;
    rd_sched_thread_t *t = f->thread;
    rd_fiber_started();
    for (;;) {
        t->kernel->item(t->args, &t->st);
        uint32_t i = f->index;
        t->done[i] = 1;
        if (--t->alive == 0 || t->probing) {
            t->ids[i].xchg_parity = t->st.xchg_parity;
            rd_fiber_jump(&f->fiber, &t->main);
        } else {
            resume(t, i, next_alive(t, i));
        }
    }
}

/* ---- one group ---- */

/* The launch's fields of the state, the arguments with their local
 * buffers: once per launch on each thread. */
static int enter_launch(rd_sched_thread_t *t, const sched_run_t *run)
{
    const rd_sched_launch_t *l = run->launch;
    const rd_cm_kernel_t *k = run->kernel;
    if (rd_sched_thread_reserve(t, run->local_bytes, run->num_sg, k->num_args) != 0)
        return -1;
    rd_wi_state_t *st = &t->st;
    for (int d = 0; d < 3; d++) {
        st->global_offset[d] = l->global_offset[d];
        st->global_size[d] = (uint64_t)l->group_count[d] * l->group_size[d];
        st->local_size[d] = l->group_size[d];
        st->num_groups[d] = l->group_count[d];
    }
    st->work_dim = run->work_dim;
    st->max_sg_size = run->sg_size;
    st->num_sub_groups = run->num_sg;
    st->local_linear_size = run->n;
    st->wg_barrier = (rd_u64)(uintptr_t)wg_barrier;
    st->sg_barrier = (rd_u64)(uintptr_t)sg_barrier;
    st->local_base = (rd_u64)(uintptr_t)t->local;
    st->sg_xchg_base = (rd_u64)(uintptr_t)t->sg_area;
    size_t at = align_local(k->local_bytes);
    for (uint32_t i = 0; i < k->num_args; i++) {
        if (k->args[i].kind == RD_CM_ARG_LOCAL) {
            t->local_ptrs[i] = t->local + at;
            t->arg_ptrs[i] = &t->local_ptrs[i];
            at += align_local(l->local_sizes ? l->local_sizes[i] : 0);
        } else {
            t->arg_ptrs[i] = l->args[i];
        }
    }
    rd_sched_thread_layout(t);
    t->kernel = k;
    t->args = t->arg_ptrs;
    t->n = run->n;
    t->launch_id = run->id;
    return 0;
}

/* Runs the group's work-items: 0, or RD_SCHED_LEFT_* when a fiber left it. */
static int run_items(rd_sched_thread_t *t)
{
    const rd_cm_kernel_t *k = t->kernel;
    t->probing = k->direct != NULL;
    t->alive = t->n;
    t->left = 0;
    memset(t->done, 0, t->n);
    t->cur = 0;
    memcpy(&t->st, &t->ids[0], sizeof t->ids[0]);
    t->in_fiber = 1;
    rd_fiber_jump(&t->main, &t->fibers[0]->fiber);
    t->in_fiber = 0;
    if (t->left)
        return t->left;
    if (t->probing && t->n > 1) {
        t->direct = 1;
        k->direct(t->args, &t->st, 1, t->n - 1);
        t->direct = 0;
    }
    t->probing = 0;
    return 0;
}

/* The group was left before its end: RD_SCHED_LEFT_*. */
static void left_group(rd_sched_thread_t *t, sched_run_t *run, int why)
{
    t->in_fiber = 0;
    t->direct = 0;
    t->probing = 0;
    t->dirty = 1;
    t->ids_key[4] = 0; /* parities were left mid-way */
    int expected = RUN_OK;
    int state = why == RD_SCHED_LEFT_NO_MEMORY ? RUN_NO_MEMORY : RUN_FAULT;
    if (!__atomic_compare_exchange_n(&run->state, &expected, state, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        return;
    run->fault = t->fault;
    memcpy(run->group_id, t->st.group_id, sizeof run->group_id);
    memcpy(run->local_id, t->st.local_id, sizeof run->local_id);
}

static void fail(sched_run_t *run, int state)
{
    int expected = RUN_OK;
    __atomic_compare_exchange_n(&run->state, &expected, state, 0, __ATOMIC_ACQ_REL,
                                __ATOMIC_ACQUIRE);
}

static void run_group(void *arg, uint64_t index)
{
    sched_run_t *run = arg;
    if (__atomic_load_n(&run->state, __ATOMIC_RELAXED) != RUN_OK)
        return; /* the launch failed: its other groups do not run */
    rd_sched_thread_t *t = rd_sched_thread_get();
    if (!t || (t->launch_id != run->id && enter_launch(t, run) != 0) ||
        rd_sched_thread_fibers(t, t->kernel->direct ? 1 : t->n, fiber_main) != 0) {
        fail(run, RUN_NO_MEMORY);
        return;
    }
    const uint32_t *count = run->launch->group_count;
    t->st.group_id[0] = index % count[0];
    t->st.group_id[1] = index / count[0] % count[1];
    t->st.group_id[2] = index / ((uint64_t)count[0] * count[1]);
    t->fault.resume_stack = fault_stack;
    t->fault.resume = fault_exit;
    t->fault.ctx = t;
    if (sigsetjmp(t->fault.jmp, 0)) {
        left_group(t, run, RD_SCHED_LEFT_FAULT); /* direct mode faulted */
        return;
    }
    rd_fault_enter(&t->fault);
    int left = run_items(t);
    rd_fault_leave();
    if (left)
        left_group(t, run, left);
}

/* ---- the launch ---- */

static void report_fault(const sched_run_t *run)
{
    char what[160], item[64];
    rd_fault_describe(&run->fault, what, sizeof what);
    if (run->local_id[0] == RD_WI_ID_UNKNOWN)
        snprintf(item, sizeof item, "one of work-items 1.. (the 1-D direct loop)");
    else
        snprintf(item, sizeof item, "work-item (%u, %u, %u)", run->local_id[0], run->local_id[1],
                 run->local_id[2]);
    fprintf(stderr,
            "zeil cpu driver: kernel '%s' faulted in work-group (%" PRIu64 ", %" PRIu64 ", %" PRIu64
            "), %s: %s; "
            "the device is lost\n",
            run->kernel->name ? run->kernel->name : "?", run->group_id[0], run->group_id[1],
            run->group_id[2], item, what);
}

static ze_result_t plan(const rd_sched_launch_t *l, sched_run_t *run)
{
    const rd_cm_kernel_t *k = l->kernel;
    if (!k || !k->item || (k->num_args && (!k->args || !l->args)))
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    uint64_t n = (uint64_t)l->group_size[0] * l->group_size[1] * l->group_size[2];
    if (n == 0 || n > RD_SCHED_MAX_ITEMS)
        return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
    uint32_t sg = k->reqd_sg_size ? k->reqd_sg_size : RD_SCHED_DEFAULT_SG;
    if (sg > RD_SG_MAX)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    memset(run, 0, sizeof *run);
    run->launch = l;
    run->kernel = k;
    run->n = (uint32_t)n;
    run->sg_size = sg;
    run->num_sg = (run->n + sg - 1) / sg;
    run->work_dim = l->group_count[2] * l->group_size[2] > 1   ? 3
                    : l->group_count[1] * l->group_size[1] > 1 ? 2
                                                               : 1;
    size_t local = align_local(k->local_bytes);
    for (uint32_t i = 0; i < k->num_args; i++) {
        if (k->args[i].kind == RD_CM_ARG_OTHER)
            return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
        if (k->args[i].kind == RD_CM_ARG_LOCAL)
            local += align_local(l->local_sizes ? l->local_sizes[i] : 0);
    }
    run->local_bytes = local;
    run->id = __atomic_fetch_add(&next_launch_id, 1, __ATOMIC_RELAXED);
    return ZE_RESULT_SUCCESS;
}

ze_result_t rd_sched_run(rd_threadpool_t *pool, const rd_sched_launch_t *launch)
{
    sched_run_t run;
    ze_result_t r = plan(launch, &run);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    uint64_t groups;
    const uint32_t *c = launch->group_count;
    if (__builtin_mul_overflow((uint64_t)c[0] * c[1], (uint64_t)c[2], &groups))
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    if (groups == 0)
        return ZE_RESULT_SUCCESS;
    rd_fault_prepare(); /* without it faults are not caught; the launch still runs */
    rd_threadpool_run(pool, groups, run_group, &run);
    switch (__atomic_load_n(&run.state, __ATOMIC_ACQUIRE)) {
    case RUN_FAULT:
        report_fault(&run);
        return ZE_RESULT_ERROR_DEVICE_LOST;
    case RUN_NO_MEMORY:
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    default:
        return ZE_RESULT_SUCCESS;
    }
}
