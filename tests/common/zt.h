/* zt.h: helpers shared by zeil's check suites. */
#ifndef ZEIL_TESTS_ZT_H
#define ZEIL_TESTS_ZT_H

#include <check.h>
#include <stddef.h>
#include <level_zero/ze_api.h>

/* Asserts that a Level Zero call returns ZE_RESULT_SUCCESS, naming the call. */
#define ZT_OK(call)                                                              \
    do {                                                                         \
        ze_result_t zt_r_ = (call);                                              \
        ck_assert_msg(zt_r_ == ZE_RESULT_SUCCESS, "%s returned 0x%x", #call,     \
                      (unsigned)zt_r_);                                          \
    } while (0)

/* Asserts that a Level Zero call returns the given result. */
#define ZT_RESULT(expected, call)                                                \
    do {                                                                         \
        ze_result_t zt_r_ = (call);                                              \
        ck_assert_msg(zt_r_ == (expected), "%s returned 0x%x, expected %s (0x%x)", \
                      #call, (unsigned)zt_r_, #expected, (unsigned)(expected));  \
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

/* A host-visible event pool of count events (flags added to HOST_VISIBLE)
 * and one of its events. */
ze_event_pool_handle_t zt_event_pool(const zt_env_t *env, uint32_t count,
                                     ze_event_pool_flags_t flags);
ze_event_handle_t zt_event(ze_event_pool_handle_t pool, uint32_t index);

/* Runs a Suite with check's runner and returns main's exit status. */
int zt_run_suite(Suite *suite);

#endif
