/*
 * zeil_bench_forward3: the per-execute cost of zeil's forward backend in
 * front of oneDNN 3.13's own dnnl_ze_interop_primitive_execute, on the
 * reference driver as a GPU (scripts/bench-onednn3 runs it under zeil-run
 * --as-gpu). Rounds alternate zeil's execute and oneDNN's own (found in
 * libdnnl.so.3) on the same primitive, stream and memory; each round times
 * ROUND_EXECUTES executes and waits for the stream. Prints one JSON object:
 * the medians per execute and their difference, or nulls with the reason
 * when oneDNN cannot make the primitive (the driver runs no kernels).
 */
#include <level_zero/ze_api.h>
#include <oneapi/dnnl/dnnl.h>
#include <zeil/dnnl_ze.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum {
    ROUNDS = 15,
    ROUND_EXECUTES = 200,
    ELEMENTS = 64
};

typedef __typeof__(&dnnl_ze_interop_primitive_execute) execute_fn;

static void give_up(const char *why)
{
    printf("{\"zeil_ns\": null, \"onednn_ns\": null, \"added_ns\": null, \"reason\": \"%s\"}\n",
           why);
    exit(0);
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct setup {
    dnnl_primitive_t relu;
    dnnl_stream_t stream;
    dnnl_exec_arg_t args[2];
} setup_t;

/* One round: ROUND_EXECUTES executes through fn, then the stream's wait; ns per execute. */
static double round_ns(execute_fn fn, const setup_t *s)
{
    double start = now_ns();
    for (int i = 0; i < ROUND_EXECUTES; i++) {
        ze_event_handle_t ev = NULL;
        if (fn(s->relu, s->stream, 2, s->args, 0, NULL, &ev) != dnnl_success)
            give_up("an execute failed");
    }
    if (dnnl_stream_wait(s->stream) != dnnl_success)
        give_up("dnnl_stream_wait failed");
    return (now_ns() - start) / ROUND_EXECUTES;
}

static void make_setup(setup_t *s)
{
    ze_driver_handle_t driver = NULL;
    ze_device_handle_t device = NULL;
    ze_context_handle_t context = NULL;
    uint32_t n = 1;
    ze_context_desc_t cdesc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    if (zeInit(0) || zeDriverGet(&n, &driver) || zeDeviceGet(driver, &n, &device) ||
        zeContextCreate(driver, &cdesc, &context))
        give_up("no Level Zero device");
    ze_command_queue_desc_t qdesc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                     NULL,
                                     0,
                                     0,
                                     ZE_BIT(1),
                                     ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                     ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t list = NULL;
    if (zeCommandListCreateImmediate(context, device, &qdesc, &list))
        give_up("no immediate command list");
    dnnl_engine_t engine = NULL;
    if (dnnl_ze_interop_engine_create(&engine, driver, device, context) != dnnl_success ||
        dnnl_ze_interop_stream_create(&s->stream, engine, list, 0) != dnnl_success)
        give_up("no interop engine or stream");
    dnnl_memory_desc_t md = NULL;
    const dnnl_dims_t dims = {ELEMENTS};
    dnnl_memory_desc_create_with_tag(&md, 1, dims, dnnl_f32, dnnl_a);
    dnnl_primitive_desc_t pd = NULL;
    if (dnnl_eltwise_forward_primitive_desc_create(&pd, engine, dnnl_forward_inference,
                                                   dnnl_eltwise_relu, md, md, 0.f, 0.f,
                                                   NULL) != dnnl_success ||
        dnnl_primitive_create(&s->relu, pd) != dnnl_success)
        give_up("oneDNN made no eltwise primitive (the driver runs no OpenCL C kernels yet)");
    ze_device_mem_alloc_desc_t ddesc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    void *src = NULL, *dst = NULL;
    dnnl_memory_t m_src = NULL, m_dst = NULL;
    if (zeMemAllocDevice(context, &ddesc, ELEMENTS * 4, 64, device, &src) ||
        zeMemAllocDevice(context, &ddesc, ELEMENTS * 4, 64, device, &dst) ||
        dnnl_ze_interop_memory_create(&m_src, md, engine, 1, &src) != dnnl_success ||
        dnnl_ze_interop_memory_create(&m_dst, md, engine, 1, &dst) != dnnl_success)
        give_up("no memory");
    s->args[0] = (dnnl_exec_arg_t){DNNL_ARG_SRC, m_src};
    s->args[1] = (dnnl_exec_arg_t){DNNL_ARG_DST, m_dst};
}

int main(void)
{
    setup_t s;
    make_setup(&s);
    void *lib = dlopen("libdnnl.so.3", RTLD_LAZY | RTLD_NOLOAD);
    execute_fn onednn = lib ? (execute_fn)dlsym(lib, "dnnl_ze_interop_primitive_execute") : NULL;
    if (!onednn)
        give_up("oneDNN's own dnnl_ze_interop_primitive_execute not found");
    double zeil[ROUNDS], own[ROUNDS], added[ROUNDS];
    round_ns(dnnl_ze_interop_primitive_execute, &s); /* warm-up: first executes build state */
    round_ns(onednn, &s);
    for (int r = 0; r < ROUNDS; r++) {
        zeil[r] = round_ns(dnnl_ze_interop_primitive_execute, &s);
        own[r] = round_ns(onednn, &s);
        added[r] = zeil[r] - own[r];
    }
    qsort(zeil, ROUNDS, sizeof(double), by_value);
    qsort(own, ROUNDS, sizeof(double), by_value);
    qsort(added, ROUNDS, sizeof(double), by_value);
    printf("{\"zeil_ns\": %.1f, \"onednn_ns\": %.1f, \"added_ns\": %.1f, \"reason\": null}\n",
           zeil[ROUNDS / 2], own[ROUNDS / 2], added[ROUNDS / 2]);
    return 0;
}
