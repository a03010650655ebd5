/*
 * bench_ze.h: the Level Zero objects every benchmark child works with (one
 * device, a context, the test kernel library's vector_add prepared for
 * launching, a regular command list), and the clock.
 *
 * A child that cannot set these up has nothing to measure: every failure
 * prints the call and its result and exits with status 2, so the parent
 * reports the configuration as failed instead of printing a number.
 */
#ifndef ZEIL_BENCH_ZE_H
#define ZEIL_BENCH_ZE_H

#include <stdint.h>
#include <level_zero/ze_api.h>

#define BENCH_ZE_OK(call) bench_ze_check((call), #call, __FILE__, __LINE__)

void bench_ze_check(ze_result_t result, const char *call, const char *file, int line);
/* Prints the message to stderr and exits with status 2. */
void bench_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

typedef struct bench_ze {
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t context;
    ze_module_handle_t module;
    ze_kernel_handle_t kernel;     /* vector_add, arguments set, group size 64 */
    ze_command_list_handle_t list; /* regular, open */
    void *buffers[3];              /* vector_add's a, b, c (device USM) */
} bench_ze_t;

/* zeInit, the first device, a context, the prepared kernel and the list.
 * The test kernel library is the file named by ZEIL_TEST_KERNELS. */
void bench_ze_open(bench_ze_t *ze);
void bench_ze_close(bench_ze_t *ze);

/* Another vector_add on the same buffers, ready to launch (the scaling
 * figure gives each thread its own), and another open regular list. */
ze_kernel_handle_t bench_ze_new_kernel(const bench_ze_t *ze);
ze_command_list_handle_t bench_ze_new_list(const bench_ze_t *ze);
/* Three buffers of vector_add's size (device USM), and a vector_add on
 * them (hazard_scaling_added_ns: each thread its own). */
void bench_ze_alloc_buffers(const bench_ze_t *ze, void *buffers[3]);
ze_kernel_handle_t bench_ze_kernel_on(const bench_ze_t *ze, void *const buffers[3]);

/* A host-visible event with host scopes, in a pool of its own (*pool), the
 * event of event_ns. */
ze_event_handle_t bench_ze_host_event(const bench_ze_t *ze, ze_event_pool_handle_t *pool);

/* A command queue on the device (ordinal 0, asynchronous). */
ze_command_queue_handle_t bench_ze_queue(const bench_ze_t *ze);

/* Appends one launch of the prepared kernel (one group) to list. */
static inline ze_result_t bench_ze_launch(const bench_ze_t *ze, ze_command_list_handle_t list)
{
    static const ze_group_count_t one_group = {1, 1, 1};
    return zeCommandListAppendLaunchKernel(list, ze->kernel, &one_group, NULL, 0, NULL);
}

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t bench_now_ns(void);

#endif
