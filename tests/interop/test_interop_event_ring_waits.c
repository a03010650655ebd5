/*
 * Correct programs that name events of old executes, run to the end: the
 * stream's event ring must never reset an event an appended launch still
 * waits on (that launch, and everything queued behind it, would wait for
 * ever). Run with the layer, without it and with the hazard checks on
 * (tests/interop/CMakeLists.txt, tests/hazards/CMakeLists.txt); threaded.
 */
#include <pthread.h>
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

/* ZEIL_RING_ROUNDS scales the long runs (sanitizer builds run fewer). */
static int rounds(int plain)
{
    const char *v = getenv("ZEIL_RING_ROUNDS");
    return v && atoi(v) > 0 ? atoi(v) : plain;
}

typedef struct ring_fixture {
    ifx_t f;
    dnnl_memory_t src, dst;
    dnnl_primitive_t relu;
    dnnl_exec_arg_t args[2];
} ring_fixture_t;

static void ring_open(ring_fixture_t *r)
{
    ifx_open(&r->f);
    const dnnl_dim_t dims[1] = {16};
    dnnl_memory_desc_t md = ifx_md(1, dims);
    r->src = ifx_memory(&r->f, &md, NULL, NULL);
    r->dst = ifx_memory(&r->f, &md, NULL, NULL);
    r->relu = ifx_eltwise(r->f.engine, &md, dnnl_eltwise_relu, 0, 0);
    r->args[0] = (dnnl_exec_arg_t){DNNL_ARG_SRC, r->src};
    r->args[1] = (dnnl_exec_arg_t){DNNL_ARG_DST, r->dst};
}

static void ring_close(ring_fixture_t *r)
{
    IFX_DNNL_OK(dnnl_primitive_destroy(r->relu));
    IFX_DNNL_OK(dnnl_memory_destroy(r->src));
    IFX_DNNL_OK(dnnl_memory_destroy(r->dst));
    ifx_close(&r->f);
}

static ze_event_handle_t run_args(const ring_fixture_t *r, dnnl_stream_t stream,
                                  dnnl_exec_arg_t *args, int ndeps, const ze_event_handle_t *deps)
{
    ze_event_handle_t done = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_primitive_execute(r->relu, stream, 2, args, ndeps, deps, &done));
    ck_assert_ptr_nonnull(done);
    return done;
}

static ze_event_handle_t run_on(ring_fixture_t *r, dnnl_stream_t stream, int ndeps,
                                const ze_event_handle_t *deps)
{
    return run_args(r, stream, r->args, ndeps, deps);
}

/* Execute #2 waits on a gate and on execute #1's event; 16383 more are
 * queued behind it before the gate opens. */
START_TEST(a_wait_on_an_old_event_behind_a_gate_ends)
{
    ring_fixture_t r;
    ring_open(&r);
    ze_event_pool_handle_t pool = zt_event_pool(&r.f.env, 1, 0);
    ze_event_handle_t gate = zt_event(pool, 0);
    ze_event_handle_t first = run_on(&r, r.f.stream, 0, NULL);
    ze_event_handle_t deps[2] = {gate, first};
    run_on(&r, r.f.stream, 2, deps);
    ze_event_handle_t last = NULL;
    for (int i = 0; i < RING - 1 + 2; i++)
        last = run_on(&r, r.f.stream, 0, NULL);
    ck_assert_int_eq(zeEventQueryStatus(last), ZE_RESULT_NOT_READY);
    ZT_OK(zeEventHostSignal(gate));
    IFX_DNNL_OK(dnnl_stream_wait(r.f.stream));
    ZT_OK(zeEventHostSynchronize(last, UINT64_MAX));
    ZT_OK(zeEventDestroy(gate));
    ZT_OK(zeEventPoolDestroy(pool));
    ring_close(&r);
}
END_TEST

/* Each execute depends on the previous one's event, far past the ring. */
START_TEST(a_chain_of_dependencies_runs_to_the_end)
{
    ring_fixture_t r;
    ring_open(&r);
    for (int round = 0; round < rounds(2); round++) {
        ze_event_handle_t previous = run_on(&r, r.f.stream, 0, NULL);
        for (int i = 0; i < RING + RING / 4; i++)
            previous = run_on(&r, r.f.stream, 1, &previous);
        ZT_OK(zeEventHostSynchronize(previous, UINT64_MAX));
        IFX_DNNL_OK(dnnl_stream_wait(r.f.stream));
    }
    ring_close(&r);
}
END_TEST

/* Waiting only on the newest event of a reused slot: no W154. */
START_TEST(the_newest_event_of_a_slot_is_not_reported)
{
    ring_fixture_t r;
    ring_open(&r);
    uint64_t reported = zeil_rule_count("ZEIL-W154");
    ze_event_handle_t last = NULL;
    for (int i = 0; i < RING + RING / 4; i++)
        last = run_on(&r, r.f.stream, 0, NULL);
    ZT_OK(zeEventHostSynchronize(last, UINT64_MAX));
    ck_assert_uint_eq(zeil_rule_count("ZEIL-W154"), reported);
    ring_close(&r);
}
END_TEST

/* Several streams, each on its own thread, every execute depending on its
 * own previous event and on an event the next stream returned 64 executes
 * ago. */
typedef struct streams_run {
    ring_fixture_t *r;
    dnnl_stream_t stream;
    dnnl_memory_t dst; /* its own: the streams are not ordered among them */
    dnnl_exec_arg_t args[2];
    ze_event_handle_t *mine; /* every event this stream returned, by execute */
    int published;           /* how many of mine are written (atomic) */
    struct streams_run *other;
    int count;
} streams_run_t;

static void *stream_thread(void *arg)
{
    streams_run_t *s = arg;
    ze_event_handle_t previous = NULL;
    for (int i = 0; i < s->count; i++) {
        ze_event_handle_t deps[2];
        int n = 0;
        if (previous)
            deps[n++] = previous;
        int seen = __atomic_load_n(&s->other->published, __ATOMIC_ACQUIRE);
        if (seen > 64)
            deps[n++] = s->other->mine[seen - 64];
        previous = run_args(s->r, s->stream, s->args, n, deps);
        s->mine[i] = previous;
        __atomic_store_n(&s->published, i + 1, __ATOMIC_RELEASE);
    }
    ZT_OK(zeEventHostSynchronize(previous, UINT64_MAX));
    return NULL;
}

START_TEST(many_streams_depending_on_old_events_end)
{
    enum {
        STREAMS = 4
    };
    ring_fixture_t r;
    ring_open(&r);
    int count = (RING + RING / 4) * rounds(1);
    ze_command_list_handle_t lists[STREAMS];
    streams_run_t runs[STREAMS];
    pthread_t threads[STREAMS];
    for (int i = 0; i < STREAMS; i++) {
        lists[i] = ifx_list(&r.f.env, 1);
        runs[i] = (streams_run_t){.r = &r, .other = &runs[(i + 1) % STREAMS], .count = count};
        IFX_DNNL_OK(dnnl_ze_interop_stream_create(&runs[i].stream, r.f.engine, lists[i], 0));
        const dnnl_dim_t dims[1] = {16};
        dnnl_memory_desc_t md = ifx_md(1, dims);
        runs[i].dst = ifx_memory(&r.f, &md, NULL, NULL);
        runs[i].args[0] = r.args[0];
        runs[i].args[1] = (dnnl_exec_arg_t){DNNL_ARG_DST, runs[i].dst};
        runs[i].mine = calloc((size_t)count, sizeof *runs[i].mine);
        ck_assert_ptr_nonnull(runs[i].mine);
    }
    for (int i = 0; i < STREAMS; i++)
        ck_assert_int_eq(pthread_create(&threads[i], NULL, stream_thread, &runs[i]), 0);
    for (int i = 0; i < STREAMS; i++)
        ck_assert_int_eq(pthread_join(threads[i], NULL), 0);
    for (int i = 0; i < STREAMS; i++) {
        IFX_DNNL_OK(dnnl_stream_wait(runs[i].stream));
    }
    for (int i = 0; i < STREAMS; i++) {
        IFX_DNNL_OK(dnnl_stream_destroy(runs[i].stream));
        ZT_OK(zeCommandListDestroy(lists[i]));
        IFX_DNNL_OK(dnnl_memory_destroy(runs[i].dst));
        free(runs[i].mine);
    }
    ring_close(&r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interop_event_ring_waits");
    TCase *tc = tcase_create("event_ring_waits");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, a_wait_on_an_old_event_behind_a_gate_ends);
    tcase_add_test(tc, a_chain_of_dependencies_runs_to_the_end);
    tcase_add_test(tc, the_newest_event_of_a_slot_is_not_reported);
    tcase_add_test(tc, many_streams_depending_on_old_events_end);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
