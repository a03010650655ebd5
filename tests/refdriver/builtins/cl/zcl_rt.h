/*
 * zcl_rt.h: what every source of the OpenCL C built-in library includes:
 * the work-item state (rd_workitem.h), the kernel runtime's entries
 * (builtins/rd_rt.c; integers only across, see there) and shorthands.
 */
#ifndef ZEIL_ZCL_RT_H
#define ZEIL_ZCL_RT_H

#include "rd_workitem.h"
#include "zeil_cl_ext.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

ulong __zeil_rt_state(void);
void __zeil_wg_barrier(uint flags);
void __zeil_sg_barrier(void);

/* The calling work-item's state. */
#define ZCL_ST ((__global rd_wi_state_t *)__zeil_rt_state())

/* The barriers take the state from the caller: in a compiled kernel's
 * entry it is the entry's own (compiler/kc/kc_state.c), not a thread-local
 * lookup. Every barrier of the library goes through these two names. */
void __zeil_wg_barrier_at(ulong st, uint flags);
void __zeil_sg_barrier_at(ulong st);
#define __zeil_wg_barrier(flags) __zeil_wg_barrier_at(__zeil_rt_state(), (flags))
#define __zeil_sg_barrier() __zeil_sg_barrier_at(__zeil_rt_state())

#define ZCL_OVL __attribute__((overloadable))
#define ZCL_INL __attribute__((overloadable, always_inline))

#endif
