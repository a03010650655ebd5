/* Measures (reports, does not test) the cost of executing a small primitive
 * through dnnl_ze_interop_primitive_execute + waiting on its event, against
 * dnnl_primitive_execute + dnnl_stream_wait on a plain CPU engine.
 * 1x16x8x8 f32 ReLU; median over RUNS runs of ITERATIONS executes each.
 * Run with ZE_ENABLE_ALT_DRIVERS pointing at the reference driver. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <zeil/dnnl_ze.h>

/* oneDNN has no nhandles == 0: DNNL_MEMORY_ALLOCATE asks for a buffer. */
static void *allocate = DNNL_MEMORY_ALLOCATE;

#define RUNS 7
#define ITERATIONS 2000

#define CHECK(call) \
    do { \
        if ((call) != 0) { \
            fprintf(stderr, "%s failed\n", #call); \
            exit(1); \
        } \
    } while (0)

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static dnnl_primitive_t relu_on(dnnl_engine_t engine, const dnnl_memory_desc_t *md)
{
    dnnl_eltwise_desc_t desc;
    CHECK(
        dnnl_eltwise_forward_desc_init(&desc, dnnl_forward_inference, dnnl_eltwise_relu, md, 0, 0));
    dnnl_primitive_desc_t pd;
    CHECK(dnnl_primitive_desc_create(&pd, &desc, NULL, engine, NULL));
    dnnl_primitive_t p;
    CHECK(dnnl_primitive_create(&p, pd));
    CHECK(dnnl_primitive_desc_destroy(pd));
    return p;
}

int main(void)
{
    const dnnl_dims_t dims = {1, 16, 8, 8};
    dnnl_memory_desc_t md;
    CHECK(dnnl_memory_desc_init_by_tag(&md, 4, dims, dnnl_f32, dnnl_abcd));

    /* plain oneDNN */
    dnnl_engine_t cpu;
    dnnl_stream_t cpu_stream;
    CHECK(dnnl_engine_create(&cpu, dnnl_cpu, 0));
    CHECK(dnnl_stream_create(&cpu_stream, cpu, dnnl_stream_default_flags));
    dnnl_memory_t a, b;
    CHECK(dnnl_memory_create(&a, &md, cpu, DNNL_MEMORY_ALLOCATE));
    CHECK(dnnl_memory_create(&b, &md, cpu, DNNL_MEMORY_ALLOCATE));
    dnnl_primitive_t plain = relu_on(cpu, &md);
    dnnl_exec_arg_t plain_args[] = {{DNNL_ARG_SRC, a}, {DNNL_ARG_DST, b}};

    /* through Level Zero */
    CHECK(zeInit(0));
    uint32_t n = 1;
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t context;
    CHECK(zeDriverGet(&n, &driver));
    CHECK(zeDeviceGet(driver, &n, &device));
    ze_context_desc_t cdesc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    CHECK(zeContextCreate(driver, &cdesc, &context));
    ze_command_queue_desc_t qdesc = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t list;
    CHECK(zeCommandListCreateImmediate(context, device, &qdesc, &list));
    dnnl_engine_t engine;
    dnnl_stream_t stream;
    CHECK(dnnl_ze_interop_engine_create(&engine, driver, device, context));
    CHECK(dnnl_ze_interop_stream_create(&stream, engine, list, 0));
    dnnl_memory_t c, d;
    CHECK(dnnl_ze_interop_memory_create(&c, &md, engine, 1, &allocate));
    CHECK(dnnl_ze_interop_memory_create(&d, &md, engine, 1, &allocate));
    dnnl_primitive_t interop = relu_on(engine, &md);
    dnnl_exec_arg_t interop_args[] = {{DNNL_ARG_SRC, c}, {DNNL_ARG_DST, d}};

    double plain_us[RUNS], interop_us[RUNS];
    for (int r = 0; r < RUNS; r++) {
        double t0 = now_us();
        for (int i = 0; i < ITERATIONS; i++) {
            CHECK(dnnl_primitive_execute(plain, cpu_stream, 2, plain_args));
            CHECK(dnnl_stream_wait(cpu_stream));
        }
        double t1 = now_us();
        for (int i = 0; i < ITERATIONS; i++) {
            ze_event_handle_t done;
            CHECK(dnnl_ze_interop_primitive_execute(interop, stream, 2, interop_args, 0, NULL,
                                                    &done));
            CHECK(zeEventHostSynchronize(done, UINT64_MAX));
        }
        double t2 = now_us();
        plain_us[r] = (t1 - t0) / ITERATIONS;
        interop_us[r] = (t2 - t1) / ITERATIONS;
    }
    qsort(plain_us, RUNS, sizeof(double), by_value);
    qsort(interop_us, RUNS, sizeof(double), by_value);
    printf("1x16x8x8 ReLU, median of %d runs x %d executes (zeil %s)\n", RUNS, ITERATIONS,
           getenv("ZE_ENABLE_LAYERS") ? "layer on" : "layer off");
    printf("  dnnl_primitive_execute + dnnl_stream_wait:              %8.2f us\n",
           plain_us[RUNS / 2]);
    printf("  dnnl_ze_interop_primitive_execute + event host sync:    %8.2f us\n",
           interop_us[RUNS / 2]);
    printf("  overhead:                                               %8.2f us\n",
           interop_us[RUNS / 2] - plain_us[RUNS / 2]);
    return 0;
}
