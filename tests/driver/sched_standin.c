/*
 * A stand-in for a compiled module (sched_standin.h): what the compiler
 * will generate from OpenCL C, written by hand. Each kernel has an item
 * entry (one work-item) and some a direct entry (a run of work-items on the
 * caller's stack). Barriers and sub-group exchanges go through the state's
 * wg_barrier / sg_barrier and sg_xchg as the kernel runtime's do.
 */
#include "sched_standin.h"

#include <stddef.h>
#include <stdint.h>

unsigned long sched_standin_item_calls;
unsigned long sched_standin_direct_calls;

#define ARG(type, i) (*(type const *)args[i])
#define LOCAL_ARG(type, i) ((type) * (void *const *)args[i])

static void barrier(rd_wi_state_t *st)
{
    ((void (*)(rd_wi_state_t *, rd_u32))(uintptr_t)st->wg_barrier)(st, RD_FENCE_LOCAL |
                                                                           RD_FENCE_GLOBAL);
}

/* A sub-group shuffle: lane l gets the value of lane (l + shift) % size. */
static int sg_shuffle_rot(rd_wi_state_t *st, int value, rd_u32 shift)
{
    int *slots = (int *)(uintptr_t)st->sg_xchg;
    rd_u32 half = st->xchg_parity * RD_SG_MAX * RD_XCHG_SLOT_BYTES / sizeof(int);
    rd_u32 stride = RD_XCHG_SLOT_BYTES / sizeof(int);
    slots[half + st->sg_local_id * stride] = value;
    ((void (*)(rd_wi_state_t *))(uintptr_t)st->sg_barrier)(st);
    int got = slots[half + ((st->sg_local_id + shift) % st->sg_size) * stride];
    st->xchg_parity ^= 1u;
    return got;
}

static uint64_t global_id(const rd_wi_state_t *st, int d)
{
    return st->group_id[d] * st->local_size[d] + st->local_id[d] + st->global_offset[d];
}

static uint64_t global_linear(const rd_wi_state_t *st)
{
    return (global_id(st, 2) * st->global_size[1] + global_id(st, 1)) * st->global_size[0] +
           global_id(st, 0);
}

static void count_item(void)
{
    __atomic_fetch_add(&sched_standin_item_calls, 1, __ATOMIC_RELAXED);
}

static void neighbour(const void *const *args, rd_wi_state_t *st)
{
    count_item();
    int *out = ARG(int *, 0);
    int *tmp = LOCAL_ARG(int *, 1);
    int rounds = ARG(int, 2);
    rd_u32 lid = st->local_linear_id, n = st->local_linear_size;
    int acc = 0;
    for (int r = 0; r < rounds; r++) {
        tmp[lid] = (int)(global_linear(st) * 7 + (uint64_t)r);
        barrier(st);
        acc += tmp[(lid + 1) % n];
        barrier(st);
    }
    out[global_linear(st)] = acc;
}

static void neighbour_direct(const void *const *args, rd_wi_state_t *st, rd_u32 first, rd_u32 count)
{
    __atomic_fetch_add(&sched_standin_direct_calls, 1, __ATOMIC_RELAXED);
    rd_wi_seek(st, first);
    for (rd_u32 i = 0; i < count; i++, rd_wi_step(st))
        neighbour(args, st);
}

static void reduce(const void *const *args, rd_wi_state_t *st)
{
    count_item();
    const int *in = ARG(int *, 0);
    int *out = ARG(int *, 1);
    int *l = (int *)(uintptr_t)st->local_base;
    rd_u32 lid = st->local_linear_id, n = st->local_linear_size;
    l[lid] = in[global_linear(st)];
    barrier(st);
    for (rd_u32 s = n / 2; s > 0; s >>= 1) {
        if (lid < s)
            l[lid] += l[lid + s];
        barrier(st);
    }
    if (lid == 0)
        out[st->group_id[0]] = l[0];
}

static void sg_shift(const void *const *args, rd_wi_state_t *st)
{
    count_item();
    int *out = ARG(int *, 0);
    int rounds = ARG(int, 1);
    int v = (int)global_linear(st);
    int check = 1;
    for (int r = 0; r < rounds; r++) {
        int got = sg_shuffle_rot(st, v + r, 1);
        /* the next lane's value, given in the same round */
        rd_u32 next = (st->sg_local_id + 1) % st->sg_size;
        int expect = (int)(global_linear(st) - st->sg_local_id + next) + r;
        check &= got == expect;
    }
    out[global_linear(st)] = check ? (int)st->sg_size : -1;
}

static void ids(const void *const *args, rd_wi_state_t *st)
{
    count_item();
    uint32_t *out = ARG(uint32_t *, 0);
    uint64_t g = global_linear(st);
    out[2 * g] = st->local_id[0] | st->local_id[1] << 8 | st->local_id[2] << 16;
    out[2 * g + 1] =
        st->sg_id | st->sg_local_id << 8 | st->sg_size << 16 | st->local_linear_id << 22;
}

static void ids_direct(const void *const *args, rd_wi_state_t *st, rd_u32 first, rd_u32 count)
{
    __atomic_fetch_add(&sched_standin_direct_calls, 1, __ATOMIC_RELAXED);
    rd_wi_seek(st, first);
    for (rd_u32 i = 0; i < count; i++, rd_wi_step(st))
        ids(args, st);
}

static void some_groups(const void *const *args, rd_wi_state_t *st)
{
    count_item();
    int *out = ARG(int *, 0);
    int *tmp = LOCAL_ARG(int *, 1);
    rd_u32 lid = st->local_linear_id, n = st->local_linear_size;
    if (st->group_id[0] % 2) {
        tmp[lid] = (int)lid;
        barrier(st);
        out[global_linear(st)] = tmp[(lid + 1) % n];
    } else {
        out[global_linear(st)] = -(int)lid;
    }
}

static void some_groups_direct(const void *const *args, rd_wi_state_t *st, rd_u32 first,
                               rd_u32 count)
{
    __atomic_fetch_add(&sched_standin_direct_calls, 1, __ATOMIC_RELAXED);
    rd_wi_seek(st, first);
    for (rd_u32 i = 0; i < count; i++, rd_wi_step(st))
        some_groups(args, st);
}

/* Not checked by UBSan: the null store is the point. */
__attribute__((no_sanitize("undefined"))) static void fault(const void *const *args,
                                                            rd_wi_state_t *st)
{
    int *out = ARG(int *, 0);
    uint64_t bad = ARG(uint64_t, 1);
    uint64_t g = global_linear(st);
    int *volatile p = g == bad ? NULL : &out[g];
    *p = 1;
}

static void fault_direct(const void *const *args, rd_wi_state_t *st, rd_u32 first, rd_u32 count)
{
    rd_wi_seek(st, first);
    for (rd_u32 i = 0; i < count; i++, rd_wi_step(st))
        fault(args, st);
}

static void scale_item(const void *const *args, rd_wi_state_t *st)
{
    const float *in = ARG(float *, 0);
    float *out = ARG(float *, 1);
    float f = ARG(float, 2);
    uint64_t g = global_id(st, 0);
    out[g] = in[g] * f;
}

/* What a compiler makes of a 1D elementwise kernel: the loop over the run
 * with the global id as its induction variable. */
static void scale_direct(const void *const *args, rd_wi_state_t *st, rd_u32 first, rd_u32 count)
{
    const float *in = ARG(float *, 0);
    float *out = ARG(float *, 1);
    float f = ARG(float, 2);
    if (st->work_dim != 1) {
        rd_wi_seek(st, first);
        for (rd_u32 i = 0; i < count; i++, rd_wi_step(st))
            scale_item(args, st);
        return;
    }
    uint64_t base = st->group_id[0] * st->local_size[0] + st->global_offset[0] + first;
    for (rd_u32 i = 0; i < count; i++)
        out[base + i] = in[base + i] * f;
}

static void barrier1(const void *const *args, rd_wi_state_t *st)
{
    float *out = ARG(float *, 0);
    uint64_t g = global_id(st, 0);
    out[g] = 1.0f;
    barrier(st);
    out[g] += 1.0f;
}

static void iota(const void *const *args, rd_wi_state_t *st)
{
    uint32_t *out = ARG(uint32_t *, 0);
    uint64_t g = global_id(st, 0);
    out[g] = (uint32_t)g;
}

/* The generic direct loop: per-work-item fields stepped, the item's body
 * inlined. */
static void iota_direct(const void *const *args, rd_wi_state_t *st, rd_u32 first, rd_u32 count)
{
    rd_wi_seek(st, first);
    for (rd_u32 i = 0; i < count; i++, rd_wi_step(st))
        iota(args, st);
}

/* Recurses depth times with a page of stack each; never inlined. */
__attribute__((noinline)) static int deep(volatile char *prev, uint64_t depth)
{
    volatile char page[4096];
    page[0] = prev ? prev[0] + 1 : 0;
    page[4095] = page[0];
    return depth ? deep(page, depth - 1) + page[4095] : page[0];
}

static void overflow(const void *const *args, rd_wi_state_t *st)
{
    int *out = ARG(int *, 0);
    uint64_t g = global_linear(st);
    out[g] = g == st->local_size[0] ? deep(NULL, UINT64_MAX / 2) : 1;
}

static const rd_cm_arg_t neighbour_args[] = {
    {RD_CM_ARG_GLOBAL, 8}, {RD_CM_ARG_LOCAL, 0}, {RD_CM_ARG_VALUE, 4}};
static const rd_cm_arg_t reduce_args[] = {{RD_CM_ARG_GLOBAL, 8}, {RD_CM_ARG_GLOBAL, 8}};
static const rd_cm_arg_t sg_args[] = {{RD_CM_ARG_GLOBAL, 8}, {RD_CM_ARG_VALUE, 4}};
static const rd_cm_arg_t ids_args[] = {{RD_CM_ARG_GLOBAL, 8}};
static const rd_cm_arg_t some_args[] = {{RD_CM_ARG_GLOBAL, 8}, {RD_CM_ARG_LOCAL, 0}};
static const rd_cm_arg_t fault_args[] = {{RD_CM_ARG_GLOBAL, 8}, {RD_CM_ARG_VALUE, 8}};
static const rd_cm_arg_t scale_args[] = {
    {RD_CM_ARG_GLOBAL, 8}, {RD_CM_ARG_GLOBAL, 8}, {RD_CM_ARG_VALUE, 4}};

#define KERNEL(name, args, sg, local, item, direct) \
    { \
        name, sizeof args / sizeof args[0], args, {0, 0, 0}, sg, local, 256, item, direct, "" \
    }

static const rd_cm_kernel_t kernels[SI_COUNT] = {
    [SI_NEIGHBOUR] = KERNEL("neighbour", neighbour_args, 0, 0, neighbour, NULL),
    [SI_NEIGHBOUR_D] = KERNEL("neighbour_d", neighbour_args, 0, 0, neighbour, neighbour_direct),
    [SI_REDUCE] = KERNEL("reduce", reduce_args, 0, 1024 * sizeof(int), reduce, NULL),
    [SI_SG_SHIFT8] = KERNEL("sg_shift8", sg_args, 8, 0, sg_shift, NULL),
    [SI_SG_SHIFT16] = KERNEL("sg_shift16", sg_args, 16, 0, sg_shift, NULL),
    [SI_SG_SHIFT32] = KERNEL("sg_shift32", sg_args, 32, 0, sg_shift, NULL),
    [SI_IDS] = KERNEL("ids", ids_args, 8, 0, ids, ids_direct),
    [SI_IDS_FIBER] = KERNEL("ids_fiber", ids_args, 8, 0, ids, NULL),
    [SI_SOME_GROUPS] = KERNEL("some_groups", some_args, 0, 0, some_groups, some_groups_direct),
    [SI_FAULT] = KERNEL("fault", fault_args, 0, 0, fault, fault_direct),
    [SI_SCALE] = KERNEL("scale", scale_args, 0, 0, scale_item, scale_direct),
    [SI_BARRIER1] = KERNEL("barrier1", ids_args, 0, 0, barrier1, NULL),
    [SI_IOTA] = KERNEL("iota", ids_args, 0, 0, iota, iota_direct),
    [SI_OVERFLOW] = KERNEL("overflow", ids_args, 0, 0, overflow, NULL),
};

static const rd_cm_module_t module = {
    RD_CM_ABI_VERSION, RD_WI_ABI_VERSION, SI_COUNT, 0, kernels, NULL};

const rd_cm_module_t *sched_standin_module(void)
{
    return &module;
}
