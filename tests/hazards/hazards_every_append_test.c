/*
 * Every entry that appends work, of every table zeil knows (the generated
 * zeil_hazard_cases, as the every-entry test walks zeil_entry_cases), called
 * through zeil's intercept with the hazard checks on and a next driver whose
 * appends accept the call and do nothing. For each the checks must see:
 *  - its signal event as signalled by it: a timed-out poll of that event,
 *    whose append waited only on an event the host signalled, is no hang
 *    (no W095);
 *  - its wait events as waits: a signal appended after it on the same
 *    in-order list, polled, is a hang through the wait nothing signals
 *    (W095 naming that event).
 * An entry the checks did not hear of would leave its event unsignalled for
 * ever (a false E094, E090, E092 in a correct program).
 */
#include "zl.h"
#include "zt.h"
#include "test_kernels.h"

#include "zeil_entry_cases.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static zeil_next_t stub_next;
static unsigned char scratch[4096] __attribute__((aligned(64)));

static ze_result_t ZE_APICALL not_ready(ze_event_handle_t event, uint64_t timeout)
{
    (void)event, (void)timeout;
    return ZE_RESULT_NOT_READY;
}

/* zeil's zeEventHostSynchronize with a finite timeout that expired. */
static void poll_expired(const zeil_intercepts_t *t, ze_event_handle_t event)
{
    ck_assert_int_eq(t->zeEventHostSynchronize(&stub_next, event, 1000), ZE_RESULT_NOT_READY);
}

enum {
    EVENTS_PER_CASE = 5
};

START_TEST(every_append_tells_the_hazard_checks_its_signal_and_waits)
{
    zl_fixture_t f;
    zl_open(&f);
    zeil_hazard_stubs(&stub_next);
    stub_next.ddi_ze_event_dditable_t.pfnHostSynchronize = not_ready;
    const zeil_intercepts_t *t = zeil_shim_intercepts();
    ck_assert_ptr_nonnull(t);
    size_t cases = sizeof zeil_hazard_cases / sizeof zeil_hazard_cases[0];
    ze_event_pool_handle_t pool = zt_event_pool(&f.env, (uint32_t)(cases * EVENTS_PER_CASE), 0);
    uint64_t *stamp = zt_usm_alloc(&f.env, ZT_USM_HOST, sizeof *stamp, 0);
    ze_kernel_handle_t kernel = zt_kernel(f.module, TK_STAMP);
    ZT_ARG(kernel, 0, stamp);
    ZT_OK(zeKernelSetGroupSize(kernel, 1, 1, 1));
    ck_assert_uint_gt(cases, 20);
    ze_event_handle_t *all = calloc(cases * EVENTS_PER_CASE, sizeof *all);
    ck_assert_ptr_nonnull(all);
    for (size_t i = 0; i < cases; i++) {
        const zeil_hazard_case_t *c = &zeil_hazard_cases[i];
        ze_event_handle_t *ev = &all[i * EVENTS_PER_CASE];
        for (uint32_t k = 0; k < EVENTS_PER_CASE; k++)
            ev[k] = zt_event(pool, (uint32_t)i * EVENTS_PER_CASE + k);
        ze_event_handle_t done = ev[0], signal = ev[1], never = ev[2], later = ev[3];
        ze_command_list_handle_t list = zt_in_order_list(&f.env);
        ZT_OK(zeEventHostSignal(done));
        if (c->has_signal) {
            uint64_t before = zeil_rule_count("ZEIL-W095");
            ze_result_t r =
                c->call(t, &stub_next, list, kernel, signal, c->has_waits, &done, scratch);
            ck_assert_msg(r == ZE_RESULT_SUCCESS, "%s returned 0x%x", c->api, (unsigned)r);
            poll_expired(t, signal);
            ck_assert_msg(zeil_rule_count("ZEIL-W095") == before,
                          "%s: the hazard checks did not see its signal event signalled", c->api);
        }
        if (c->has_waits) {
            uint64_t before = zeil_rule_count("ZEIL-W095");
            ze_result_t r = c->call(t, &stub_next, list, kernel, c->has_signal ? ev[4] : NULL, 1,
                                    &never, scratch);
            ck_assert_msg(r == ZE_RESULT_SUCCESS, "%s returned 0x%x", c->api, (unsigned)r);
            ck_assert_int_eq(t->zeCommandListAppendSignalEvent(&stub_next, list, later),
                             ZE_RESULT_SUCCESS);
            poll_expired(t, later);
            ck_assert_msg(zeil_rule_count("ZEIL-W095") == before + 1,
                          "%s: the hazard checks did not see its wait event as a wait", c->api);
            ZT_OK(zeEventHostSignal(never));
        }
        ZT_OK(zeCommandListDestroy(list));
    }
    for (size_t i = 0; i < cases * EVENTS_PER_CASE; i++)
        ZT_OK(zeEventDestroy(all[i]));
    free(all);
    ZT_OK(zeKernelDestroy(kernel));
    ZT_OK(zeMemFree(f.env.context, stamp));
    ZT_OK(zeEventPoolDestroy(pool));
    zl_close(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("hazards_every_append");
    TCase *tc = tcase_create("every_append");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_append_tells_the_hazard_checks_its_signal_and_waits);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
