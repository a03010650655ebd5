/*
 * rd_cmdlist.h: command lists.
 *
 * A regular list records commands until it is closed and then runs them,
 * any number of times, on command queues. An immediate list has its own
 * worker and hands every command to it as it is appended (and, in
 * synchronous mode, waits for it before the append returns).
 */
#ifndef ZEIL_RD_CMDLIST_H
#define ZEIL_RD_CMDLIST_H

#include "rd_cmd_arena.h"
#include "rd_command.h"
#include "rd_immediate.h"
#include "rd_module.h"
#include "rd_worker.h"

#include <pthread.h>

/* What a regular list's commands hold, apart from the list (made at its
 * first append). The appending thread writes it on every append: the
 * padding keeps whatever the heap puts around it off its cache lines. */
typedef struct rd_list_memory {
    char isolated_before[64];
    rd_cmd_arena_t arena;  /* launch captures, wait lists */
    rd_module_t **modules; /* held until reset */
    uint32_t module_count, module_capacity;
    char isolated_after[64];
} rd_list_memory_t;

typedef struct rd_cmdlist {
    uint32_t magic;
    int closed; /* regular lists only */
    rd_context_t *context;
    rd_device_t *device;
    int immediate;
    int synchronous;          /* immediate lists only */
    rd_worker_t *worker;      /* immediate lists only */
    rd_immediate_jobs_t jobs; /* immediate lists only */
    rd_list_memory_t *memory; /* regular lists, from their first append */
    rd_command_t *commands;
    size_t count;
    size_t capacity; /* kept by reset: a refilled list grows nothing */
    pthread_mutex_t lock;
    pthread_cond_t idle;
    uint32_t executions; /* queued or running on queues */
    /* What creation asked, for the list queries of API 1.9+ (rd_newer.c):
     * ordinal and flags of a regular list, the queue desc of an immediate. */
    uint32_t ordinal;
    ze_command_list_flags_t flags;
    ze_command_queue_desc_t queue_desc;
} rd_cmdlist_t;

/* The memory a command of this list takes what it holds (at most bytes:
 * its wait list, a launch's capture) from: the arena of a regular list, the
 * store of the job an immediate list hands its worker (rd_immediate.h), or
 * null, the heap (an immediate list's command too large for a job's store,
 * a regular list whose arena could not be made): its commands then hold
 * their own, and the worker frees them one by one. */
rd_cmd_arena_t *rd_cmdlist_arena_slow(rd_cmdlist_t *list);
static inline rd_cmd_arena_t *rd_cmdlist_arena(rd_cmdlist_t *list, size_t bytes)
{
    if (list->memory)
        return &list->memory->arena;
    if (list->immediate)
        return rd_immediate_arena(&list->jobs, bytes);
    return rd_cmdlist_arena_slow(list);
}

/* What a command holds in its list's memory: its wait list and, for a
 * launch, the capture (rd_launch_capture_size). */
static inline size_t rd_cmdlist_bytes(uint32_t num_waits, size_t capture)
{
    return ((num_waits * sizeof(rd_event_t *) + 15u) & ~(size_t)15u) + capture;
}

/* A regular list keeps the module of its launches loaded until its reset
 * or destruction: one reference per list and module, not per launch. An
 * immediate list's launch built in a job's store: its job holds it until
 * the launch ran. */
ze_result_t rd_cmdlist_hold_module(rd_cmdlist_t *list, rd_module_t *module);

/* Adds a command built by an append: records it, or runs it (immediate).
 * Takes what the command owns, also when it fails. */
ze_result_t rd_cmdlist_append(rd_cmdlist_t *list, rd_command_t *cmd);

/* A queue's execution of a closed regular list: mark before queuing, run
 * on the queue's worker, unmark when done (reset and destroy wait for that). */
void rd_cmdlist_execution_begin(rd_cmdlist_t *list);
ze_result_t rd_cmdlist_run(const rd_cmdlist_t *list); /* the first command's error */
void rd_cmdlist_execution_end(rd_cmdlist_t *list);

#endif
