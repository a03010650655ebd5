/*
 * Misuse of the interop API (rules ZEIL-E1xx / W1xx). Observables: a refused
 * engine builds no module, a refused stream or execute appends nothing to
 * the list (zeil's submission count is unchanged and the list still takes
 * work), refused memory is not created. Cache blobs: misuse_interop_blobs.c.
 */
#include "misuse.h"

#include "misuse_interop.h"

#include <stdlib.h>
#include <string.h>

/* oneDNN has no nhandles == 0: DNNL_MEMORY_ALLOCATE asks for a buffer. */
static void *allocate = DNNL_MEMORY_ALLOCATE;

uint64_t misuse_live_modules(void)
{
    zeil_live_counts_t live;
    zeil_get_live_counts(&live);
    return live.handles[ZEIL_KIND_MODULE];
}

static dnnl_primitive_t relu_on(dnnl_engine_t engine, const dnnl_memory_desc_t *md)
{
    dnnl_eltwise_desc_t relu;
    DNNL_OK(dnnl_eltwise_forward_desc_init(&relu, dnnl_forward_inference, dnnl_eltwise_relu, md,
                                           0.f, 0.f));
    dnnl_primitive_desc_t pd;
    dnnl_primitive_t primitive;
    DNNL_OK(dnnl_primitive_desc_create(&pd, &relu, NULL, engine, NULL));
    DNNL_OK(dnnl_primitive_create(&primitive, pd));
    DNNL_OK(dnnl_primitive_desc_destroy(pd));
    return primitive;
}

void misuse_interop_open(interop_fixture_t *x)
{
    memset(x, 0, sizeof *x);
    zl_open(&x->f);
    DNNL_OK(dnnl_ze_interop_engine_create(&x->engine, x->f.env.driver, x->f.env.device,
                                          x->f.env.context));
    x->list = zt_immediate_list(&x->f.env, 0);
    DNNL_OK(dnnl_ze_interop_stream_create(&x->stream, x->engine, x->list, 0));
    const dnnl_dims_t dims = {1, 16, 8, 8};
    DNNL_OK(dnnl_memory_desc_init_by_tag(&x->md, 4, dims, dnnl_f32, dnnl_nchw));
    x->relu = relu_on(x->engine, &x->md);
    DNNL_OK(dnnl_ze_interop_memory_create(&x->src, &x->md, x->engine, 1, &allocate));
    DNNL_OK(dnnl_ze_interop_memory_create(&x->dst, &x->md, x->engine, 1, &allocate));
}

/* Nothing reached the stream's list since count was read, and it works. */
static void assert_list_untouched(interop_fixture_t *x, uint64_t count)
{
    ck_assert_uint_eq(zeil_submission_count(x->list), count);
    misuse_assert_list_works(x->list, x->f.event[7]);
}

static ze_result_t execute_relu(interop_fixture_t *x, dnnl_stream_t stream, dnnl_memory_t src,
                                int ndeps, const ze_event_handle_t *deps, dnnl_status_t *status)
{
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, x->dst}};
    ze_event_handle_t done = NULL;
    *status = dnnl_ze_interop_primitive_execute(x->relu, stream, 2, args, ndeps, deps, &done);
    if (!done)
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    /* Never exit with the primitive still running on the driver's thread. */
    ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    return ZE_RESULT_SUCCESS;
}

/* ---- engines ---- */

static void engine_with_null_context(void)
{
    zl_fixture_t f;
    zl_open(&f);
    uint64_t modules = misuse_live_modules();
    dnnl_engine_t engine = NULL;
    DNNL_STATUS(dnnl_invalid_arguments,
                dnnl_ze_interop_engine_create(&engine, f.env.driver, f.env.device, NULL));
    ck_assert_ptr_null(engine);
    ck_assert_uint_eq(misuse_live_modules(), modules);
}

static void engine_with_device_of_other_driver(void)
{
    zl_fixture_t f;
    zl_open(&f);
    uint32_t n = 2;
    ze_driver_handle_t drivers[2];
    ZT_OK(zeDriverGet(&n, drivers));
    ck_assert_uint_eq(n, 2);
    ze_device_handle_t other_device;
    n = 1;
    ZT_OK(zeDeviceGet(drivers[1] == f.env.driver ? drivers[0] : drivers[1], &n, &other_device));
    uint64_t modules = misuse_live_modules();
    dnnl_engine_t engine = NULL;
    DNNL_STATUS(dnnl_invalid_arguments,
                dnnl_ze_interop_engine_create(&engine, f.env.driver, other_device, f.env.context));
    ck_assert_uint_eq(misuse_live_modules(), modules);
}

static void engine_with_destroyed_context(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_context_handle_t other = misuse_other_context(&f);
    ZT_OK(zeContextDestroy(other));
    uint64_t modules = misuse_live_modules();
    dnnl_engine_t engine = NULL;
    DNNL_STATUS(dnnl_invalid_arguments,
                dnnl_ze_interop_engine_create(&engine, f.env.driver, f.env.device, other));
    ck_assert_uint_eq(misuse_live_modules(), modules);
}

static void engine_with_list_as_context(void)
{
    zl_fixture_t f;
    zl_open(&f);
    uint64_t modules = misuse_live_modules();
    dnnl_engine_t engine = NULL;
    DNNL_STATUS(dnnl_invalid_arguments,
                dnnl_ze_interop_engine_create(&engine, f.env.driver, f.env.device,
                                              (ze_context_handle_t)f.list));
    ck_assert_uint_eq(misuse_live_modules(), modules);
    misuse_assert_list_works(f.list, f.event[0]);
}

static void engine_getter_after_context_destroyed(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_context_handle_t other = misuse_other_context(&f);
    dnnl_engine_t engine;
    DNNL_OK(dnnl_ze_interop_engine_create(&engine, f.env.driver, f.env.device, other));
    ZT_OK(zeContextDestroy(other));
    ze_context_handle_t got = NULL;
    DNNL_STATUS(dnnl_invalid_arguments, dnnl_ze_interop_engine_get_context(engine, &got));
    ck_assert_ptr_null(got);
}

/* ---- streams ---- */

static void stream_on_cpu_engine(void)
{
    zl_fixture_t f;
    zl_open(&f);
    dnnl_engine_t cpu;
    DNNL_OK(dnnl_engine_create(&cpu, dnnl_cpu, 0));
    ze_command_list_handle_t list = zt_immediate_list(&f.env, 1);
    dnnl_stream_t stream = NULL;
    DNNL_STATUS(dnnl_invalid_arguments, dnnl_ze_interop_stream_create(&stream, cpu, list, 0));
    ck_assert_uint_eq(zeil_submission_count(list), 0);
    misuse_assert_list_works(list, f.event[0]);
}

static void stream_on_regular_list(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    ze_command_list_handle_t regular = zt_regular_list(&x.f.env);
    dnnl_stream_t stream = NULL;
    DNNL_STATUS(dnnl_invalid_arguments,
                dnnl_ze_interop_stream_create(&stream, x.engine, regular, 0));
    ZT_OK(zeCommandListClose(regular)); /* still an ordinary open list */
}

static void stream_on_list_of_other_context(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    zt_env_t other = x.f.env;
    other.context = misuse_other_context(&x.f);
    ze_command_list_handle_t list = zt_immediate_list(&other, 1);
    dnnl_stream_t stream = NULL;
    DNNL_STATUS(dnnl_invalid_arguments, dnnl_ze_interop_stream_create(&stream, x.engine, list, 0));
    ze_event_pool_handle_t pool = zt_event_pool(&other, 1, 0);
    misuse_assert_list_works(list, zt_event(pool, 0));
}

static void stream_on_destroyed_list(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    ze_command_list_handle_t list = zt_immediate_list(&x.f.env, 1);
    ZT_OK(zeCommandListDestroy(list));
    dnnl_stream_t stream = NULL;
    DNNL_STATUS(dnnl_invalid_arguments, dnnl_ze_interop_stream_create(&stream, x.engine, list, 0));
    ck_assert_ptr_null(stream);
}

static void stream_list_destroyed_then_get_list(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    ZT_OK(zeCommandListDestroy(x.list));
    ze_command_list_handle_t got = NULL;
    DNNL_STATUS(dnnl_invalid_arguments, dnnl_ze_interop_stream_get_list(x.stream, &got));
    ck_assert_ptr_null(got);
}

static void stream_on_list_not_in_order(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x); /* a warning only: the stream works */
    dnnl_status_t status;
    ck_assert_int_eq(execute_relu(&x, x.stream, x.src, 0, NULL, &status), ZE_RESULT_SUCCESS);
    ck_assert_int_eq(status, dnnl_success);
}

static void execute_on_cpu_stream(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    dnnl_engine_t cpu;
    dnnl_stream_t cpu_stream;
    DNNL_OK(dnnl_engine_create(&cpu, dnnl_cpu, 0));
    DNNL_OK(dnnl_stream_create(&cpu_stream, cpu, dnnl_stream_default_flags));
    uint64_t count = zeil_submission_count(x.list);
    dnnl_status_t status;
    execute_relu(&x, cpu_stream, x.src, 0, NULL, &status);
    ck_assert_int_eq(status, dnnl_invalid_arguments);
    assert_list_untouched(&x, count);
}

/* ---- memory ---- */

static void memory_of_malloc_pointer(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    void *heap = malloc(dnnl_memory_desc_get_size(&x.md));
    dnnl_memory_t memory = NULL;
    DNNL_STATUS(dnnl_invalid_arguments,
                dnnl_ze_interop_memory_create(&memory, &x.md, x.engine, 1, &heap));
    ck_assert_ptr_null(memory);
    free(heap);
}

static void memory_too_small(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    void *small = zt_usm_alloc(&x.f.env, ZT_USM_DEVICE, 256, 0);
    dnnl_memory_t memory = NULL;
    DNNL_STATUS(dnnl_invalid_arguments,
                dnnl_ze_interop_memory_create(&memory, &x.md, x.engine, 1, &small));
    ck_assert_ptr_null(memory);
    misuse_assert_memory_usable(&x.f, small, 256);
}

static void memory_of_freed_usm(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    void *gone = zt_usm_alloc(&x.f.env, ZT_USM_DEVICE, dnnl_memory_desc_get_size(&x.md), 0);
    ZT_OK(zeMemFree(x.f.env.context, gone));
    dnnl_memory_t memory = NULL;
    DNNL_STATUS(dnnl_invalid_arguments,
                dnnl_ze_interop_memory_create(&memory, &x.md, x.engine, 1, &gone));
    ck_assert_ptr_null(memory);
}

static void memory_with_two_handles(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    size_t size = dnnl_memory_desc_get_size(&x.md);
    void *handles[2] = {zt_usm_alloc(&x.f.env, ZT_USM_DEVICE, size, 0),
                        zt_usm_alloc(&x.f.env, ZT_USM_DEVICE, size, 0)};
    dnnl_memory_t memory = NULL;
    dnnl_status_t status = dnnl_ze_interop_memory_create(&memory, &x.md, x.engine, 2, handles);
    ck_assert_int_ne(status, dnnl_success);
    ck_assert_ptr_null(memory);
}

/* oneDNN has no nhandles == 0: refused, and nothing is allocated. */
static void memory_with_no_handles(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    zeil_live_counts_t before, after;
    zeil_get_live_counts(&before);
    dnnl_memory_t memory = NULL;
    DNNL_STATUS(dnnl_invalid_arguments,
                dnnl_ze_interop_memory_create(&memory, &x.md, x.engine, 0, NULL));
    ck_assert_ptr_null(memory);
    zeil_get_live_counts(&after);
    ck_assert_uint_eq(after.allocations, before.allocations);
}

static void memory_allocation_fails(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    dnnl_memory_desc_t huge;
    const dnnl_dims_t dims = {1 << 20, 1 << 20, 1 << 16};
    DNNL_OK(dnnl_memory_desc_init_by_tag(&huge, 3, dims, dnnl_f32, dnnl_abc));
    zeil_live_counts_t before, after;
    zeil_get_live_counts(&before);
    dnnl_memory_t memory = NULL;
    dnnl_status_t status = dnnl_ze_interop_memory_create(&memory, &huge, x.engine, 1, &allocate);
    ck_assert_int_ne(status, dnnl_success);
    zeil_get_live_counts(&after);
    ck_assert_uint_eq(after.allocations, before.allocations);
}

/* ---- execute ---- */

static void execute_with_null_args(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    uint64_t count = zeil_submission_count(x.list);
    ze_event_handle_t done = NULL;
    DNNL_STATUS(dnnl_invalid_arguments,
                dnnl_ze_interop_primitive_execute(x.relu, x.stream, 2, NULL, 0, NULL, &done));
    ck_assert_ptr_null(done);
    assert_list_untouched(&x, count);
}

static void execute_memory_of_other_engine(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    dnnl_engine_t second;
    DNNL_OK(
        dnnl_ze_interop_engine_create(&second, x.f.env.driver, x.f.env.device, x.f.env.context));
    dnnl_memory_t foreign;
    DNNL_OK(dnnl_ze_interop_memory_create(&foreign, &x.md, second, 1, &allocate));
    uint64_t count = zeil_submission_count(x.list);
    dnnl_status_t status;
    execute_relu(&x, x.stream, foreign, 0, NULL, &status);
    ck_assert_int_eq(status, dnnl_invalid_arguments);
    assert_list_untouched(&x, count);
}

static void execute_with_destroyed_dependency(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    ze_event_handle_t gone = x.f.event[6];
    ZT_OK(zeEventDestroy(gone));
    uint64_t count = zeil_submission_count(x.list);
    dnnl_status_t status;
    execute_relu(&x, x.stream, x.src, 1, &gone, &status);
    ck_assert_int_eq(status, dnnl_invalid_arguments);
    assert_list_untouched(&x, count);
}

static void execute_with_dependency_of_other_context(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    zt_env_t other = x.f.env;
    other.context = misuse_other_context(&x.f);
    ze_event_pool_handle_t pool = zt_event_pool(&other, 1, 0);
    ze_event_handle_t foreign = zt_event(pool, 0);
    ZT_OK(zeEventHostSignal(foreign));
    uint64_t count = zeil_submission_count(x.list);
    dnnl_status_t status;
    execute_relu(&x, x.stream, x.src, 1, &foreign, &status);
    ck_assert_int_eq(status, dnnl_invalid_arguments);
    assert_list_untouched(&x, count);
}

static void execute_primitive_of_other_engine(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    dnnl_engine_t second;
    DNNL_OK(
        dnnl_ze_interop_engine_create(&second, x.f.env.driver, x.f.env.device, x.f.env.context));
    dnnl_primitive_t foreign = relu_on(second, &x.md);
    uint64_t count = zeil_submission_count(x.list);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, x.src}, {DNNL_ARG_DST, x.dst}};
    ze_event_handle_t done = NULL;
    DNNL_STATUS(dnnl_invalid_arguments,
                dnnl_ze_interop_primitive_execute(foreign, x.stream, 2, args, 0, NULL, &done));
    assert_list_untouched(&x, count);
}

/* With zeil off the interop library cannot tell an event from any other
 * handle; the driver can, and refuses the append of the primitive's launch
 * (the dependency is the context). */
static void execute_append_refused_by_driver(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    ck_assert(!zeil_is_active());
    ze_event_handle_t not_an_event = (ze_event_handle_t)x.f.env.context;
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, x.src}, {DNNL_ARG_DST, x.dst}};
    ze_event_handle_t done = NULL;
    DNNL_STATUS(dnnl_runtime_error, dnnl_ze_interop_primitive_execute(x.relu, x.stream, 2, args, 1,
                                                                      &not_an_event, &done));
    ck_assert_ptr_null(done);
    ck_assert_uint_eq(zeil_rule_count("ZEIL-E133"), 1);
    /* The stream still takes work. */
    dnnl_status_t status;
    ck_assert_int_eq(execute_relu(&x, x.stream, x.src, 0, NULL, &status), ZE_RESULT_SUCCESS);
    ck_assert_int_eq(status, dnnl_success);
}

/* An execute without DNNL_ARG_DST passes every check zeil can make before
 * the launch (each argument given is valid); oneDNN refuses it only when the
 * kernel runs it on the device, and the kernel reports that. */
static void execute_fails_on_device(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    float *dst = NULL;
    DNNL_OK(dnnl_memory_get_data_handle(x.dst, (void **)&dst));
    size_t n = dnnl_memory_desc_get_size(&x.md) / sizeof *dst;
    for (size_t i = 0; i < n; i++)
        dst[i] = -1.0f;
    uint64_t count = zeil_submission_count(x.list);
    size_t mark = zl_log_mark();
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, x.src}};
    ze_event_handle_t done = NULL;
    /* Asynchronous: the execute itself is accepted and appended. */
    DNNL_OK(dnnl_ze_interop_primitive_execute(x.relu, x.stream, 1, args, 0, NULL, &done));
    ck_assert_ptr_nonnull(done);
    ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    ck_assert_uint_eq(zeil_submission_count(x.list), count + 1);
    zl_assert_one_finding(mark, "ZEIL-E134", "zeil_interop_kernel", "dnnl_primitive_execute(",
                          "returned invalid_arguments", NULL);
    for (size_t i = 0; i < n; i++)
        ck_assert_float_eq(dst[i], -1.0f); /* nothing ran */
    dnnl_status_t status;
    ck_assert_int_eq(execute_relu(&x, x.stream, x.src, 0, NULL, &status), ZE_RESULT_SUCCESS);
    ck_assert_int_eq(status, dnnl_success);
}

/* ---- the library itself ---- */

static void engine_with_zeil_off(void)
{
    zl_fixture_t f;
    zl_open(&f);
    ck_assert(!zeil_is_active());
    dnnl_engine_t engine = NULL;
    DNNL_OK(dnnl_ze_interop_engine_create(&engine, f.env.driver, f.env.device, f.env.context));
}

static void forward_backend_missing(void)
{
    zl_fixture_t f;
    zl_open(&f);
    uint64_t modules = misuse_live_modules();
    dnnl_engine_t engine = NULL;
    ck_assert_int_ne(
        dnnl_ze_interop_engine_create(&engine, f.env.driver, f.env.device, f.env.context),
        dnnl_success);
    ck_assert_ptr_null(engine);
    ck_assert_uint_eq(misuse_live_modules(), modules);
}

static const char *const two_drivers_env[] = {"ZEIL_DRIVERS=$ZEIL_MISUSE_TWO_DRIVERS", NULL};
static const char *const zeil_off_env[] = {"ZE_ENABLE_LAYERS=", NULL};
static const char *const forward_env[] = {"ZEIL_INTEROP_BACKEND=forward", NULL};

/* A device that cannot use system memory (the reference driver's can): only
 * there is a freed range certain to hold nothing the driver accepts. */
static const char *const no_system_memory[] = {"ZEIL_CPU_SYSTEM_MEMORY=0", NULL};

static const misuse_case_t cases[] = {
    {"interop_engine_null_context", "ZEIL-E101", engine_with_null_context, NULL},
    {"interop_execute_null_args", "ZEIL-E101", execute_with_null_args, NULL},
    {"interop_engine_device_of_other_driver", "ZEIL-E102", engine_with_device_of_other_driver,
     two_drivers_env},
    {"interop_engine_destroyed_context", "ZEIL-E103", engine_with_destroyed_context, NULL},
    {"interop_engine_list_as_context", "ZEIL-E103", engine_with_list_as_context, NULL},
    {"interop_stream_on_cpu_engine", "ZEIL-E105", stream_on_cpu_engine, NULL},
    {"interop_getter_context_destroyed", "ZEIL-E106", engine_getter_after_context_destroyed, NULL},
    {"interop_stream_on_regular_list", "ZEIL-E110", stream_on_regular_list, NULL},
    {"interop_stream_list_other_context", "ZEIL-E111", stream_on_list_of_other_context, NULL},
    {"interop_stream_destroyed_list", "ZEIL-E112", stream_on_destroyed_list, NULL},
    {"interop_get_list_after_destroy", "ZEIL-E112", stream_list_destroyed_then_get_list, NULL},
    {"interop_stream_not_in_order", "ZEIL-W113", stream_on_list_not_in_order, NULL},
    {"interop_execute_on_cpu_stream", "ZEIL-E115", execute_on_cpu_stream, NULL},
    {"interop_memory_of_malloc", "ZEIL-E120", memory_of_malloc_pointer, no_system_memory},
    {"interop_memory_too_small", "ZEIL-E121", memory_too_small, NULL},
    {"interop_memory_of_freed_usm", "ZEIL-E122", memory_of_freed_usm, no_system_memory},
    {"interop_memory_two_handles", "ZEIL-E123", memory_with_two_handles, NULL},
    {"interop_memory_no_handles", "ZEIL-E127", memory_with_no_handles, NULL},
    {"interop_memory_allocation_fails", "ZEIL-E124", memory_allocation_fails, NULL},
    {"interop_execute_memory_other_engine", "ZEIL-E125", execute_memory_of_other_engine, NULL},
    {"interop_execute_destroyed_dependency", "ZEIL-E130", execute_with_destroyed_dependency, NULL},
    {"interop_execute_dependency_other_context", "ZEIL-E131",
     execute_with_dependency_of_other_context, NULL},
    {"interop_execute_primitive_other_engine", "ZEIL-E132", execute_primitive_of_other_engine,
     NULL},
    {"interop_execute_append_refused_by_driver", "ZEIL-E133", execute_append_refused_by_driver,
     zeil_off_env},
    {"interop_execute_fails_on_device", "ZEIL-E134", execute_fails_on_device, NULL},
    {"interop_zeil_off", "ZEIL-W150", engine_with_zeil_off, zeil_off_env},
    {"interop_forward_missing", "ZEIL-E152", forward_backend_missing, forward_env},
};

misuse_case_list_t misuse_interop_cases(void)
{
    return MISUSE_LIST(cases);
}
