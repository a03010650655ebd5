/*
 * transparency.h: workloads that a correct program runs from many threads at
 * once, and the transcript each thread keeps of its calls' results, so that a
 * run with zeil can be compared call for call with a run without it.
 *
 * A thread's calls use only its own objects (plus the shared context and
 * module), so the sequence of results of one thread is the same in every
 * correct run, however the threads interleave. A layer that changes a single
 * result (a refusal, an error) or crashes fails the comparison.
 */
#ifndef ZEIL_TESTS_TRANSPARENCY_H
#define ZEIL_TESTS_TRANSPARENCY_H

#include <level_zero/ze_api.h>

#include <stddef.h>
#include <stdint.h>

#define TP_THREADS 16

/* What one thread did: every call's result folded into a hash, in order. */
typedef struct tp_thread {
    int index;
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t context;
    ze_module_handle_t module; /* the test kernels on context, shared */
    const void *module_bytes;  /* the test kernel library, for modules of its own */
    size_t module_size;
    uint32_t iterations;
    uint64_t calls, failures, hash;
    char first_failure[160]; /* the first call that did not succeed */
    uint64_t rng;
} tp_thread_t;

/* Records a call's result in t's transcript; evaluates to the result. */
#define TP_CALL(t, call) tp_record((t), __LINE__, #call, (call))
ze_result_t tp_record(tp_thread_t *t, int line, const char *what, ze_result_t r);
/* Records a check of data the thread computed (1: as expected). */
void tp_expect(tp_thread_t *t, int line, const char *what, int ok);
uint32_t tp_random(tp_thread_t *t, uint32_t below);

/* The workloads: each runs t->iterations rounds on its thread. */
/* Event pools and events, created and destroyed at once. */
void tp_events_workload(tp_thread_t *t);
/* USM allocations of every kind, filled and copied on the thread's own
 * immediate list, freed with zeMemFree and zeMemFreeExt. */
void tp_usm_workload(tp_thread_t *t);
/* Every object kind created and destroyed (contexts, queues, regular and
 * immediate lists, event pools and events, fences, modules, kernels) and
 * every USM kind, with launches, copies and executions in between. */
void tp_all_kinds_workload(tp_thread_t *t);

#endif
