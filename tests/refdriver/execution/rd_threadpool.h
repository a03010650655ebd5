/*
 * rd_threadpool.h: the driver-wide pool that runs the work-groups of kernel
 * launches. One pool serves every queue and immediate list; launches from
 * several of them run at the same time, each spread over the pool's threads
 * and the thread that submitted it.
 */
#ifndef ZEIL_RD_THREADPOOL_H
#define ZEIL_RD_THREADPOOL_H

#include <stdint.h>

typedef struct rd_threadpool rd_threadpool_t;

/* One unit of a parallel job: index in [0, count). */
typedef void (*rd_task_fn)(void *ctx, uint64_t index);

rd_threadpool_t *rd_threadpool_create(uint32_t threads);

/* Runs fn(ctx, i) for every i in [0, count) and returns when all are done.
 * The calling thread takes part. */
void rd_threadpool_run(rd_threadpool_t *pool, uint64_t count, rd_task_fn fn, void *ctx);

uint32_t rd_threadpool_size(const rd_threadpool_t *pool);

#endif
