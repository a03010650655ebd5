/* zt.h: helpers shared by zeil's check suites. */
#ifndef ZEIL_TESTS_ZT_H
#define ZEIL_TESTS_ZT_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <level_zero/ze_api.h>

/* API 1.4 headers lack it (bit 1 of an immediate list's queue flags). */
#ifndef ZE_COMMAND_QUEUE_FLAG_IN_ORDER
#define ZE_COMMAND_QUEUE_FLAG_IN_ORDER ZE_BIT(1)
#endif

/* Asserts that a Level Zero call returns ZE_RESULT_SUCCESS, naming the call. */
#define ZT_OK(call) \
    do { \
        ze_result_t zt_r_ = (call); \
        ck_assert_msg(zt_r_ == ZE_RESULT_SUCCESS, "%s returned 0x%x", #call, (unsigned)zt_r_); \
    } while (0)

/* Asserts that a Level Zero call returns the given result. */
#define ZT_RESULT(expected, call) \
    do { \
        ze_result_t zt_r_ = (call); \
        ck_assert_msg(zt_r_ == (expected), "%s returned 0x%x, expected %s (0x%x)", #call, \
                      (unsigned)zt_r_, #expected, (unsigned)(expected)); \
    } while (0)

/* The first driver, its first device and a context on it. */
typedef struct zt_env {
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t context;
} zt_env_t;

/* zeInit, then fills *env; fails the test when there is no device. Call it
 * inside a test (after check forked), never in main. */
void zt_open(zt_env_t *env);
void zt_close(zt_env_t *env);

/* Reads a whole file into malloc'd memory; fails the test on error. */
void *zt_read_file(const char *path, size_t *size);

/* The test kernel library (ZEIL_TEST_KERNELS) built as a native module on the
 * env's context and device. */
ze_module_handle_t zt_load_test_module(const zt_env_t *env);

/* An immediate command list (synchronous when sync is non-zero). */
ze_command_list_handle_t zt_immediate_list(const zt_env_t *env, int sync);
/* An asynchronous immediate list created with ZE_COMMAND_QUEUE_FLAG_IN_ORDER
 * (what oneDNN streams need). */
ze_command_list_handle_t zt_in_order_list(const zt_env_t *env);

/* A host-visible event pool of count events (flags added to HOST_VISIBLE)
 * and one of its events. */
ze_event_pool_handle_t zt_event_pool(const zt_env_t *env, uint32_t count,
                                     ze_event_pool_flags_t flags);
ze_event_handle_t zt_event(ze_event_pool_handle_t pool, uint32_t index);

/* The reference driver's devices report sharedSystemAllocCapabilities (the
 * CPU reads any host memory) unless ZEIL_CPU_SYSTEM_MEMORY=0: on (1) or off
 * (0) for the rest of the test process. Engines read it when created. */
void zt_set_system_memory(int on);

/* Host memory from the C heap (free it with free) that overlaps the freed
 * USM range [base, base + size), or null when the heap hands out none there
 * (a driver whose USM comes from an arena of its own never shares addresses
 * with the heap). */
void *zt_heap_reuse(const void *base, size_t size);

/* Runs a Suite with check's runner and returns main's exit status. */
int zt_run_suite(Suite *suite);

/* --- additions for the driver suites --- */

/* The three USM kinds, for tests that run over all of them. */
typedef enum zt_usm_kind {
    ZT_USM_HOST,
    ZT_USM_DEVICE,
    ZT_USM_SHARED,
    ZT_USM_KINDS
} zt_usm_kind_t;
extern const char *const zt_usm_kind_names[ZT_USM_KINDS];

/* A USM allocation of the given kind on env's context (and device, for device
 * and shared); fails the test when the driver refuses. */
void *zt_usm_alloc(const zt_env_t *env, zt_usm_kind_t kind, size_t size, size_t alignment);

/* A native module from the bytes of the library file named by the
 * environment variable var (for example ZEIL_TEST_KERNELS_OTHER). */
ze_module_handle_t zt_load_module_from_env(const zt_env_t *env, const char *var);

/* A kernel of the module by name; fails the test when it is missing. */
ze_kernel_handle_t zt_kernel(ze_module_handle_t module, const char *name);

/* Sets argument index of kernel to the value of the lvalue v. */
#define ZT_ARG(kernel, index, v) ZT_OK(zeKernelSetArgumentValue((kernel), (index), sizeof(v), &(v)))

/* Sets the group size and appends a launch of count_x * count_y * count_z
 * groups. */
void zt_launch(ze_command_list_handle_t list, ze_kernel_handle_t kernel,
               const uint32_t group_size[3], const uint32_t group_count[3],
               ze_event_handle_t signal, uint32_t num_waits, ze_event_handle_t *waits);

/* A regular (non-immediate) command list and a command queue on env's device
 * (ordinal 0). */
ze_command_list_handle_t zt_regular_list(const zt_env_t *env);
ze_command_queue_handle_t zt_queue(const zt_env_t *env, int sync);
/* A fence on queue, with no flags. */
ze_fence_handle_t zt_fence(ze_command_queue_handle_t queue);

/* CLOCK_MONOTONIC in nanoseconds, the clock the test kernels stamp with. */
uint64_t zt_now_ns(void);

#endif
