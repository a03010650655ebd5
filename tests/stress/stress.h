/*
 * stress.h: the threads of the stress suite and what each promises to have
 * done when it returns, so the suite can check the layer's records and
 * registry against exact numbers.
 */
#ifndef ZEIL_TESTS_STRESS_H
#define ZEIL_TESTS_STRESS_H

#include "zt.h"

#include <stdatomic.h>
#include <stdint.h>

#define STRESS_WORKERS 8
/* Live USM allocations each worker keeps, replaced one by one. */
#define STRESS_LIVE_ALLOCS 8
/* Iterations on a list between two waits for it (the regular list is then
 * closed, executed and reset). */
#define STRESS_BATCH 256

/* One worker: its own immediate list, regular list and queue, sharing the
 * context and module. It makes ops launches, ops copies, ops allocations and
 * ops frees; half the launches and copies go to each list. */
typedef struct stress_worker {
    const zt_env_t *env;
    ze_module_handle_t module;
    uint64_t ops;
    /* set before the thread starts, read by the registry thread */
    ze_command_list_handle_t immediate, regular;
    ze_command_queue_handle_t queue;
    /* the allocation most recently made and the one most recently freed */
    _Atomic(void *) newest_alloc;
    _Atomic(void *) newest_freed;
    /* results */
    uint64_t immediate_appends, regular_appends;
    uint64_t allocations, frees;
} stress_worker_t;

void stress_worker_open(stress_worker_t *w);
void *stress_worker_run(void *worker);
void stress_worker_close(stress_worker_t *w);

/* The registry thread: queries live and freed handles and pointers until
 * *stop is set. */
typedef struct stress_querier {
    const zt_env_t *env;
    stress_worker_t *workers;
    atomic_int *stop;
    uint64_t handle_lookups, pointer_lookups, tombstones_seen;
} stress_querier_t;

void *stress_querier_run(void *querier);

/* The oneDNN thread: executes primitives through two interop streams, each
 * on its own in-order immediate list. */
typedef struct stress_dnnl {
    const zt_env_t *env;
    uint64_t executes; /* per stream */
    ze_command_list_handle_t list[2];
    uint64_t submissions[2]; /* zeil_submission_count before teardown */
    uint64_t done[2];        /* executes that completed */
} stress_dnnl_t;

void *stress_dnnl_run(void *dnnl);

/* ZEIL_STRESS_OPS, else the default; the CMake sets it lower under
 * sanitizers. */
uint64_t stress_ops(void);

#endif
