/* dnnl_ze_interop_primitive_execute with the layer active: numerical results
 * of ReLU, matmul and convolution on device USM, asynchrony and events across
 * two streams, the layer's per-stream records, and every refusal. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interop_fixture.h"

/* oneDNN has no nhandles == 0: DNNL_MEMORY_ALLOCATE asks for a buffer. */
static void *allocate = DNNL_MEMORY_ALLOCATE;

static ze_event_handle_t execute(const ifx_t *f, dnnl_primitive_t primitive, int nargs,
                                 const dnnl_exec_arg_t *args, int ndeps,
                                 const ze_event_handle_t *deps)
{
    ze_event_handle_t done = NULL;
    IFX_DNNL_OK(
        dnnl_ze_interop_primitive_execute(primitive, f->stream, nargs, args, ndeps, deps, &done));
    ck_assert_ptr_nonnull(done);
    return done;
}

static float *ramp(size_t n, float scale, float offset)
{
    float *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = (float)((int)(i % 37) - 18) * scale + offset;
    return v;
}

START_TEST(relu_result_matches)
{
    ifx_t f;
    ifx_open(&f);
    const dnnl_dim_t dims[4] = {1, 16, 8, 8};
    dnnl_memory_desc_t md = ifx_md(4, dims);
    size_t n = 16 * 8 * 8;
    float *x = ramp(n, 0.5f, 0.25f), *src = NULL, *dst = NULL;
    dnnl_memory_t msrc = ifx_memory(&f, &md, x, &src), mdst = ifx_memory(&f, &md, NULL, &dst);
    dnnl_primitive_t relu = ifx_eltwise(f.engine, &md, dnnl_eltwise_relu, 0, 0);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, msrc}, {DNNL_ARG_DST, mdst}};
    ifx_wait(execute(&f, relu, 2, args, 0, NULL));
    for (size_t i = 0; i < n; i++)
        ck_assert_float_eq(dst[i], x[i] > 0 ? x[i] : 0.0f);
    IFX_DNNL_OK(dnnl_primitive_destroy(relu));
    IFX_DNNL_OK(dnnl_memory_destroy(msrc));
    IFX_DNNL_OK(dnnl_memory_destroy(mdst));
    zeMemFree(f.env.context, src), zeMemFree(f.env.context, dst), free(x);
    ifx_close(&f);
}
END_TEST

START_TEST(matmul_result_matches)
{
    ifx_t f;
    ifx_open(&f);
    enum {
        M = 8,
        K = 16,
        N = 4
    };
    const dnnl_dim_t a_dims[2] = {M, K}, b_dims[2] = {K, N}, c_dims[2] = {M, N};
    dnnl_memory_desc_t a_md = ifx_md(2, a_dims), b_md = ifx_md(2, b_dims), c_md = ifx_md(2, c_dims);
    float *a = ramp(M * K, 0.25f, 0), *b = ramp(K * N, -0.5f, 1), *pc = NULL;
    dnnl_memory_t ma = ifx_memory(&f, &a_md, a, NULL), mb = ifx_memory(&f, &b_md, b, NULL);
    dnnl_memory_t mc = ifx_memory(&f, &c_md, NULL, &pc);
    dnnl_matmul_desc_t desc;
    IFX_DNNL_OK(dnnl_matmul_desc_init(&desc, &a_md, &b_md, NULL, &c_md));
    dnnl_primitive_desc_t pd = NULL;
    IFX_DNNL_OK(dnnl_primitive_desc_create(&pd, &desc, NULL, f.engine, NULL));
    dnnl_primitive_t matmul = NULL;
    IFX_DNNL_OK(dnnl_primitive_create(&matmul, pd));
    IFX_DNNL_OK(dnnl_primitive_desc_destroy(pd));
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, ma}, {DNNL_ARG_WEIGHTS, mb}, {DNNL_ARG_DST, mc}};
    ifx_wait(execute(&f, matmul, 3, args, 0, NULL));
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float expect = 0;
            for (int k = 0; k < K; k++)
                expect += a[i * K + k] * b[k * N + j];
            ck_assert_float_eq_tol(pc[i * N + j], expect, 1e-3f);
        }
    IFX_DNNL_OK(dnnl_primitive_destroy(matmul));
    IFX_DNNL_OK(dnnl_memory_destroy(ma));
    IFX_DNNL_OK(dnnl_memory_destroy(mb));
    IFX_DNNL_OK(dnnl_memory_destroy(mc));
    free(a), free(b);
    ifx_close(&f);
}
END_TEST

START_TEST(convolution_result_matches)
{
    ifx_t f;
    ifx_open(&f);
    enum {
        IC = 2,
        OC = 3,
        H = 5,
        W = 5
    };
    const dnnl_dim_t s_dims[4] = {1, IC, H, W}, w_dims[4] = {OC, IC, 3, 3}, b_dims[1] = {OC},
                     d_dims[4] = {1, OC, H, W};
    dnnl_memory_desc_t s_md = ifx_md(4, s_dims), w_md = ifx_md(4, w_dims), b_md = ifx_md(1, b_dims),
                       d_md = ifx_md(4, d_dims);
    float *src = ramp(IC * H * W, 0.1f, 0), *wei = ramp(OC * IC * 9, 0.05f, 0.01f);
    float bias[OC] = {0.5f, -1.0f, 2.0f}, *dst = NULL;
    dnnl_memory_t ms = ifx_memory(&f, &s_md, src, NULL), mw = ifx_memory(&f, &w_md, wei, NULL),
                  mb = ifx_memory(&f, &b_md, bias, NULL), md = ifx_memory(&f, &d_md, NULL, &dst);
    const dnnl_dims_t strides = {1, 1}, pad = {1, 1};
    dnnl_convolution_desc_t desc;
    IFX_DNNL_OK(dnnl_convolution_forward_desc_init(&desc, dnnl_forward_inference,
                                                   dnnl_convolution_direct, &s_md, &w_md, &b_md,
                                                   &d_md, strides, pad, pad));
    dnnl_primitive_desc_t pd = NULL;
    IFX_DNNL_OK(dnnl_primitive_desc_create(&pd, &desc, NULL, f.engine, NULL));
    dnnl_primitive_t conv = NULL;
    IFX_DNNL_OK(dnnl_primitive_create(&conv, pd));
    IFX_DNNL_OK(dnnl_primitive_desc_destroy(pd));
    dnnl_exec_arg_t args[] = {
        {DNNL_ARG_SRC, ms}, {DNNL_ARG_WEIGHTS, mw}, {DNNL_ARG_BIAS, mb}, {DNNL_ARG_DST, md}};
    ifx_wait(execute(&f, conv, 4, args, 0, NULL));
    for (int oc = 0; oc < OC; oc++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                float expect = bias[oc];
                for (int ic = 0; ic < IC; ic++)
                    for (int ky = 0; ky < 3; ky++)
                        for (int kx = 0; kx < 3; kx++) {
                            int iy = y + ky - 1, ix = x + kx - 1;
                            if (iy < 0 || iy >= H || ix < 0 || ix >= W)
                                continue;
                            expect += src[(ic * H + iy) * W + ix] *
                                      wei[((oc * IC + ic) * 3 + ky) * 3 + kx];
                        }
                ck_assert_float_eq_tol(dst[(oc * H + y) * W + x], expect, 1e-4f);
            }
    IFX_DNNL_OK(dnnl_primitive_destroy(conv));
    IFX_DNNL_OK(dnnl_memory_destroy(ms));
    IFX_DNNL_OK(dnnl_memory_destroy(mw));
    IFX_DNNL_OK(dnnl_memory_destroy(mb));
    IFX_DNNL_OK(dnnl_memory_destroy(md));
    free(src), free(wei);
    ifx_close(&f);
}
END_TEST

typedef struct seen_records {
    int count;
    char primitive[8][32];
    char impl[8][64];
} seen_records_t;

static int collect(const zeil_record_t *record, void *user)
{
    seen_records_t *seen = user;
    if (record->kind != ZEIL_RECORD_LAUNCH || seen->count == 8)
        return 0;
    snprintf(seen->primitive[seen->count], 32, "%s", record->primitive ? record->primitive : "");
    snprintf(seen->impl[seen->count], 64, "%s", record->impl ? record->impl : "");
    seen->count++;
    return 0;
}

static dnnl_primitive_t binary_add(dnnl_engine_t engine, const dnnl_memory_desc_t *md)
{
    dnnl_binary_desc_t desc;
    IFX_DNNL_OK(dnnl_binary_desc_init(&desc, dnnl_binary_add, md, md, md));
    dnnl_primitive_desc_t pd = NULL;
    IFX_DNNL_OK(dnnl_primitive_desc_create(&pd, &desc, NULL, engine, NULL));
    dnnl_primitive_t primitive = NULL;
    IFX_DNNL_OK(dnnl_primitive_create(&primitive, pd));
    IFX_DNNL_OK(dnnl_primitive_desc_destroy(pd));
    return primitive;
}

/* relu (stream A) -> add (stream B) -> linear (stream A), joined by events;
 * the chain waits on a user event, so nothing can have run when execute
 * returns. */
START_TEST(chain_across_two_streams_is_asynchronous_and_recorded)
{
    ifx_t f;
    ifx_open(&f);
    ze_command_list_handle_t list_b = ifx_list(&f.env, 1);
    dnnl_stream_t stream_b = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_stream_create(&stream_b, f.engine, list_b, 0));
    const dnnl_dim_t dims[4] = {4, 16, 64, 64};
    dnnl_memory_desc_t md = ifx_md(4, dims);
    size_t n = 4 * 16 * 64 * 64;
    float *x = ramp(n, 1.0f, 0.5f), *out = NULL;
    dnnl_memory_t m0 = ifx_memory(&f, &md, x, NULL), m1 = ifx_memory(&f, &md, NULL, NULL),
                  m2 = ifx_memory(&f, &md, NULL, NULL), m3 = ifx_memory(&f, &md, NULL, &out);
    dnnl_primitive_t relu = ifx_eltwise(f.engine, &md, dnnl_eltwise_relu, 0, 0);
    dnnl_primitive_t add = binary_add(f.engine, &md);
    dnnl_primitive_t linear = ifx_eltwise(f.engine, &md, dnnl_eltwise_linear, -1.0f, 3.0f);

    ze_event_pool_handle_t pool = zt_event_pool(&f.env, 1, 0);
    ze_event_handle_t gate = zt_event(pool, 0);
    dnnl_exec_arg_t a1[] = {{DNNL_ARG_SRC, m0}, {DNNL_ARG_DST, m1}};
    dnnl_exec_arg_t a2[] = {{DNNL_ARG_SRC_0, m1}, {DNNL_ARG_SRC_1, m1}, {DNNL_ARG_DST, m2}};
    dnnl_exec_arg_t a3[] = {{DNNL_ARG_SRC, m2}, {DNNL_ARG_DST, m3}};
    ze_event_handle_t e1 = NULL, e2 = NULL, e3 = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_primitive_execute(relu, f.stream, 2, a1, 1, &gate, &e1));
    IFX_DNNL_OK(dnnl_ze_interop_primitive_execute(add, stream_b, 3, a2, 1, &e1, &e2));
    IFX_DNNL_OK(dnnl_ze_interop_primitive_execute(linear, f.stream, 2, a3, 1, &e2, &e3));
    ck_assert_int_eq(zeEventQueryStatus(e1), ZE_RESULT_NOT_READY);
    ck_assert_int_eq(zeEventQueryStatus(e2), ZE_RESULT_NOT_READY);
    ck_assert_int_eq(zeEventQueryStatus(e3), ZE_RESULT_NOT_READY);
    ZT_OK(zeEventHostSignal(gate));
    ifx_wait(e3);
    ck_assert_int_eq(zeEventQueryStatus(e1), ZE_RESULT_SUCCESS);
    for (size_t i = 0; i < n; i++) {
        float relu_x = x[i] > 0 ? x[i] : 0.0f;
        ck_assert_float_eq_tol(out[i], 3.0f - 2.0f * relu_x, 1e-4f);
    }

    seen_records_t a = {0}, b = {0};
    zeil_records_of_stream((uint64_t)(uintptr_t)f.stream, collect, &a);
    zeil_records_of_stream((uint64_t)(uintptr_t)stream_b, collect, &b);
    ck_assert_int_eq(a.count, 2);
    ck_assert_str_eq(a.primitive[0], "eltwise");
    ck_assert_str_eq(a.impl[0], ifx_impl(relu));
    ck_assert_str_eq(a.primitive[1], "eltwise");
    ck_assert_str_eq(a.impl[1], ifx_impl(linear));
    ck_assert_int_eq(b.count, 1);
    ck_assert_str_eq(b.primitive[0], "binary");
    ck_assert_str_eq(b.impl[0], ifx_impl(add));

    IFX_DNNL_OK(dnnl_primitive_destroy(relu));
    IFX_DNNL_OK(dnnl_primitive_destroy(add));
    IFX_DNNL_OK(dnnl_primitive_destroy(linear));
    dnnl_memory_t all[] = {m0, m1, m2, m3};
    for (int i = 0; i < 4; i++)
        IFX_DNNL_OK(dnnl_memory_destroy(all[i]));
    IFX_DNNL_OK(dnnl_stream_destroy(stream_b));
    ZT_OK(zeCommandListDestroy(list_b));
    ZT_OK(zeEventDestroy(gate));
    ZT_OK(zeEventPoolDestroy(pool));
    free(x);
    ifx_close(&f);
}
END_TEST

START_TEST(stream_wait_waits_for_executes)
{
    ifx_t f;
    ifx_open(&f);
    const dnnl_dim_t dims[4] = {2, 16, 64, 64};
    dnnl_memory_desc_t md = ifx_md(4, dims);
    dnnl_memory_t m0 = NULL, m1 = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_memory_create(&m0, &md, f.engine, 1, &allocate));
    IFX_DNNL_OK(dnnl_ze_interop_memory_create(&m1, &md, f.engine, 1, &allocate));
    dnnl_primitive_t relu = ifx_eltwise(f.engine, &md, dnnl_eltwise_relu, 0, 0);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, m0}, {DNNL_ARG_DST, m1}};
    ze_event_handle_t last = NULL;
    for (int i = 0; i < 4; i++)
        last = execute(&f, relu, 2, args, 0, NULL);
    IFX_DNNL_OK(dnnl_stream_wait(f.stream));
    ck_assert_int_eq(zeEventQueryStatus(last), ZE_RESULT_SUCCESS);
    IFX_DNNL_OK(dnnl_primitive_destroy(relu));
    IFX_DNNL_OK(dnnl_memory_destroy(m0));
    IFX_DNNL_OK(dnnl_memory_destroy(m1));
    ifx_close(&f);
}
END_TEST

/* As oneDNN: every execute returns an event of its own (the stream keeps up
 * to 16384; test_interop_event_ring covers reuse past that). */
START_TEST(many_executes_return_their_own_events)
{
    ifx_t f;
    ifx_open(&f);
    const dnnl_dim_t dims[2] = {4, 8};
    dnnl_memory_desc_t md = ifx_md(2, dims);
    float *x = ramp(32, 1.0f, 0), *dst = NULL;
    dnnl_memory_t m0 = ifx_memory(&f, &md, x, NULL), m1 = ifx_memory(&f, &md, NULL, &dst);
    dnnl_primitive_t relu = ifx_eltwise(f.engine, &md, dnnl_eltwise_relu, 0, 0);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, m0}, {DNNL_ARG_DST, m1}};
    for (int i = 0; i < 300; i++)
        ifx_wait(execute(&f, relu, 2, args, 0, NULL));
    zeil_live_counts_t counts;
    zeil_get_live_counts(&counts);
    ck_assert_uint_eq(counts.handles[ZEIL_KIND_EVENT], 300);
    for (int i = 0; i < 32; i++)
        ck_assert_float_eq(dst[i], x[i] > 0 ? x[i] : 0.0f);
    IFX_DNNL_OK(dnnl_primitive_destroy(relu));
    IFX_DNNL_OK(dnnl_memory_destroy(m0));
    IFX_DNNL_OK(dnnl_memory_destroy(m1));
    free(x);
    ifx_close(&f);
}
END_TEST

typedef struct worker_job {
    ifx_t *f;
    dnnl_primitive_t primitive;
    dnnl_memory_t src, dst;
    float *dst_ptr;
    const float *expect;
    int failures;
} worker_job_t;

static void *execute_many(void *arg)
{
    worker_job_t *job = arg;
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, job->src}, {DNNL_ARG_DST, job->dst}};
    for (int i = 0; i < 40; i++) {
        ze_event_handle_t done = NULL;
        if (dnnl_ze_interop_primitive_execute(job->primitive, job->f->stream, 2, args, 0, NULL,
                                              &done) != dnnl_success ||
            zeEventHostSynchronize(done, UINT64_MAX) != ZE_RESULT_SUCCESS)
            job->failures++;
    }
    for (int i = 0; i < 64; i++)
        job->failures += job->dst_ptr[i] != job->expect[i];
    return NULL;
}

/* Two threads on one stream: the stream's kernel object is never shared
 * unsafely (each launch runs its own packet). */
START_TEST(threads_executing_on_one_stream_get_their_own_results)
{
    ifx_t f;
    ifx_open(&f);
    const dnnl_dim_t dims[2] = {8, 8};
    dnnl_memory_desc_t md = ifx_md(2, dims);
    float *x = ramp(64, 1.0f, 0.5f), relu_x[64], linear_x[64];
    for (int i = 0; i < 64; i++)
        relu_x[i] = x[i] > 0 ? x[i] : 0, linear_x[i] = 2 * x[i];
    worker_job_t jobs[2];
    for (int t = 0; t < 2; t++) {
        jobs[t] =
            (worker_job_t){&f,
                           ifx_eltwise(f.engine, &md, t ? dnnl_eltwise_linear : dnnl_eltwise_relu,
                                       t ? 2.0f : 0.0f, 0),
                           ifx_memory(&f, &md, x, NULL),
                           NULL,
                           NULL,
                           t ? linear_x : relu_x,
                           0};
        jobs[t].dst = ifx_memory(&f, &md, NULL, &jobs[t].dst_ptr);
    }
    pthread_t threads[2];
    for (int t = 0; t < 2; t++)
        ck_assert_int_eq(pthread_create(&threads[t], NULL, execute_many, &jobs[t]), 0);
    for (int t = 0; t < 2; t++)
        pthread_join(threads[t], NULL);
    for (int t = 0; t < 2; t++) {
        ck_assert_int_eq(jobs[t].failures, 0);
        IFX_DNNL_OK(dnnl_primitive_destroy(jobs[t].primitive));
        IFX_DNNL_OK(dnnl_memory_destroy(jobs[t].src));
        IFX_DNNL_OK(dnnl_memory_destroy(jobs[t].dst));
    }
    free(x);
    ifx_close(&f);
}
END_TEST

START_TEST(profiling_stream_events_carry_kernel_timestamps)
{
    ifx_t f;
    ifx_open(&f);
    ze_command_list_handle_t list = ifx_list(&f.env, 1);
    dnnl_stream_t profiled = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_stream_create(&profiled, f.engine, list, 1));
    const dnnl_dim_t dims[4] = {1, 16, 8, 8};
    dnnl_memory_desc_t md = ifx_md(4, dims);
    dnnl_memory_t m0 = NULL, m1 = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_memory_create(&m0, &md, f.engine, 1, &allocate));
    IFX_DNNL_OK(dnnl_ze_interop_memory_create(&m1, &md, f.engine, 1, &allocate));
    dnnl_primitive_t relu = ifx_eltwise(f.engine, &md, dnnl_eltwise_relu, 0, 0);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, m0}, {DNNL_ARG_DST, m1}};
    ze_event_handle_t done = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_primitive_execute(relu, profiled, 2, args, 0, NULL, &done));
    ifx_wait(done);
    ze_kernel_timestamp_result_t ts;
    ZT_OK(zeEventQueryKernelTimestamp(done, &ts));
    ck_assert_uint_ge(ts.global.kernelEnd, ts.global.kernelStart);
    ck_assert_uint_gt(ts.global.kernelEnd, 0);
    IFX_DNNL_OK(dnnl_primitive_destroy(relu));
    IFX_DNNL_OK(dnnl_memory_destroy(m0));
    IFX_DNNL_OK(dnnl_memory_destroy(m1));
    IFX_DNNL_OK(dnnl_stream_destroy(profiled));
    ZT_OK(zeCommandListDestroy(list));
    ifx_close(&f);
}
END_TEST

START_TEST(execute_refuses_misuse)
{
    zt_set_system_memory(0); /* a device that cannot use plain host memory */
    ifx_t f;
    ifx_open(&f);
    const dnnl_dim_t dims[2] = {4, 8};
    dnnl_memory_desc_t md = ifx_md(2, dims);
    float *usm = NULL;
    dnnl_memory_t m0 = ifx_memory(&f, &md, NULL, &usm), m1 = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_memory_create(&m1, &md, f.engine, 1, &allocate));
    dnnl_primitive_t relu = ifx_eltwise(f.engine, &md, dnnl_eltwise_relu, 0, 0);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, m0}, {DNNL_ARG_DST, m1}};
    ze_event_handle_t done = NULL;
    /* stream and primitive */
    dnnl_engine_t cpu = NULL; /* streams of interop engines own a list: a CPU engine's */
    IFX_DNNL_OK(dnnl_engine_create(&cpu, dnnl_cpu, 0));
    dnnl_stream_t plain_stream = NULL;
    IFX_DNNL_OK(dnnl_stream_create(&plain_stream, cpu, dnnl_stream_default_flags));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E115",
                dnnl_ze_interop_primitive_execute(relu, plain_stream, 2, args, 0, NULL, &done));
    IFX_DNNL_OK(dnnl_stream_destroy(plain_stream));
    IFX_DNNL_OK(dnnl_engine_destroy(cpu));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E101",
                dnnl_ze_interop_primitive_execute(NULL, f.stream, 2, args, 0, NULL, &done));
    dnnl_engine_t other = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_engine_create(&other, f.env.driver, f.env.device, f.env.context));
    dnnl_primitive_t foreign = ifx_eltwise(other, &md, dnnl_eltwise_relu, 0, 0);
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E132",
                dnnl_ze_interop_primitive_execute(foreign, f.stream, 2, args, 0, NULL, &done));
    dnnl_memory_t other_memory = NULL;
    IFX_DNNL_OK(dnnl_ze_interop_memory_create(&other_memory, &md, other, 1, &allocate));
    dnnl_exec_arg_t mixed[] = {{DNNL_ARG_SRC, other_memory}, {DNNL_ARG_DST, m1}};
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E125",
                dnnl_ze_interop_primitive_execute(relu, f.stream, 2, mixed, 0, NULL, &done));
    /* dependencies */
    ze_event_handle_t unknown = (ze_event_handle_t)(uintptr_t)0x1000;
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E130",
                dnnl_ze_interop_primitive_execute(relu, f.stream, 2, args, 1, &unknown, &done));
    ze_event_pool_handle_t pool = zt_event_pool(&f.env, 2, 0);
    ze_event_handle_t dead = zt_event(pool, 0);
    ZT_OK(zeEventDestroy(dead));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E130",
                dnnl_ze_interop_primitive_execute(relu, f.stream, 2, args, 1, &dead, &done));
    zt_env_t elsewhere = f.env;
    ze_context_desc_t cdesc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ZT_OK(zeContextCreate(f.env.driver, &cdesc, &elsewhere.context));
    ze_event_pool_handle_t foreign_pool = zt_event_pool(&elsewhere, 1, 0);
    ze_event_handle_t foreign_event = zt_event(foreign_pool, 0);
    IFX_REFUSED(
        dnnl_invalid_arguments, "ZEIL-E131",
        dnnl_ze_interop_primitive_execute(relu, f.stream, 2, args, 1, &foreign_event, &done));
    /* an argument whose USM was freed */
    ZT_OK(zeMemFree(f.env.context, usm));
    IFX_REFUSED(dnnl_invalid_arguments, "ZEIL-E122",
                dnnl_ze_interop_primitive_execute(relu, f.stream, 2, args, 0, NULL, &done));

    ZT_OK(zeEventDestroy(foreign_event));
    ZT_OK(zeEventPoolDestroy(foreign_pool));
    ZT_OK(zeContextDestroy(elsewhere.context));
    ZT_OK(zeEventPoolDestroy(pool));
    IFX_DNNL_OK(dnnl_primitive_destroy(foreign));
    IFX_DNNL_OK(dnnl_primitive_destroy(relu));
    IFX_DNNL_OK(dnnl_memory_destroy(other_memory));
    IFX_DNNL_OK(dnnl_memory_destroy(m0));
    IFX_DNNL_OK(dnnl_memory_destroy(m1));
    IFX_DNNL_OK(dnnl_engine_destroy(other));
    ifx_close(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interop_execute");
    TCase *tc = tcase_create("execute");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, relu_result_matches);
    tcase_add_test(tc, matmul_result_matches);
    tcase_add_test(tc, convolution_result_matches);
    tcase_add_test(tc, chain_across_two_streams_is_asynchronous_and_recorded);
    tcase_add_test(tc, stream_wait_waits_for_executes);
    tcase_add_test(tc, many_executes_return_their_own_events);
    tcase_add_test(tc, threads_executing_on_one_stream_get_their_own_results);
    tcase_add_test(tc, profiling_stream_events_carry_kernel_timestamps);
    tcase_add_test(tc, execute_refuses_misuse);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
