/*
 * sched_standin.h: a stand-in for a compiled module (rd_compiled.h), written
 * by hand in C, so that the work-item scheduler can be tested before the
 * compiler exists. Its kernels call the scheduler's barriers through the
 * work-item state as compiled OpenCL C does (builtins/rd_rt.c).
 */
#ifndef ZEIL_SCHED_STANDIN_H
#define ZEIL_SCHED_STANDIN_H

#include "rd_compiled.h"

/* Kernel indices in the module. */
enum {
    SI_NEIGHBOUR, /* (int *out, local int *tmp, int rounds): out[g] = value of the next work-item after each barrier */
    SI_NEIGHBOUR_D, /* the same with a direct entry: the probe must switch to fibers */
    SI_REDUCE,      /* (const int *in, int *out): kernel-scope local, tree reduction, out[group] */
    SI_SG_SHIFT8,   /* (int *out, int rounds): sub-group exchange at 8, 16, 32 */
    SI_SG_SHIFT16,
    SI_SG_SHIFT32,
    SI_IDS,       /* (uint *out): packed local ids and sub-group ids per global id, direct entry */
    SI_IDS_FIBER, /* the same, item only */
    SI_SOME_GROUPS, /* (int *out, local int *tmp): a barrier only in odd groups, direct entry */
    SI_FAULT,       /* (int *out, ulong bad_gid): global id bad_gid writes through a null pointer */
    SI_SCALE,       /* (const float *in, float *out, float f): elementwise, direct entry */
    SI_BARRIER1,    /* (float *out): one barrier per work-item, for the bench */
    SI_OVERFLOW,    /* (int *out): work-item 0 of group 1 recurses until its stack ends */
    SI_IOTA, /* (uint *out): out[g] = g, direct entry looping over items as generated code does */
    SI_COUNT
};

const rd_cm_module_t *sched_standin_module(void);

/* Calls of item and direct entries since the last reset (all kernels). */
extern unsigned long sched_standin_item_calls;   /* atomic */
extern unsigned long sched_standin_direct_calls; /* atomic */

#endif
