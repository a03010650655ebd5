/*
 * Misuse the hazard checks find (ZEIL-E090..W095), each run with
 * ZEIL_CHECKS=hazards: a race through a missing or wrong wait, a free before
 * synchronizing, a wait for ever on an event nothing signals, a two-list
 * wait cycle, a timed-out poll, and a kernel's pointer argument racing.
 * Observables: races and hangs are not refused (the work runs, the returned
 * code is success), the refused free leaves the memory usable.
 */
#include "misuse.h"

#include "test_kernels.h"

#include <zeil/zeil.h>

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
    BYTES = 4096
};
static const uint64_t forever = UINT64_MAX;
static const char *const hazards_env[] = {"ZEIL_CHECKS=hazards", NULL};

static void fill_waiting(ze_command_list_handle_t list, void *ptr, ze_event_handle_t signal,
                         ze_event_handle_t wait)
{
    static const uint32_t pattern = 0x5a5a5a5a;
    ZT_OK(zeCommandListAppendMemoryFill(list, ptr, &pattern, sizeof pattern, BYTES, signal,
                                        wait ? 1 : 0, wait ? &wait : NULL));
}

/* The log line of rule that contains every fragment (null-terminated), or
 * fail. */
static void assert_logged(const char *rule, ...)
{
    zeil_flush();
    const char *path = getenv("ZEIL_LOG_FILE");
    ck_assert_ptr_nonnull(path);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char line[4096];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        if (!strstr(line, rule))
            continue;
        found = 1;
        va_list ap;
        va_start(ap, rule);
        for (const char *frag = va_arg(ap, const char *); frag; frag = va_arg(ap, const char *))
            if (!strstr(line, frag))
                found = 0;
        va_end(ap);
    }
    fclose(f);
    ck_assert_msg(found, "no %s line with the expected fragments in %s", rule, path);
}

static void free_before_synchronizing(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_command_list_handle_t list = zt_in_order_list(&f.env);
    void *buffer = zt_usm_alloc(&f.env, ZT_USM_DEVICE, BYTES, 64);
    ze_event_handle_t go = f.event[2], done = f.event[0];
    fill_waiting(list, buffer, done, go); /* held back until the host says go */
    ZT_RESULT(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, zeMemFree(f.env.context, buffer));
    ZT_OK(zeEventHostSignal(go));
    ZT_OK(zeEventHostSynchronize(done, forever));
    misuse_assert_memory_usable(&f, buffer, BYTES); /* the driver never freed it */
}

static void wait_on_event_never_signalled(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_command_list_handle_t list = zt_in_order_list(&f.env);
    void *buffer = zt_usm_alloc(&f.env, ZT_USM_DEVICE, BYTES, 64);
    ze_event_handle_t never = f.event[2], done = f.event[0];
    fill_waiting(list, buffer, done, never);
    zl_late_signal_t s = {never, "ZEIL-W097"};
    pthread_t helper;
    ck_assert_int_eq(pthread_create(&helper, NULL, zl_signal_when_reported, &s), 0);
    ZT_OK(zeEventHostSynchronize(done, forever)); /* blocked, reported, let go */
    pthread_join(helper, NULL);
    ck_assert_uint_eq(zeil_rule_count("ZEIL-W097"), 1);
}

static void two_list_cycle(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_command_list_handle_t a = zt_in_order_list(&f.env), b = zt_in_order_list(&f.env);
    ze_event_handle_t e1 = f.event[0], e2 = f.event[1];
    ZT_OK(zeCommandListAppendBarrier(a, e1, 1, &e2));
    ZT_OK(zeCommandListAppendBarrier(b, e2, 1, &e1)); /* closes the cycle: not refused */
    ck_assert(!zl_signalled(e1) && !zl_signalled(e2));
    ZT_OK(zeEventHostSignal(e2)); /* the host breaks it */
    ZT_OK(zeEventHostSynchronize(e1, forever));
}

static void poll_times_out(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_command_list_handle_t list = zt_in_order_list(&f.env);
    void *buffer = zt_usm_alloc(&f.env, ZT_USM_DEVICE, BYTES, 64);
    ze_event_handle_t never = f.event[2], done = f.event[0];
    fill_waiting(list, buffer, done, never);
    for (int i = 0; i < 3; i++)
        ZT_RESULT(ZE_RESULT_NOT_READY, zeEventHostSynchronize(done, 1000 * 1000));
    ck_assert_uint_eq(zeil_rule_count("ZEIL-W095"), 1); /* said once */
    ZT_OK(zeEventHostSignal(never));
    ZT_OK(zeEventHostSynchronize(done, forever));
}

static void kernel_argument_race(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_command_list_handle_t a = zt_in_order_list(&f.env), b = zt_in_order_list(&f.env);
    uint64_t *stamp;
    ze_kernel_handle_t k = misuse_stamp_kernel(&f, &stamp);
    static const uint64_t zero = 0;
    /* Held back until the launch is done: a race to Level Zero's order, not
     * one the driver runs. */
    ze_event_handle_t go = f.event[2];
    ZT_OK(zeCommandListAppendMemoryFill(a, stamp, &zero, sizeof zero, sizeof zero, f.event[0], 1,
                                        &go));
    ZT_OK(zeCommandListAppendLaunchKernel(b, k, &misuse_one_group, f.event[1], 0, NULL));
    ZT_OK(zeEventHostSynchronize(f.event[1], forever)); /* the launch ran */
    ck_assert_uint_ne(*stamp, 0);
    ZT_OK(zeEventHostSignal(go));
    ZT_OK(zeEventHostSynchronize(f.event[0], forever));
    assert_logged("[ZEIL-W091]", "kernel 'stamp' on list", "may read or write", NULL);
}

/* The demo with the wait of stream B on stream A's ReLU removed. */
static void demo_without_wait(void)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        execl(ZEIL_MISUSE_DEMO_NET, "zeil_demo_net", "2", "--drop-wait", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) != 127);
    /* Both primitives named, the reader on stream B and the writer on A. */
    assert_logged("[ZEIL-E090] zeCommandListAppendLaunchKernel: inner_product on stream 0x",
                  "reads 0x", "written by eltwise on stream 0x", "with no event between them",
                  NULL);
}

static const misuse_case_t cases[] = {
    {"hazard_free_before_synchronizing", "ZEIL-E092", free_before_synchronizing, hazards_env},
    {"hazard_wait_on_event_never_signalled", "ZEIL-W097", wait_on_event_never_signalled,
     hazards_env},
    {"hazard_two_list_cycle", "ZEIL-E093", two_list_cycle, hazards_env},
    {"hazard_poll_times_out", "ZEIL-W095", poll_times_out, hazards_env},
    {"hazard_kernel_argument_race", "ZEIL-W091", kernel_argument_race, hazards_env},
    {"hazard_demo_without_wait", "ZEIL-E090", demo_without_wait, hazards_env},
};

misuse_case_list_t misuse_hazard_cases(void)
{
    return MISUSE_LIST(cases);
}
