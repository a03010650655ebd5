/*
 * rd_sched_thread.h: what each thread that runs work-groups of compiled
 * kernels keeps from one launch to the next (made on its first group, freed
 * when it exits): its work-item state, its fibers, the group's local memory
 * and exchange areas, the arguments as the kernel reads them. Nothing here
 * is allocated again while launches keep their shapes.
 */
#ifndef ZEIL_RD_SCHED_THREAD_H
#define ZEIL_RD_SCHED_THREAD_H

#include "rd_compiled.h"
#include "rd_fault.h"
#include "rd_fiber.h"

#include <stddef.h>
#include <stdint.h>

/* Largest work-group (that of the device, RD_MAX_GROUP_SIZE). */
#define RD_SCHED_MAX_ITEMS 1024u

/* Why a group was left before its end (rd_sched_thread_t.left). */
#define RD_SCHED_LEFT_FAULT 1
#define RD_SCHED_LEFT_NO_MEMORY 2

/* A work-item's own fields: the "per work-item" block of rd_wi_state_t. */
typedef struct rd_sched_ids {
    rd_u32 local_id[3];
    rd_u32 local_linear_id;
    rd_u32 sg_local_id;
    rd_u32 sg_id;
    rd_u32 sg_size;
    rd_u32 xchg_parity;
    rd_u64 sg_xchg;
} rd_sched_ids_t;

struct rd_sched_thread;

typedef struct rd_sched_fiber {
    rd_fiber_t fiber;
    struct rd_sched_thread *thread;
    uint32_t index; /* the work-item it runs: linear local id */
} rd_sched_fiber_t;

typedef struct rd_sched_thread {
    rd_wi_state_t st;          /* the state the kernel reads */
    rd_fiber_t main;           /* the thread's own stack */
    rd_sched_fiber_t **fibers; /* RD_SCHED_MAX_ITEMS slots, num_fibers made */
    uint32_t num_fibers;
    rd_sched_ids_t *ids; /* per work-item, for the current layout */
    uint32_t ids_key[5]; /* the layout ids were made for: local size, sub-group size, n */
    unsigned char *done; /* per work-item: ended in this group */

    /* the group being run */
    const rd_cm_kernel_t *kernel;
    const void *const *args;
    uint32_t n;         /* work-items */
    uint32_t cur;       /* the one running */
    uint32_t alive;     /* not ended yet */
    int probing;        /* work-item 0 runs alone: no barrier reached yet */
    int direct;         /* the direct entry runs: barriers do nothing */
    int in_fiber;       /* a fiber runs (not the thread's own stack) */
    int dirty;          /* a fault abandoned the fibers: prepare them again */
    int left;           /* how the running fiber left the group: 0, RD_SCHED_LEFT_* */
    uint64_t launch_id; /* the launch the fields above were set for */

    unsigned char *local; /* the group's local memory */
    size_t local_cap;
    unsigned char *sg_area; /* sub-groups' exchange areas */
    size_t sg_cap;
    unsigned char *wg_area; /* RD_WG_XCHG_BYTES */
    const void **arg_ptrs;  /* what args points to */
    void **local_ptrs;      /* per local argument: its buffer */
    uint32_t args_cap;

    rd_fault_scope_t fault;
} rd_sched_thread_t;

/* The calling thread's, made on first use; null when out of memory. */
rd_sched_thread_t *rd_sched_thread_get(void);

/* Room for a launch: local memory, exchange areas of num_sg sub-groups,
 * num_args arguments. 0, or -1 when out of memory. */
int rd_sched_thread_reserve(rd_sched_thread_t *t, size_t local_bytes, uint32_t num_sg,
                            uint32_t num_args);

/* At least n fibers, each ready to start entry(its rd_sched_fiber_t); all
 * of them prepared again after a fault. 0, or -1 when out of memory. */
int rd_sched_thread_fibers(rd_sched_thread_t *t, uint32_t n, void (*entry)(void *));

/* ids for the state's group layout (local_size, max_sg_size,
 * local_linear_size, sg_xchg_base), made again only when it changed. */
void rd_sched_thread_layout(rd_sched_thread_t *t);

#endif
