/*
 * counting_malloc.h: the test program's own malloc family (interposing
 * glibc's for every library in the process) that counts calls made while
 * counting is on, from any thread, and forwards to glibc.
 */
#ifndef ZEIL_COUNTING_MALLOC_H
#define ZEIL_COUNTING_MALLOC_H

#include <stdint.h>

typedef struct counting_malloc_counts {
    uint64_t allocations; /* malloc, calloc, realloc, aligned forms */
    uint64_t frees;       /* free of a non-null pointer */
    void *first_caller;   /* return address of the first counted call */
} counting_malloc_counts_t;

/* Zeroes the counts and starts counting. */
void counting_malloc_start(void);
/* Stops counting and returns what was counted since the start. */
counting_malloc_counts_t counting_malloc_stop(void);

#endif
