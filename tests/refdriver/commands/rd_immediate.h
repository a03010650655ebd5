/*
 * rd_immediate.h: the jobs an immediate list hands its worker, recycled, so
 * that an append allocates nothing in steady state (as a regular list's
 * arena does for regular lists, rd_cmd_arena.h).
 *
 * A job carries one command and a small store for what the command holds
 * (a launch's copy of the argument values, a wait list): an append takes a
 * job (the pending one) before it builds its command, builds the command in
 * the job's store, and submits the job. The worker runs it and pushes it
 * back; the appending thread takes back everything pushed at once when its
 * own spares run out. So the worker's push (a compare-exchange) and the
 * appender's take (an exchange, once per refill) are the only memory both
 * threads write, and no C heap call is made once as many jobs exist as were
 * ever in flight. A command whose belongings do not fit the store is built
 * on the heap, in a job of its own, as before.
 */
#ifndef ZEIL_RD_IMMEDIATE_H
#define ZEIL_RD_IMMEDIATE_H

#include "rd_cmd_arena.h"
#include "rd_command.h"
#include "rd_module.h"
#include "rd_worker.h"

#include <stdatomic.h>
#include <stddef.h>

/* A launch of a kernel with a dozen arguments and a few wait events. */
#define RD_IMMEDIATE_STORE 512u

typedef struct rd_immediate_job rd_immediate_job_t;

/* An immediate list's jobs. Appends to one list come from one thread at a
 * time (the spec): spare and pending are the appender's; returned is
 * pushed by the worker. */
typedef struct rd_immediate_jobs {
    rd_immediate_job_t *spare;
    rd_immediate_job_t *pending; /* taken by the append under way */
    _Atomic(rd_immediate_job_t *) returned;
} rd_immediate_jobs_t;

/* Where the append under way builds a command holding at most bytes: the
 * store of the pending job (taken now), or null when it does not fit or no
 * job could be had (the command then holds its own, from the heap). */
rd_cmd_arena_t *rd_immediate_arena(rd_immediate_jobs_t *jobs, size_t bytes);

/* The pending job keeps module loaded until its command ran (a launch built
 * in its store holds no reference of its own). */
void rd_immediate_hold_module(rd_immediate_jobs_t *jobs, rd_module_t *module);

/* Hands cmd to the worker, in the pending job when cmd was built in its
 * store (in_arena), else in a job of its own. Takes what cmd owns, also when
 * it fails (out of memory). */
ze_result_t rd_immediate_submit(rd_immediate_jobs_t *jobs, rd_worker_t *worker, rd_command_t *cmd,
                                uint64_t *ticket);

/* After the worker stopped: frees every job. */
void rd_immediate_free(rd_immediate_jobs_t *jobs);

#endif
