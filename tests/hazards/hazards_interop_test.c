/*
 * The hazard checks on oneDNN streams through the interop library
 * (ZEIL_CHECKS=hazards): the accesses the library declares for each execute
 * make races between streams errors naming both primitives, and the ways a
 * program orders two streams (an event, stream::wait) keep them silent.
 */
#include "interop_fixture.h"

#include <oneapi/dnnl/dnnl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct two_streams {
    ifx_t f;
    ze_command_list_handle_t list_b;
    dnnl_stream_t b;
    dnnl_memory_desc_t md;
    dnnl_primitive_t relu;
    dnnl_memory_t m[3];
    float *ptr[3];
} two_streams_t;

static void open_two(two_streams_t *t)
{
    ifx_open(&t->f);
    t->list_b = ifx_list(&t->f.env, 1);
    IFX_DNNL_OK(dnnl_ze_interop_stream_create(&t->b, t->f.engine, t->list_b, 0));
    const dnnl_dim_t dims[] = {2, 8, 4, 4};
    t->md = ifx_md(4, dims);
    t->relu = ifx_eltwise(t->f.engine, &t->md, dnnl_eltwise_relu, 0.f, 0.f);
    for (int i = 0; i < 3; i++)
        t->m[i] = ifx_memory(&t->f, &t->md, NULL, &t->ptr[i]);
}

static void close_two(two_streams_t *t)
{
    IFX_DNNL_OK(dnnl_stream_wait(t->f.stream));
    IFX_DNNL_OK(dnnl_stream_wait(t->b));
    for (int i = 0; i < 3; i++) {
        IFX_DNNL_OK(dnnl_memory_destroy(t->m[i]));
        ZT_OK(zeMemFree(t->f.env.context, t->ptr[i]));
    }
    IFX_DNNL_OK(dnnl_primitive_destroy(t->relu));
    IFX_DNNL_OK(dnnl_stream_destroy(t->b));
    ZT_OK(zeCommandListDestroy(t->list_b));
    ifx_close(&t->f);
}

static ze_event_handle_t relu(two_streams_t *t, dnnl_stream_t stream, int src, int dst,
                              ze_event_handle_t wait)
{
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, t->m[src]}, {DNNL_ARG_DST, t->m[dst]}};
    ze_event_handle_t done = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_primitive_execute(t->relu, stream, 2, args, wait ? 1 : 0,
                                                  wait ? &wait : NULL, &done));
    return done;
}

static uint64_t hazard_findings(void)
{
    static const char *const rules[] = {"ZEIL-E090", "ZEIL-W091", "ZEIL-E092", "ZEIL-E093",
                                        "ZEIL-E094", "ZEIL-W095", "ZEIL-W096"};
    uint64_t n = 0;
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        n += zeil_rule_count(rules[i]);
    return n;
}

START_TEST(checks_are_on)
{
    ck_assert_int_eq(zeil_hazards_enabled(), 1);
}
END_TEST

START_TEST(stream_wait_between_streams_is_silent)
{
    two_streams_t t;
    open_two(&t);
    for (int i = 0; i < 4; i++) {
        relu(&t, t.f.stream, 0, 1, NULL);
        IFX_DNNL_OK(dnnl_stream_wait(t.f.stream)); /* B may read what A wrote */
        relu(&t, t.b, 1, 2, NULL);
        IFX_DNNL_OK(dnnl_stream_wait(t.b)); /* and A may write what B read */
    }
    close_two(&t);
    ck_assert_uint_eq(hazard_findings(), 0);
}
END_TEST

START_TEST(events_between_streams_are_silent)
{
    two_streams_t t;
    open_two(&t);
    ze_event_handle_t b_done = NULL;
    for (int i = 0; i < 20; i++) { /* more than the library's event ring keeps */
        ze_event_handle_t a_done = relu(&t, t.f.stream, 0, 1, b_done);
        b_done = relu(&t, t.b, 1, 2, a_done);
    }
    close_two(&t);
    ck_assert_uint_eq(hazard_findings(), 0);
}
END_TEST

START_TEST(in_place_on_one_stream_is_silent)
{
    two_streams_t t;
    open_two(&t);
    for (int i = 0; i < 8; i++)
        relu(&t, t.f.stream, 1, 1, NULL);
    close_two(&t);
    ck_assert_uint_eq(hazard_findings(), 0);
}
END_TEST

START_TEST(race_between_streams_names_both_primitives)
{
    two_streams_t t;
    open_two(&t);
    /* A's relu is held back until B's is done: a race to Level Zero's order,
     * yet not one the driver runs (TSan would see that one). */
    ze_event_pool_handle_t pool = zt_event_pool(&t.f.env, 1, 0);
    ze_event_handle_t go = zt_event(pool, 0);
    relu(&t, t.f.stream, 0, 1, go);
    uint64_t before = zeil_rule_count("ZEIL-E090");
    ze_event_handle_t done = relu(&t, t.b, 1, 2, NULL); /* reads m[1] with no event */
    ck_assert_ptr_nonnull(done);                        /* reported, not refused */
    ck_assert_uint_eq(zeil_rule_count("ZEIL-E090"), before + 1);
    ifx_wait(done);
    ZT_OK(zeEventHostSignal(go));
    IFX_DNNL_OK(dnnl_stream_wait(t.f.stream));
    ZT_OK(zeEventDestroy(go));
    ZT_OK(zeEventPoolDestroy(pool));
    close_two(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("hazards_interop");
    TCase *tc = tcase_create("streams");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, checks_are_on);
    tcase_add_test(tc, stream_wait_between_streams_is_silent);
    tcase_add_test(tc, events_between_streams_are_silent);
    tcase_add_test(tc, in_place_on_one_stream_is_silent);
    tcase_add_test(tc, race_between_streams_names_both_primitives);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
