/*
 * oom_workload.h: the Level Zero workload the out-of-memory suite runs in a
 * child process (through the real loader, zeil and the reference driver):
 * contexts, modules, kernels, event pools and events, immediate and regular
 * lists, a queue and a fence, USM of every kind allocated and freed round
 * after round (so addresses and handle values are reused), copies, fills,
 * barriers and launches whose results are summed.
 *
 * It prints one line per call, "STEP CALL RESULT EXPECTED" (results in hex),
 * then "checksum X", "dropped O A R X U" (zeil_get_dropped_counts) and
 * "faults SEEN FAILED" (the fault-injecting allocator's counts) and
 * "reused L K" (1 when the driver gave a destroyed list's or kernel's handle
 * value to a new one, the case a starved registry must not confuse). Every call
 * is valid except, with midway set, a signal of an event just destroyed
 * (expected: zeil refuses it, ZEIL-E002); midway also starts the "later"
 * fault policy (fault_alloc.h) once the objects exist.
 */
#ifndef ZEIL_TESTS_OOM_WORKLOAD_H
#define ZEIL_TESTS_OOM_WORKLOAD_H

/* Runs the workload; returns 0 (it never aborts: every result is printed). */
int oom_workload_run(int midway);

#endif
