/*
 * Returned events, sized as oneDNN sizes them: oneDNN gives each Level Zero
 * stream one pool of 16384 events and keeps every event valid until the
 * stream is destroyed, so a program that works on oneDNN never holds more
 * than 16384 events of a stream. On zeil each of a stream's first 16384
 * executes returns an event of its own; the 16385th reuses the slot of the
 * first once nothing waits on it. Naming the reused event is W154 only when
 * the program cannot mean the newest execute: one that did not return it
 * (dnnl_primitive_execute). Hangs that reuse caused: test_interop_event_ring_waits.c.
 */
#include <stdlib.h>
#include <string.h>

#include "interop_fixture.h"

/* The ring's size: oneDNN's 16384, or ZEIL_INTEROP_EVENT_RING (sanitizer
 * builds shorten it, tests/interop/CMakeLists.txt). */
static int ring_size(void)
{
    const char *v = getenv("ZEIL_INTEROP_EVENT_RING");
    return v && atoi(v) >= 16 && atoi(v) <= 16384 ? atoi(v) : 16384;
}
#define RING ring_size()

static ze_event_handle_t run(const ifx_t *f, dnnl_primitive_t relu, dnnl_exec_arg_t *args,
                             int ndeps, const ze_event_handle_t *deps)
{
    ze_event_handle_t done = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_primitive_execute(relu, f->stream, 2, args, ndeps, deps, &done));
    ck_assert_ptr_nonnull(done);
    return done;
}

START_TEST(events_name_their_execute_until_the_ring_wraps)
{
    ifx_t f;
    ifx_open(&f);
    const dnnl_dim_t dims[1] = {16};
    dnnl_memory_desc_t md = ifx_md(1, dims);
    dnnl_memory_t src = ifx_memory(&f, &md, NULL, NULL), dst = ifx_memory(&f, &md, NULL, NULL);
    dnnl_primitive_t relu = ifx_eltwise(f.engine, &md, dnnl_eltwise_relu, 0, 0);
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
    zeil_live_counts_t before, after;
    IFX_DNNL_OK(dnnl_stream_wait(f.stream)); /* its own event (a barrier's) counted before */
    zeil_get_live_counts(&before);
    ze_event_handle_t first = run(&f, relu, args, 0, NULL), last = NULL;
    for (int i = 1; i < RING; i++) {
        last = run(&f, relu, args, 0, NULL);
        ck_assert_ptr_ne(last, first);
    }
    zeil_get_live_counts(&after);
    ck_assert_uint_eq(after.handles[ZEIL_KIND_EVENT] - before.handles[ZEIL_KIND_EVENT], RING);
    /* execute #16385 reuses the first slot once execute #1 is done; its
     * dependency on the first event (still its own when named: silent) has
     * completed, and does not make the launch wait on itself */
    IFX_DNNL_OK(dnnl_stream_wait(f.stream));
    uint64_t reported = zeil_rule_count("ZEIL-W154");
    ze_event_handle_t reused = run(&f, relu, args, 1, &first);
    ck_assert_ptr_eq(reused, first);
    ck_assert_uint_eq(zeil_rule_count("ZEIL-W154"), reported);
    /* the program was given the event again by execute #16385: naming it
     * means that execute, as it is now (no false W154) */
    ifx_wait(reused);
    ze_event_handle_t again = run(&f, relu, args, 1, &reused);
    ZT_OK(zeEventHostSynchronize(again, UINT64_MAX));
    ck_assert_uint_eq(zeil_rule_count("ZEIL-W154"), reported);
    /* dnnl_primitive_execute returns no event: once one of them reuses the
     * slot, the handle can only mean the older execute (W154, with both) */
    IFX_DNNL_OK(dnnl_stream_wait(f.stream));
    for (int i = 0; i < RING; i++)
        IFX_DNNL_OK(dnnl_primitive_execute(relu, f.stream, 2, args));
    ZT_OK(zeEventHostSynchronize(reused, UINT64_MAX));
    ck_assert_uint_eq(zeil_rule_count("ZEIL-W154"), reported + 1);
    IFX_DNNL_OK(dnnl_stream_wait(f.stream)); /* the oldest slot free again: no growth */
    ze_event_handle_t later = run(&f, relu, args, 1, &reused);
    ck_assert_uint_eq(zeil_rule_count("ZEIL-W154"), reported + 2);
    ck_assert_ptr_ne(later, reused);
    /* the event count stays at the ring's size */
    zeil_get_live_counts(&after);
    ck_assert_uint_eq(after.handles[ZEIL_KIND_EVENT] - before.handles[ZEIL_KIND_EVENT], RING);
    IFX_DNNL_OK(dnnl_stream_wait(f.stream));
    IFX_DNNL_OK(dnnl_primitive_destroy(relu));
    IFX_DNNL_OK(dnnl_memory_destroy(src));
    IFX_DNNL_OK(dnnl_memory_destroy(dst));
    ifx_close(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interop_event_ring");
    TCase *tc = tcase_create("event_ring");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, events_name_their_execute_until_the_ring_wraps);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
