/*
 * zeil_demo_net: a small oneDNN network on Level Zero through the interop C
 * API (include/zeil/dnnl_ze.h), the program scripts/demo runs under zeil.
 *
 *     zeil_demo_net [ITERATIONS] [--drop-wait]      (1..16, default 8)
 *
 * --drop-wait removes stream B's wait on A's ReLU: the race the hazard checks
 * (ZEIL_CHECKS=hazards) report, naming both primitives (a misuse case).
 * Each iteration pushes a batch of images through
 *     convolution (3 -> 16 channels, 3x3, padding 1) -> ReLU -> inner product (10)
 * on two oneDNN streams, each bound to its own in-order immediate command
 * list: stream A runs the convolution and the ReLU, stream B the inner
 * product, which waits on the event A's ReLU returned. A runs ahead while B
 * follows, joined only by events: a third list uploads the weights and inputs
 * (A's first convolution waits on its event) and reads the outputs back after
 * B's last event. All memory is device USM: weights, inputs and outputs from
 * zeMemAllocDevice, the hidden activations allocated by the interop library
 * itself (DNNL_MEMORY_ALLOCATE).
 *
 * The outputs are checked against a plain C computation of the same network.
 * Uses only public APIs: Level Zero, oneDNN's C API and the interop C API.
 * Exit status 0 when every number matches and everything was destroyed;
 * 1 with a "FAILED" line naming the call otherwise.
 */
#include <level_zero/ze_api.h>
#include <oneapi/dnnl/dnnl.h>
#include <zeil/dnnl_ze.h>
#include <zeil/zeil.h>

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* API 1.4 headers lack the name (the bit is the specification's). */
#ifndef ZE_COMMAND_QUEUE_FLAG_IN_ORDER
#define ZE_COMMAND_QUEUE_FLAG_IN_ORDER ZE_BIT(1)
#endif

#define PROG "zeil_demo_net"
#define MAX_ITERATIONS 16
#define DEFAULT_ITERATIONS 8

/* The network's shape: a batch of BATCH images of IN_C x H x W per iteration. */
enum {
    BATCH = 4,
    IN_C = 3,
    H = 64,
    W = 64,
    CONV_C = 16,
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

static const uint64_t wait_timeout_ns = 60ull * 1000 * 1000 * 1000;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, PROG ": FAILED: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

#define ZE_CHECK(call) \
    do { \
        ze_result_t r_ = (call); \
        if (r_ != ZE_RESULT_SUCCESS) \
            fail("%s returned 0x%x (line %d)", #call, (unsigned)r_, __LINE__); \
    } while (0)

#define DNNL_CHECK(call) \
    do { \
        dnnl_status_t s_ = (call); \
        if (s_ != dnnl_success) \
            fail("%s returned dnnl_status %d (line %d)", #call, (int)s_, __LINE__); \
    } while (0)

/* ---- Level Zero ------------------------------------------------------------ */

typedef struct level_zero {
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t context;
    uint32_t compute_ordinal;
    ze_event_pool_handle_t pool;
    ze_event_handle_t uploaded;   /* signalled by the last upload copy */
    ze_event_handle_t downloaded; /* signalled by the last read-back copy */
} level_zero_t;

static uint32_t compute_queue_ordinal(ze_device_handle_t device)
{
    ze_command_queue_group_properties_t groups[8];
    uint32_t count = 0;
    ZE_CHECK(zeDeviceGetCommandQueueGroupProperties(device, &count, NULL));
    if (count > 8)
        count = 8;
    for (uint32_t i = 0; i < count; i++)
        groups[i] = (ze_command_queue_group_properties_t){
            .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES};
    ZE_CHECK(zeDeviceGetCommandQueueGroupProperties(device, &count, groups));
    for (uint32_t i = 0; i < count; i++)
        if (groups[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE)
            return i;
    fail("the device has no compute command queue group");
}

static void open_level_zero(level_zero_t *ze)
{
    memset(ze, 0, sizeof *ze);
    ZE_CHECK(zeInit(0));
    uint32_t n = 1;
    ZE_CHECK(zeDriverGet(&n, &ze->driver));
    if (n == 0)
        fail("no Level Zero driver (is ZE_ENABLE_ALT_DRIVERS or ZEIL_DRIVERS set?)");
    n = 1;
    ZE_CHECK(zeDeviceGet(ze->driver, &n, &ze->device));
    if (n == 0)
        fail("the Level Zero driver has no device");
    ze->compute_ordinal = compute_queue_ordinal(ze->device);
    ze_context_desc_t context_desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ZE_CHECK(zeContextCreate(ze->driver, &context_desc, &ze->context));
    ze_event_pool_desc_t pool_desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                      ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 2};
    ZE_CHECK(zeEventPoolCreate(ze->context, &pool_desc, 1, &ze->device, &ze->pool));
    ze_event_desc_t event_desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                                  ZE_EVENT_SCOPE_FLAG_HOST};
    ZE_CHECK(zeEventCreate(ze->pool, &event_desc, &ze->uploaded));
    event_desc.index = 1;
    ZE_CHECK(zeEventCreate(ze->pool, &event_desc, &ze->downloaded));
}

static void close_level_zero(level_zero_t *ze)
{
    ZE_CHECK(zeEventDestroy(ze->uploaded));
    ZE_CHECK(zeEventDestroy(ze->downloaded));
    ZE_CHECK(zeEventPoolDestroy(ze->pool));
    ZE_CHECK(zeContextDestroy(ze->context));
}

/* oneDNN streams need in-order immediate lists. */
static ze_command_list_handle_t in_order_list(const level_zero_t *ze)
{
    ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                    NULL,
                                    ze->compute_ordinal,
                                    0,
                                    ZE_COMMAND_QUEUE_FLAG_IN_ORDER,
                                    ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                    ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t list = NULL;
    ZE_CHECK(zeCommandListCreateImmediate(ze->context, ze->device, &desc, &list));
    return list;
}

static float *device_floats(const level_zero_t *ze, size_t n)
{
    ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    void *ptr = NULL;
    ZE_CHECK(zeMemAllocDevice(ze->context, &desc, n * sizeof(float), 64, ze->device, &ptr));
    return ptr;
}

static void copy_floats(ze_command_list_handle_t list, float *dst, const float *src, size_t n,
                        ze_event_handle_t signal, ze_event_handle_t wait)
{
    ZE_CHECK(zeCommandListAppendMemoryCopy(list, dst, src, n * sizeof(float), signal, wait ? 1 : 0,
                                           wait ? &wait : NULL));
}

/* ---- oneDNN ------------------------------------------------------------------- */

static dnnl_memory_desc_t plain_md(int ndims, const dnnl_dim_t *dims)
{
    static const dnnl_format_tag_t plain[] = {dnnl_format_tag_undef, dnnl_a, dnnl_ab, dnnl_abc,
                                              dnnl_abcd};
    dnnl_memory_desc_t md;
    DNNL_CHECK(dnnl_memory_desc_init_by_tag(&md, ndims, dims, dnnl_f32, plain[ndims]));
    return md;
}

/* Memory over a user USM buffer, or over one the library allocates
 * (buffer == DNNL_MEMORY_ALLOCATE: owned by the memory object). */
static dnnl_memory_t usm_memory(dnnl_engine_t engine, const dnnl_memory_desc_t *md, void *buffer)
{
    dnnl_memory_t memory = NULL;
    DNNL_CHECK(dnnl_ze_interop_memory_create(&memory, md, engine, 1, &buffer));
    return memory;
}

static dnnl_primitive_t primitive_from(const void *op_desc, dnnl_engine_t engine)
{
    dnnl_primitive_desc_t pd = NULL;
    DNNL_CHECK(dnnl_primitive_desc_create(&pd, op_desc, NULL, engine, NULL));
    dnnl_primitive_t primitive = NULL;
    DNNL_CHECK(dnnl_primitive_create(&primitive, pd));
    DNNL_CHECK(dnnl_primitive_desc_destroy(pd));
    return primitive;
}

typedef struct network {
    dnnl_memory_desc_t input, conv_weights, conv_bias, hidden, ip_weights, ip_bias, output;
    dnnl_primitive_t conv, relu, ip;
} network_t;

static void create_network(network_t *net, dnnl_engine_t engine)
{
    const dnnl_dim_t input[] = {BATCH, IN_C, H, W}, conv_w[] = {CONV_C, IN_C, K, K},
                     conv_b[] = {CONV_C}, hidden[] = {BATCH, CONV_C, H, W},
                     ip_w[] = {CLASSES, CONV_C, H, W}, ip_b[] = {CLASSES},
                     output[] = {BATCH, CLASSES};
    net->input = plain_md(4, input);
    net->conv_weights = plain_md(4, conv_w);
    net->conv_bias = plain_md(1, conv_b);
    net->hidden = plain_md(4, hidden);
    net->ip_weights = plain_md(4, ip_w);
    net->ip_bias = plain_md(1, ip_b);
    net->output = plain_md(2, output);

    const dnnl_dims_t strides = {1, 1}, padding = {PAD, PAD};
    dnnl_convolution_desc_t conv;
    DNNL_CHECK(dnnl_convolution_forward_desc_init(
        &conv, dnnl_forward_inference, dnnl_convolution_direct, &net->input, &net->conv_weights,
        &net->conv_bias, &net->hidden, strides, padding, padding));
    net->conv = primitive_from(&conv, engine);
    dnnl_eltwise_desc_t relu;
    DNNL_CHECK(dnnl_eltwise_forward_desc_init(&relu, dnnl_forward_inference, dnnl_eltwise_relu,
                                              &net->hidden, 0.0f, 0.0f));
    net->relu = primitive_from(&relu, engine);
    dnnl_inner_product_desc_t ip;
    DNNL_CHECK(dnnl_inner_product_forward_desc_init(&ip, dnnl_forward_inference, &net->hidden,
                                                    &net->ip_weights, &net->ip_bias, &net->output));
    net->ip = primitive_from(&ip, engine);
}

static void destroy_network(network_t *net)
{
    DNNL_CHECK(dnnl_primitive_destroy(net->conv));
    DNNL_CHECK(dnnl_primitive_destroy(net->relu));
    DNNL_CHECK(dnnl_primitive_destroy(net->ip));
}

/* ---- the same network in plain C ---------------------------------------------- */

static void reference_forward(const float *input, const float *conv_w, const float *conv_b,
                              const float *ip_w, const float *ip_b, float *hidden, float *output)
{
    for (int n = 0; n < BATCH; n++)
        for (int oc = 0; oc < CONV_C; oc++)
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    double sum = conv_b[oc];
                    for (int ic = 0; ic < IN_C; ic++)
                        for (int ky = 0; ky < K; ky++)
                            for (int kx = 0; kx < K; kx++) {
                                int iy = y + ky - PAD, ix = x + kx - PAD;
                                if (iy < 0 || iy >= H || ix < 0 || ix >= W)
                                    continue;
                                sum += (double)input[((n * IN_C + ic) * H + iy) * W + ix] *
                                       conv_w[((oc * IN_C + ic) * K + ky) * K + kx];
                            }
                    hidden[((n * CONV_C + oc) * H + y) * W + x] = sum > 0 ? (float)sum : 0.0f;
                }
    const int features = CONV_C * H * W;
    for (int n = 0; n < BATCH; n++)
        for (int o = 0; o < CLASSES; o++) {
            double sum = ip_b[o];
            for (int f = 0; f < features; f++)
                sum += (double)hidden[n * features + f] * ip_w[o * features + f];
            output[n * CLASSES + o] = (float)sum;
        }
}

/* Deterministic values in [-scale, scale). */
static void fill_pseudo_random(float *v, size_t n, uint32_t seed, float scale)
{
    uint32_t state = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        state = state * 1664525u + 1013904223u;
        v[i] = scale * ((float)(state >> 8) / (float)(1u << 23) - 1.0f);
    }
}

/* ---- the run -------------------------------------------------------------------- */

typedef struct host_data {
    float conv_w[CONV_W_N], conv_b[CONV_C], ip_w[IP_W_N], ip_b[CLASSES];
    float input[MAX_ITERATIONS][INPUT_N];
    float output[MAX_ITERATIONS][OUTPUT_N]; /* read back from the device */
} host_data_t;

/* Device USM and the oneDNN memory objects over it. */
typedef struct device_data {
    float *conv_w, *conv_b, *ip_w, *ip_b, *input[MAX_ITERATIONS], *output[MAX_ITERATIONS];
    dnnl_memory_t conv_w_mem, conv_b_mem, ip_w_mem, ip_b_mem;
    dnnl_memory_t input_mem[MAX_ITERATIONS], hidden_mem[MAX_ITERATIONS], output_mem[MAX_ITERATIONS];
} device_data_t;

static void fill_host_data(host_data_t *host, int iterations)
{
    fill_pseudo_random(host->conv_w, CONV_W_N, 1, 0.5f);
    fill_pseudo_random(host->conv_b, CONV_C, 2, 0.1f);
    fill_pseudo_random(host->ip_w, IP_W_N, 3, 0.05f);
    fill_pseudo_random(host->ip_b, CLASSES, 4, 0.1f);
    for (int it = 0; it < iterations; it++)
        fill_pseudo_random(host->input[it], INPUT_N, 100 + (uint32_t)it, 1.0f);
}

/* Allocates everything and appends the uploads to the transfer list; the
 * last upload signals ze->uploaded. The hidden activations are allocated by
 * the interop library (DNNL_MEMORY_ALLOCATE) and never leave the device. */
static void create_device_data(device_data_t *dev, const level_zero_t *ze,
                               ze_command_list_handle_t transfer, dnnl_engine_t engine,
                               const network_t *net, const host_data_t *host, int iterations)
{
    dev->conv_w = device_floats(ze, CONV_W_N);
    dev->conv_b = device_floats(ze, CONV_C);
    dev->ip_w = device_floats(ze, IP_W_N);
    dev->ip_b = device_floats(ze, CLASSES);
    copy_floats(transfer, dev->conv_w, host->conv_w, CONV_W_N, NULL, NULL);
    copy_floats(transfer, dev->conv_b, host->conv_b, CONV_C, NULL, NULL);
    copy_floats(transfer, dev->ip_w, host->ip_w, IP_W_N, NULL, NULL);
    copy_floats(transfer, dev->ip_b, host->ip_b, CLASSES, NULL, NULL);
    dev->conv_w_mem = usm_memory(engine, &net->conv_weights, dev->conv_w);
    dev->conv_b_mem = usm_memory(engine, &net->conv_bias, dev->conv_b);
    dev->ip_w_mem = usm_memory(engine, &net->ip_weights, dev->ip_w);
    dev->ip_b_mem = usm_memory(engine, &net->ip_bias, dev->ip_b);
    for (int it = 0; it < iterations; it++) {
        dev->input[it] = device_floats(ze, INPUT_N);
        dev->output[it] = device_floats(ze, OUTPUT_N);
        copy_floats(transfer, dev->input[it], host->input[it], INPUT_N,
                    it == iterations - 1 ? ze->uploaded : NULL, NULL);
        dev->input_mem[it] = usm_memory(engine, &net->input, dev->input[it]);
        dev->hidden_mem[it] = usm_memory(engine, &net->hidden, DNNL_MEMORY_ALLOCATE);
        dev->output_mem[it] = usm_memory(engine, &net->output, dev->output[it]);
    }
}

static void destroy_device_data(device_data_t *dev, const level_zero_t *ze, int iterations)
{
    for (int it = 0; it < iterations; it++) {
        DNNL_CHECK(dnnl_memory_destroy(dev->input_mem[it]));
        DNNL_CHECK(dnnl_memory_destroy(dev->hidden_mem[it])); /* frees its own USM */
        DNNL_CHECK(dnnl_memory_destroy(dev->output_mem[it]));
        ZE_CHECK(zeMemFree(ze->context, dev->input[it]));
        ZE_CHECK(zeMemFree(ze->context, dev->output[it]));
    }
    dnnl_memory_t weights[] = {dev->conv_w_mem, dev->conv_b_mem, dev->ip_w_mem, dev->ip_b_mem};
    float *buffers[] = {dev->conv_w, dev->conv_b, dev->ip_w, dev->ip_b};
    for (int i = 0; i < 4; i++) {
        DNNL_CHECK(dnnl_memory_destroy(weights[i]));
        ZE_CHECK(zeMemFree(ze->context, buffers[i]));
    }
}

/* Stream A: convolution after the uploads, ReLU in place; stream B: inner
 * product after A's ReLU. Returns B's last event; nothing waits on the host. */
static ze_event_handle_t run_network(const network_t *net, const device_data_t *dev,
                                     dnnl_stream_t stream_a, dnnl_stream_t stream_b,
                                     ze_event_handle_t uploaded, int iterations, int drop_wait)
{
    ze_event_handle_t ip_done = NULL;
    for (int it = 0; it < iterations; it++) {
        dnnl_exec_arg_t conv_args[] = {{DNNL_ARG_SRC, dev->input_mem[it]},
                                       {DNNL_ARG_WEIGHTS, dev->conv_w_mem},
                                       {DNNL_ARG_BIAS, dev->conv_b_mem},
                                       {DNNL_ARG_DST, dev->hidden_mem[it]}};
        dnnl_exec_arg_t relu_args[] = {{DNNL_ARG_SRC, dev->hidden_mem[it]},
                                       {DNNL_ARG_DST, dev->hidden_mem[it]}};
        dnnl_exec_arg_t ip_args[] = {{DNNL_ARG_SRC, dev->hidden_mem[it]},
                                     {DNNL_ARG_WEIGHTS, dev->ip_w_mem},
                                     {DNNL_ARG_BIAS, dev->ip_b_mem},
                                     {DNNL_ARG_DST, dev->output_mem[it]}};
        ze_event_handle_t relu_done = NULL;
        /* A's list is in order: only its first launch needs to wait. */
        DNNL_CHECK(dnnl_ze_interop_primitive_execute(net->conv, stream_a, 4, conv_args,
                                                     it == 0 ? 1 : 0, &uploaded, NULL));
        DNNL_CHECK(dnnl_ze_interop_primitive_execute(net->relu, stream_a, 2, relu_args, 0, NULL,
                                                     &relu_done));
        DNNL_CHECK(dnnl_ze_interop_primitive_execute(net->ip, stream_b, 4, ip_args,
                                                     drop_wait ? 0 : 1, &relu_done, &ip_done));
    }
    return ip_done;
}

static int parse_iterations(int argc, char **argv, int *drop_wait)
{
    *drop_wait = argc > 1 && strcmp(argv[argc - 1], "--drop-wait") == 0;
    argc -= *drop_wait;
    if (argc > 2)
        fail("usage: " PROG " [ITERATIONS] [--drop-wait] (ITERATIONS 1..%d)", MAX_ITERATIONS);
    if (argc < 2)
        return DEFAULT_ITERATIONS;
    char *end = NULL;
    long n = strtol(argv[1], &end, 10);
    if (*argv[1] == '\0' || *end != '\0' || n < 1 || n > MAX_ITERATIONS)
        fail("ITERATIONS must be a number from 1 to %d, not '%s'", MAX_ITERATIONS, argv[1]);
    return (int)n;
}

/* Largest |device - reference| over every output, relative to 1 + |reference|. */
static double worst_error(const host_data_t *host, int iterations)
{
    static float hidden[HIDDEN_N], expected[OUTPUT_N];
    double worst = 0;
    for (int it = 0; it < iterations; it++) {
        reference_forward(host->input[it], host->conv_w, host->conv_b, host->ip_w, host->ip_b,
                          hidden, expected);
        for (int i = 0; i < OUTPUT_N; i++) {
            double error =
                fabs((double)host->output[it][i] - expected[i]) / (1.0 + fabs((double)expected[i]));
            if (!(error <= worst)) /* NaN counts as the worst */
                worst = isnan(error) ? INFINITY : error;
        }
    }
    return worst;
}

int main(int argc, char **argv)
{
    int drop_wait = 0;
    const int iterations = parse_iterations(argc, argv, &drop_wait);
    static host_data_t host;
    static device_data_t dev;
    fill_host_data(&host, iterations);

    level_zero_t ze;
    open_level_zero(&ze);
    dnnl_engine_t engine = NULL;
    DNNL_CHECK(dnnl_ze_interop_engine_create(&engine, ze.driver, ze.device, ze.context));
    /* Two lists for the streams, a third for the copies in and out. */
    ze_command_list_handle_t list_a = in_order_list(&ze), list_b = in_order_list(&ze),
                             transfer = in_order_list(&ze);
    dnnl_stream_t stream_a = NULL, stream_b = NULL;
    DNNL_CHECK(dnnl_ze_interop_stream_create(&stream_a, engine, list_a, 0));
    DNNL_CHECK(dnnl_ze_interop_stream_create(&stream_b, engine, list_b, 0));
    /* Names for zeil's trace and report (they do nothing without zeil). */
    zeil_set_name(stream_a, "A: conv+relu");
    zeil_set_name(stream_b, "B: inner product");
    zeil_set_name(transfer, "copies");
    network_t net;
    create_network(&net, engine);
    create_device_data(&dev, &ze, transfer, engine, &net, &host, iterations);

    ze_event_handle_t computed =
        run_network(&net, &dev, stream_a, stream_b, ze.uploaded, iterations, drop_wait);
    if (drop_wait) /* B's events no longer cover A's work: wait for A itself */
        DNNL_CHECK(dnnl_stream_wait(stream_a));
    /* The read-back waits on B's last event (B is in order: all of it). */
    for (int it = 0; it < iterations; it++)
        copy_floats(transfer, host.output[it], dev.output[it], OUTPUT_N,
                    it == iterations - 1 ? ze.downloaded : NULL, it == 0 ? computed : NULL);
    ZE_CHECK(zeEventHostSynchronize(ze.downloaded, wait_timeout_ns));

    double worst = worst_error(&host, iterations);
    const double tolerance = 1e-4;
    printf(PROG ": %d iterations of convolution -> ReLU (stream A) -> inner product (stream B), "
                "batch %d: max relative error %.1e vs. the C reference: %s\n",
           iterations, BATCH, worst, worst <= tolerance ? "ok" : "WRONG");
    fflush(stdout);

    destroy_device_data(&dev, &ze, iterations);
    destroy_network(&net);
    DNNL_CHECK(dnnl_stream_destroy(stream_a));
    DNNL_CHECK(dnnl_stream_destroy(stream_b));
    ze_command_list_handle_t lists[] = {list_a, list_b, transfer};
    for (int i = 0; i < 3; i++)
        ZE_CHECK(zeCommandListDestroy(lists[i]));
    DNNL_CHECK(dnnl_engine_destroy(engine));
    close_level_zero(&ze);
    if (worst > tolerance)
        fail("the network's outputs differ from the C reference (max relative error %.1e)", worst);
    return 0;
}
