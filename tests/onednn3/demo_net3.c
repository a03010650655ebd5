/*
 * zeil_demo_net3: the demo network (tests/sample/demo_net.c) on oneDNN 3.13's
 * own Level Zero runtime, through dnnl::ze_interop's C API as oneDNN 3 has
 * it, for `scripts/demo --onednn3` (zeil-run --as-gpu: the reference driver
 * presented as a GPU, zeil's forward backend in front of oneDNN):
 *     convolution (3 -> 8 channels, 3x3, padding 1) -> ReLU   on stream A
 *     inner product (10 classes)                               on stream B
 * each stream on its own in-order immediate list, B waiting on an event A's
 * list signals after the ReLU. The output is checked against a plain C
 * computation. Exit 0 when it matches; 1 with a FAILED line naming the call.
 */
#include <level_zero/ze_api.h>
#include <oneapi/dnnl/dnnl.h>
#include <zeil/dnnl_ze.h>
#include <zeil/zeil.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define PROG "zeil_demo_net3"

enum {
    BATCH = 2,
    IN_C = 3,
    H = 8,
    W = 8,
    CONV_C = 8,
    K = 3,
    PAD = 1,
    CLASSES = 10
};
enum {
    INPUT_N = BATCH * IN_C * H * W,
    CONV_W_N = CONV_C * IN_C * K * K,
    HIDDEN_N = BATCH * CONV_C * H * W,
    IP_W_N = CLASSES * CONV_C * H * W,
    OUTPUT_N = BATCH * CLASSES
};

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, PROG ": FAILED: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(1);
}

#define ZE(call) \
    do { \
        ze_result_t r_ = (call); \
        if (r_ != ZE_RESULT_SUCCESS) \
            fail("%s returned 0x%x", #call, (unsigned)r_); \
    } while (0)
#define DNNL(call) \
    do { \
        dnnl_status_t s_ = (call); \
        if (s_ != dnnl_success) \
            fail("%s returned %d (ONEDNN_VERBOSE=all says why)", #call, (int)s_); \
    } while (0)

typedef struct net {
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t context;
    ze_command_list_handle_t list_a, list_b;
    ze_event_pool_handle_t pool;
    ze_event_handle_t relu_done;
    dnnl_engine_t engine;
    dnnl_stream_t stream_a, stream_b;
} net_t;

static ze_command_list_handle_t in_order_list(const net_t *n)
{
    ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                    NULL,
                                    0,
                                    0,
                                    ZE_BIT(1),
                                    ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                    ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t list = NULL;
    ZE(zeCommandListCreateImmediate(n->context, n->device, &desc, &list));
    return list;
}

static void open_net(net_t *n)
{
    ZE(zeInit(0));
    uint32_t count = 1;
    ZE(zeDriverGet(&count, &n->driver));
    count = 1;
    ZE(zeDeviceGet(n->driver, &count, &n->device));
    ze_context_desc_t cdesc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ZE(zeContextCreate(n->driver, &cdesc, &n->context));
    n->list_a = in_order_list(n);
    n->list_b = in_order_list(n);
    zeil_set_name(n->list_a, "A: conv+relu");
    zeil_set_name(n->list_b, "B: inner product");
    ze_event_pool_desc_t pdesc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                  ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    ZE(zeEventPoolCreate(n->context, &pdesc, 1, &n->device, &n->pool));
    ze_event_desc_t edesc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                             ZE_EVENT_SCOPE_FLAG_HOST};
    ZE(zeEventCreate(n->pool, &edesc, &n->relu_done));
    DNNL(dnnl_ze_interop_engine_create(&n->engine, n->driver, n->device, n->context));
    DNNL(dnnl_ze_interop_stream_create(&n->stream_a, n->engine, n->list_a, 0));
    DNNL(dnnl_ze_interop_stream_create(&n->stream_b, n->engine, n->list_b, 0));
    zeil_set_name(n->stream_a, "A: conv+relu");
    zeil_set_name(n->stream_b, "B: inner product");
}

static float *shared_floats(const net_t *n, size_t count)
{
    ze_device_mem_alloc_desc_t ddesc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    ze_host_mem_alloc_desc_t hdesc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
    void *p = NULL;
    ZE(zeMemAllocShared(n->context, &ddesc, &hdesc, count * sizeof(float), 64, n->device, &p));
    return p;
}

static dnnl_memory_desc_t md4(dnnl_dim_t a, dnnl_dim_t b, dnnl_dim_t c, dnnl_dim_t d)
{
    dnnl_memory_desc_t md = NULL;
    const dnnl_dims_t dims = {a, b, c, d};
    DNNL(dnnl_memory_desc_create_with_tag(&md, 4, dims, dnnl_f32, dnnl_nchw));
    return md;
}

static dnnl_memory_t wrap(const net_t *n, const_dnnl_memory_desc_t md, float *data)
{
    dnnl_memory_t m = NULL;
    void *handle = data;
    DNNL(dnnl_ze_interop_memory_create(&m, md, n->engine, 1, &handle));
    return m;
}

static dnnl_primitive_t make(dnnl_primitive_desc_t pd)
{
    dnnl_primitive_t p = NULL;
    DNNL(dnnl_primitive_create(&p, pd));
    DNNL(dnnl_primitive_desc_destroy(pd));
    return p;
}

/* The same network in plain C. */
static void reference(const float *x, const float *cw, const float *iw, float *out)
{
    static float hidden[HIDDEN_N];
    for (int b = 0; b < BATCH; b++)
        for (int o = 0; o < CONV_C; o++)
            for (int y = 0; y < H; y++)
                for (int xx = 0; xx < W; xx++) {
                    float s = 0;
                    for (int i = 0; i < IN_C; i++)
                        for (int ky = 0; ky < K; ky++)
                            for (int kx = 0; kx < K; kx++) {
                                int iy = y + ky - PAD, ix = xx + kx - PAD;
                                if (iy >= 0 && iy < H && ix >= 0 && ix < W)
                                    s += x[((b * IN_C + i) * H + iy) * W + ix] *
                                         cw[((o * IN_C + i) * K + ky) * K + kx];
                            }
                    hidden[((b * CONV_C + o) * H + y) * W + xx] = s > 0 ? s : 0;
                }
    for (int b = 0; b < BATCH; b++)
        for (int c = 0; c < CLASSES; c++) {
            float s = 0;
            for (int j = 0; j < CONV_C * H * W; j++)
                s += hidden[b * CONV_C * H * W + j] * iw[c * CONV_C * H * W + j];
            out[b * CLASSES + c] = s;
        }
}

int main(void)
{
    net_t n = {0};
    open_net(&n);
    float *x = shared_floats(&n, INPUT_N), *cw = shared_floats(&n, CONV_W_N);
    float *hidden = shared_floats(&n, HIDDEN_N), *iw = shared_floats(&n, IP_W_N);
    float *out = shared_floats(&n, OUTPUT_N);
    for (int i = 0; i < INPUT_N; i++)
        x[i] = (float)((i * 37) % 17 - 8) / 8.0f;
    for (int i = 0; i < CONV_W_N; i++)
        cw[i] = (float)((i * 11) % 7 - 3) / 4.0f;
    for (int i = 0; i < IP_W_N; i++)
        iw[i] = (float)((i * 13) % 5 - 2) / 16.0f;

    dnnl_memory_desc_t x_md = md4(BATCH, IN_C, H, W), h_md = md4(BATCH, CONV_C, H, W);
    dnnl_memory_desc_t cw_md = NULL, iw_md = NULL, out_md = NULL;
    const dnnl_dims_t cw_dims = {CONV_C, IN_C, K, K}, iw_dims = {CLASSES, CONV_C, H, W},
                      out_dims = {BATCH, CLASSES};
    DNNL(dnnl_memory_desc_create_with_tag(&cw_md, 4, cw_dims, dnnl_f32, dnnl_oihw));
    DNNL(dnnl_memory_desc_create_with_tag(&iw_md, 4, iw_dims, dnnl_f32, dnnl_oihw));
    DNNL(dnnl_memory_desc_create_with_tag(&out_md, 2, out_dims, dnnl_f32, dnnl_nc));

    dnnl_primitive_desc_t pd = NULL;
    const dnnl_dims_t strides = {1, 1}, dilates = {0, 0}, pads = {PAD, PAD};
    DNNL(dnnl_convolution_forward_primitive_desc_create(&pd, n.engine, dnnl_forward_inference,
                                                        dnnl_convolution_direct, x_md, cw_md, NULL,
                                                        h_md, strides, dilates, pads, pads, NULL));
    dnnl_primitive_t conv = make(pd);
    DNNL(dnnl_eltwise_forward_primitive_desc_create(&pd, n.engine, dnnl_forward_inference,
                                                    dnnl_eltwise_relu, h_md, h_md, 0.f, 0.f, NULL));
    dnnl_primitive_t relu = make(pd);
    DNNL(dnnl_inner_product_forward_primitive_desc_create(&pd, n.engine, dnnl_forward_inference,
                                                          h_md, iw_md, NULL, out_md, NULL));
    dnnl_primitive_t ip = make(pd);

    dnnl_memory_t xm = wrap(&n, x_md, x), cwm = wrap(&n, cw_md, cw), hm = wrap(&n, h_md, hidden);
    dnnl_memory_t iwm = wrap(&n, iw_md, iw), outm = wrap(&n, out_md, out);
    dnnl_exec_arg_t conv_args[] = {{DNNL_ARG_SRC, xm}, {DNNL_ARG_WEIGHTS, cwm}, {DNNL_ARG_DST, hm}};
    dnnl_exec_arg_t relu_args[] = {{DNNL_ARG_SRC, hm}, {DNNL_ARG_DST, hm}};
    dnnl_exec_arg_t ip_args[] = {{DNNL_ARG_SRC, hm}, {DNNL_ARG_WEIGHTS, iwm}, {DNNL_ARG_DST, outm}};
    ze_event_handle_t ignored = NULL;
    DNNL(dnnl_ze_interop_primitive_execute(conv, n.stream_a, 3, conv_args, 0, NULL, &ignored));
    DNNL(dnnl_ze_interop_primitive_execute(relu, n.stream_a, 2, relu_args, 0, NULL, &ignored));
    /* In-order streams return no event in oneDNN 3.13: A's list signals one. */
    ZE(zeCommandListAppendSignalEvent(n.list_a, n.relu_done));
    DNNL(dnnl_ze_interop_primitive_execute(ip, n.stream_b, 3, ip_args, 1, &n.relu_done, &ignored));
    DNNL(dnnl_stream_wait(n.stream_b));

    static float expected[OUTPUT_N];
    reference(x, cw, iw, expected);
    double worst = 0;
    for (int i = 0; i < OUTPUT_N; i++) {
        double e = fabs((double)out[i] - expected[i]) / (fabs((double)expected[i]) + 1.0);
        worst = e > worst ? e : worst;
    }
    printf(PROG ": convolution -> ReLU (stream A) -> inner product (stream B) on oneDNN %d.%d.%d's "
                "Level Zero runtime: max relative error %.2g vs. the C reference: %s\n",
           dnnl_version()->major, dnnl_version()->minor, dnnl_version()->patch, worst,
           worst < 1e-4 ? "ok" : "WRONG");

    dnnl_memory_t mems[] = {xm, cwm, hm, iwm, outm};
    for (size_t i = 0; i < sizeof mems / sizeof mems[0]; i++)
        DNNL(dnnl_memory_destroy(mems[i]));
    dnnl_primitive_t prims[] = {conv, relu, ip};
    for (size_t i = 0; i < 3; i++)
        DNNL(dnnl_primitive_destroy(prims[i]));
    dnnl_memory_desc_t mds[] = {x_md, h_md, cw_md, iw_md, out_md};
    for (size_t i = 0; i < 5; i++)
        DNNL(dnnl_memory_desc_destroy(mds[i]));
    DNNL(dnnl_stream_destroy(n.stream_a));
    DNNL(dnnl_stream_destroy(n.stream_b));
    DNNL(dnnl_engine_destroy(n.engine));
    float *bufs[] = {x, cw, hidden, iw, out};
    for (size_t i = 0; i < 5; i++)
        ZE(zeMemFree(n.context, bufs[i]));
    ZE(zeEventDestroy(n.relu_done));
    ZE(zeEventPoolDestroy(n.pool));
    ZE(zeCommandListDestroy(n.list_a));
    ZE(zeCommandListDestroy(n.list_b));
    ZE(zeContextDestroy(n.context));
    return worst < 1e-4 ? 0 : 1;
}
