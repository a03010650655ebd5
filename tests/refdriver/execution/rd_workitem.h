/*
 * rd_workitem.h: what compiled OpenCL code and the driver's work-item
 * scheduler share. Included by the driver (C), by the kernel runtime that is
 * linked into every compiled module (C, builtins/rd_rt.c) and by the OpenCL C
 * built-in library (builtins/), so it uses only fixed-width integers and
 * stores pointers as 64-bit integers.
 *
 * Each thread that runs work-groups owns one rd_wi_state_t. The compiled
 * module keeps a thread-local pointer to it (set by the module's entries,
 * builtins/rd_rt.c); the built-ins read the current work-item's ids from it.
 *
 * Two ways to run a group (execution/rd_schedule.c decides):
 *  - direct: rd_cm_kernel_t.direct loops over the work-items itself on the
 *    calling thread's stack (no barrier may be reached);
 *  - fibers: one fiber per work-item, each calling rd_cm_kernel_t.item once;
 *    a barrier or sub-group collective calls wg_barrier / sg_barrier, which
 *    switch fibers. Before resuming a fiber the scheduler writes that
 *    work-item's fields (the "per work-item" block) into the state.
 * Every group starts work-item 0 alone on a fiber: OpenCL requires a
 * barrier or collective to be reached by all work-items of the group (of
 * the sub-group) or by none, so when work-item 0 ends without reaching one,
 * direct runs work-items 1 .. n-1; otherwise the group goes on on fibers.
 * A kernel without a direct entry always runs on fibers. No flag from the
 * compiler is needed, and a kernel whose groups differ (a barrier only in
 * some groups) gets the fast path where it can.
 *
 * Sub-groups are consecutive runs of max_sg_size work-items in linear local
 * id order (x fastest); the last one may be partial. A sub-group's work-items
 * run in lockstep between collectives. A collective writes this lane's value
 * into slot [xchg_parity][sg_local_id] of the sub-group's exchange area
 * (sg_xchg), calls sg_barrier, reads the slots it needs, and flips
 * xchg_parity (two halves, since a lane may run one collective ahead of the
 * others' reads).
 */
#ifndef ZEIL_RD_WORKITEM_H
#define ZEIL_RD_WORKITEM_H

#ifdef __OPENCL_C_VERSION__
typedef uint rd_u32;
typedef ulong rd_u64;
#else
#include <stdint.h>
typedef uint32_t rd_u32;
typedef uint64_t rd_u64;
#endif

#define RD_WI_ABI_VERSION 1u
#define RD_SG_MAX 32u           /* largest sub-group size */
#define RD_XCHG_SLOT_BYTES 128u /* the widest value exchanged: long16, double16 */
/* One sub-group's exchange area: two halves of RD_SG_MAX slots. */
#define RD_XCHG_BYTES (2u * RD_SG_MAX * RD_XCHG_SLOT_BYTES)
/* Work-group collectives (work_group_reduce_*, _scan_*, _broadcast): one
 * 8-byte slot per work-item (at most 1024) plus one for the result. */
#define RD_WG_XCHG_BYTES (8u * (1024u + 8u))

/* Alignment of the group's local memory: kernel-scope variables at
 * local_base, then each local argument's buffer (the widest OpenCL type,
 * long16, is 128 bytes). */
#define RD_LOCAL_ALIGN 128u

/* local_id of the state while a compiled 1-D direct loop runs with its own
 * copy (its ids in registers): which work-item runs is not known there. */
#define RD_WI_ID_UNKNOWN 0xffffffffu

/* barrier / work_group_barrier flags, as OpenCL C passes them. */
#define RD_FENCE_LOCAL 1u
#define RD_FENCE_GLOBAL 2u

typedef struct rd_wi_state {
    /* per work-item: rewritten by the scheduler before it resumes a fiber,
     * by the direct loop before each call */
    rd_u32 local_id[3];
    rd_u32 local_linear_id;
    rd_u32 sg_local_id; /* lane in its sub-group */
    rd_u32 sg_id;       /* sub-group index in the group */
    rd_u32 sg_size;     /* this sub-group's size (the last may be partial) */
    rd_u32 xchg_parity; /* 0 or 1, flipped by each sub-group collective */
    rd_u64 sg_xchg;     /* this sub-group's exchange area (RD_XCHG_BYTES) */

    /* per group: written once before the group runs */
    rd_u64 group_id[3];
    rd_u64 global_offset[3];
    rd_u64 global_size[3]; /* work-items in the launch, per dimension */
    rd_u32 local_size[3];  /* work-items per group (uniform: Level Zero has no remainder groups) */
    rd_u32 num_groups[3];
    rd_u32 work_dim;    /* 1 + the highest dimension with more than one work-item */
    rd_u32 max_sg_size; /* the kernel's sub-group size: 8, 16 or 32 */
    rd_u32 num_sub_groups;
    rd_u32 local_linear_size;
    rd_u64 wg_xchg; /* work-group collectives' area (RD_WG_XCHG_BYTES) */

    /* the scheduler: set by the driver, called by the kernel runtime */
    rd_u64 sched;      /* opaque, the scheduler's own */
    rd_u64 wg_barrier; /* void (*)(struct rd_wi_state *, rd_u32 flags) */
    rd_u64 sg_barrier; /* void (*)(struct rd_wi_state *) */
    rd_u64 fault_info; /* reserved for the fault handler */

    /* per group, added after the first version of the contract */
    rd_u64 local_base;   /* the group's kernel-scope __local variables:
                              * rd_cm_kernel_t.local_bytes at this address,
                              * aligned to RD_LOCAL_ALIGN (a module adds each
                              * variable's offset) */
    rd_u64 sg_xchg_base; /* sub-group 0's exchange area; sub-group s has
                              * its own at + s * RD_XCHG_BYTES */
} rd_wi_state_t;

#ifndef __OPENCL_C_VERSION__
/* The size of sub-group sg_id (the last one may be partial). */
static inline rd_u32 rd_wi_sg_size(const rd_wi_state_t *st, rd_u32 sg_id)
{
    rd_u32 left = st->local_linear_size - sg_id * st->max_sg_size;
    return left < st->max_sg_size ? left : st->max_sg_size;
}

/* Writes the per-work-item fields of work-item `linear` (linear local id)
 * into st; the per-group fields must be set. Divides: once per direct call,
 * then rd_wi_step. */
static inline void rd_wi_seek(rd_wi_state_t *st, rd_u32 linear)
{
    rd_u32 rest = linear / st->local_size[0];
    st->local_id[0] = linear - rest * st->local_size[0];
    st->local_id[1] = rest % st->local_size[1];
    st->local_id[2] = rest / st->local_size[1];
    st->local_linear_id = linear;
    st->sg_id = linear / st->max_sg_size;
    st->sg_local_id = linear - st->sg_id * st->max_sg_size;
    st->sg_size = rd_wi_sg_size(st, st->sg_id);
    st->xchg_parity = 0;
    st->sg_xchg = st->sg_xchg_base + (rd_u64)st->sg_id * RD_XCHG_BYTES;
}

/* Moves st's per-work-item fields on to the next work-item in linear local
 * id order, without dividing. */
static inline void rd_wi_step(rd_wi_state_t *st)
{
    st->local_linear_id++;
    if (++st->sg_local_id == st->max_sg_size) {
        st->sg_local_id = 0;
        st->sg_id++;
        st->sg_xchg += RD_XCHG_BYTES;
        st->sg_size = rd_wi_sg_size(st, st->sg_id);
    }
    if (++st->local_id[0] == st->local_size[0]) {
        st->local_id[0] = 0;
        if (++st->local_id[1] == st->local_size[1]) {
            st->local_id[1] = 0;
            st->local_id[2]++;
        }
    }
}
#endif

#endif
