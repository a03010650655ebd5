/* interop_oom_workload.h: the interop library's calls the interop
 * out-of-memory suite runs in a child process (interop_oom_workload.c says
 * what it prints). */
#ifndef ZEIL_TESTS_INTEROP_OOM_WORKLOAD_H
#define ZEIL_TESTS_INTEROP_OOM_WORKLOAD_H

/* Runs the workload; returns 0 (it prints what happened, asserts nothing). */
int interop_oom_workload_run(void);

#endif
