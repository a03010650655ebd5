/* An immediate list's recycled jobs (rd_immediate.h). */
#include "rd_immediate.h"

#include <stdalign.h>
#include <stdlib.h>

struct rd_immediate_job {
    rd_job_t job;              /* first: the worker's handle on it */
    rd_immediate_jobs_t *home; /* where it goes back; null: freed after running */
    rd_immediate_job_t *next;  /* in spare or returned */
    rd_module_t *module;       /* held until the command ran, or null */
    rd_cmd_arena_t arena;      /* over store */
    rd_command_t cmd;
    alignas(16) unsigned char store[RD_IMMEDIATE_STORE];
};

static ze_result_t run(rd_job_t *job)
{
    rd_immediate_job_t *j = (rd_immediate_job_t *)job;
    ze_result_t r = rd_command_run(&j->cmd);
    rd_command_release(&j->cmd);
    if (j->module)
        rd_module_release(j->module);
    j->module = NULL;
    rd_immediate_jobs_t *home = j->home;
    if (!home) {
        free(j);
        return r;
    }
    /* Release: the appender that takes it back sees it finished. */
    rd_immediate_job_t *top = atomic_load_explicit(&home->returned, memory_order_relaxed);
    do
        j->next = top;
    while (!atomic_compare_exchange_weak_explicit(&home->returned, &top, j, memory_order_release,
                                                  memory_order_relaxed));
    return r;
}

/* An empty job: its store all free (a chunk the arena took beyond it, for a
 * command that outgrew the store after all, given back). */
static void rewind_job(rd_immediate_job_t *j)
{
    if (j->arena.first)
        rd_cmd_arena_free(&j->arena);
    j->arena =
        (rd_cmd_arena_t){.next = (char *)j->store, .end = (char *)j->store + sizeof j->store};
    if (j->module)
        rd_module_release(j->module);
    j->module = NULL;
}

static rd_immediate_job_t *take(rd_immediate_jobs_t *jobs)
{
    rd_immediate_job_t *j = jobs->spare;
    if (!j)
        j = atomic_exchange_explicit(&jobs->returned, NULL, memory_order_acquire);
    if (j) {
        jobs->spare = j->next;
        return j;
    }
    j = malloc(sizeof *j);
    if (j) {
        *j = (rd_immediate_job_t){.job.run = run, .home = jobs};
        rewind_job(j);
    }
    return j;
}

rd_cmd_arena_t *rd_immediate_arena(rd_immediate_jobs_t *jobs, size_t bytes)
{
    if (bytes > RD_IMMEDIATE_STORE)
        return NULL;
    /* A pending job is left by an append that failed: it is empty again. */
    rd_immediate_job_t *j = jobs->pending ? jobs->pending : take(jobs);
    if (!j)
        return NULL;
    rewind_job(j);
    jobs->pending = j;
    return &j->arena;
}

void rd_immediate_hold_module(rd_immediate_jobs_t *jobs, rd_module_t *module)
{
    rd_module_retain(module);
    jobs->pending->module = module;
}

ze_result_t rd_immediate_submit(rd_immediate_jobs_t *jobs, rd_worker_t *worker, rd_command_t *cmd,
                                uint64_t *ticket)
{
    rd_immediate_job_t *j = NULL;
    if (cmd->in_arena) {
        j = jobs->pending;
        jobs->pending = NULL;
    } else {
        j = malloc(sizeof *j);
        if (!j) {
            rd_command_release(cmd);
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
        *j = (rd_immediate_job_t){.job.run = run};
    }
    j->cmd = *cmd;
    *ticket = rd_worker_submit(worker, &j->job);
    return ZE_RESULT_SUCCESS;
}

static void free_chain(rd_immediate_job_t *j)
{
    for (rd_immediate_job_t *next; j; j = next) {
        next = j->next;
        rewind_job(j);
        free(j);
    }
}

void rd_immediate_free(rd_immediate_jobs_t *jobs)
{
    if (jobs->pending) {
        jobs->pending->next = NULL;
        free_chain(jobs->pending);
    }
    free_chain(jobs->spare);
    free_chain(atomic_exchange(&jobs->returned, NULL));
    *jobs = (rd_immediate_jobs_t){0};
}
