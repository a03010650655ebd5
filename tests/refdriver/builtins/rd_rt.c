/*
 * rd_rt.c: the kernel runtime linked into every module compiled from SPIR-V
 * or OpenCL C. Holds the calling thread's current work-item state (a
 * thread-local pointer the module's entries set), the barriers that call back
 * into the driver's scheduler, and printf.
 *
 * Built as LLVM bitcode for x86_64 (clang -cc1, no target CPU or features, so
 * its functions inline into the kernels' spir64 code): the spir64 target has
 * no thread-local storage. It includes no system header; the few libc
 * functions it calls are declared here and resolved when the module is
 * loaded. The OpenCL C library (zeil_cl_builtins.bc) reaches it through
 * functions that take and return integers only, so the two agree whatever
 * address spaces the compiler lowers.
 */
#include "rd_workitem.h"
#include "rd_rt.h"

typedef void (*rd_rt_wg_barrier_fn)(rd_wi_state_t *st, rd_u32 flags);
typedef void (*rd_rt_sg_barrier_fn)(rd_wi_state_t *st);

static __thread rd_wi_state_t *rd_rt_state;

void rd_rt_set_state(rd_wi_state_t *st)
{
    rd_rt_state = st;
}

rd_wi_state_t *rd_rt_get_state(void)
{
    return rd_rt_state;
}

rd_u64 __zeil_rt_state(void)
{
    return (rd_u64)(unsigned long)rd_rt_state;
}

void __zeil_wg_barrier_at(rd_u64 state, rd_u32 flags)
{
    rd_wi_state_t *st = (rd_wi_state_t *)(unsigned long)state;
    if (st->wg_barrier)
        ((rd_rt_wg_barrier_fn)(unsigned long)st->wg_barrier)(st, flags);
}

void __zeil_sg_barrier_at(rd_u64 state)
{
    rd_wi_state_t *st = (rd_wi_state_t *)(unsigned long)state;
    if (st->sg_barrier)
        ((rd_rt_sg_barrier_fn)(unsigned long)st->sg_barrier)(st);
}

void __zeil_wg_barrier(rd_u32 flags)
{
    __zeil_wg_barrier_at((rd_u64)(unsigned long)rd_rt_state, flags);
}

void __zeil_sg_barrier(void)
{
    __zeil_sg_barrier_at((rd_u64)(unsigned long)rd_rt_state);
}
