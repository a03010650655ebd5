/*
 * rd_rt.h: what the kernel runtime (rd_rt.c, linked into every compiled
 * module) exports to the module's entries and to the OpenCL C built-in
 * library. C only; the library declares the __zeil_* ones itself
 * (zcl_rt.h).
 */
#ifndef ZEIL_RD_RT_H
#define ZEIL_RD_RT_H

#include "rd_workitem.h"

/* The calling thread's current work-item state: set by the module's item
 * and direct entries before they call the kernel. */
void rd_rt_set_state(rd_wi_state_t *st);
rd_wi_state_t *rd_rt_get_state(void);

/* For the OpenCL C library: the state as an integer, the barriers. */
rd_u64 __zeil_rt_state(void);
void __zeil_wg_barrier(rd_u32 flags);
void __zeil_sg_barrier(void);
/* The same with the state given (what the library calls). */
void __zeil_wg_barrier_at(rd_u64 state, rd_u32 flags);
void __zeil_sg_barrier_at(rd_u64 state);

/* OpenCL C's printf is rd_rt_printf.c's printf (hidden in the module): the
 * format and arguments as the kernel passes them (floats promoted to double);
 * one write to stdout per call. Returns 0, or -1 for a format it cannot
 * print. */

#endif
