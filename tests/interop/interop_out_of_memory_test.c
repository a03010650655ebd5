/*
 * Out of memory inside the interop library: each of libzeil_interop.so's
 * allocations in turn is failed by the fault-injecting allocator
 * (tests/common/fault_alloc.c, policy libzeil_interop.so:nth:N), in a
 * process of its own running every interop API function. The call that hit
 * the failure must return dnnl_out_of_memory (and work when tried again),
 * every other call succeed, the process exit normally, the primitive's
 * results be right, zeil refuse nothing, and nothing be left behind: no
 * Level Zero object or USM allocation zeil sees after the teardown (and, in
 * the ASan build, no leaked host memory: LeakSanitizer fails the child).
 * Then libzeil.so's allocations fail instead: the interop library finds
 * handles and USM unknown to an incomplete registry and must let them
 * through, not refuse them.
 */
#include "interop_oom_workload.h"
#include "zl.h"

#include <oneapi/dnnl/dnnl_types.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define OUTPUT_MAX (64 * 1024)

typedef struct run {
    char out[OUTPUT_MAX];
    int out_of_memory; /* calls whose first try returned dnnl_out_of_memory */
    uint64_t live, errors, seen, failed;
} run_t;

static void run_workload(const char *policy, run_t *r)
{
    char fault[128];
    snprintf(fault, sizeof fault, "ZEIL_TEST_FAULT_ALLOC=%s", policy);
    const char *overrides[] = {fault, NULL};
    int status = zl_run_child("workload", overrides, r->out, sizeof r->out);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "%s: the workload did not exit normally (status 0x%x):\n%s", policy,
                  (unsigned)status, r->out);
    ck_assert_msg(!strstr(r->out, "fail "), "%s: something else failed:\n%s", policy, r->out);
    ck_assert_msg(strstr(r->out, "\nvalues ok\n"), "%s: wrong results:\n%s", policy, r->out);
    r->out_of_memory = 0;
    for (const char *line = r->out; *line; line = strchr(line, '\n') + 1) {
        char call[96];
        int first, last;
        if (sscanf(line, "dnnl_ze_interop_%95s %d %d", call, &first, &last) == 3) {
            ck_assert_msg(last == dnnl_success, "%s: dnnl_ze_interop_%s failed (%d)", policy, call,
                          last);
            ck_assert_msg(first == dnnl_success || first == dnnl_out_of_memory,
                          "%s: dnnl_ze_interop_%s returned %d, not dnnl_out_of_memory", policy,
                          call, first);
            r->out_of_memory += first == dnnl_out_of_memory;
        }
        if (!strchr(line, '\n'))
            break;
    }
    const char *live = strstr(r->out, "\nlive "), *faults = strstr(r->out, "\nfaults ");
    ck_assert_msg(live && faults, "%s: output cut:\n%s", policy, r->out);
    sscanf(live, "\nlive %" SCNu64, &r->live);
    const char *errors = strstr(r->out, "\nerrors ");
    ck_assert_ptr_nonnull(errors);
    sscanf(errors, "\nerrors %" SCNu64, &r->errors);
    ck_assert_msg(r->errors == 0, "%s: zeil or the interop library refused %" PRIu64 " calls",
                  policy, r->errors);
    sscanf(faults, "\nfaults %" SCNu64 " %" SCNu64, &r->seen, &r->failed);
    ck_assert_msg(r->live == 0, "%s: %" PRIu64 " Level Zero objects or allocations leaked", policy,
                  r->live);
}

START_TEST(each_allocation_of_the_interop_library_fails_once)
{
    static run_t control, starved;
    run_workload("libzeil_interop.so:count", &control);
    ck_assert_int_eq(control.out_of_memory, 0);
    ck_assert_msg(control.seen > 5, "the allocator saw %" PRIu64 " interop allocations",
                  control.seen);
    for (uint64_t n = 1; n <= control.seen; n++) {
        char policy[64];
        snprintf(policy, sizeof policy, "libzeil_interop.so:nth:%" PRIu64, n);
        run_workload(policy, &starved);
        ck_assert_uint_eq(starved.failed, 1);
        ck_assert_msg(starved.out_of_memory == 1,
                      "%s: %d calls returned dnnl_out_of_memory, expected the one that hit "
                      "the failure:\n%s",
                      policy, starved.out_of_memory, starved.out);
    }
}
END_TEST

/* zeil out of memory under the interop library: the engine's context and
 * device, the stream's list, the USM and the dependency event may all be
 * unknown to zeil, and every interop call must still go through. */
START_TEST(interop_calls_go_through_a_starved_registry)
{
    static run_t starved;
    static const char *const policies[] = {"libzeil.so:after:0", "libzeil.so:every:2",
                                           "libzeil.so:every:5", "libzeil.so:after:30"};
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++) {
        run_workload(policies[i], &starved);
        ck_assert_msg(starved.failed > 0, "%s failed nothing", policies[i]);
        ck_assert_int_eq(starved.out_of_memory, 0);
    }
}
END_TEST

static int workload_mode(void)
{
    return interop_oom_workload_run();
}

int main(int argc, char **argv)
{
    static const zl_child_mode_t modes[] = {{"workload", workload_mode}, {NULL, NULL}};
    zl_child_main(argc, argv, modes);
    Suite *s = suite_create("interop_out_of_memory");
    TCase *tc = tcase_create("starved");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, each_allocation_of_the_interop_library_fails_once);
    tcase_add_test(tc, interop_calls_go_through_a_starved_registry);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
