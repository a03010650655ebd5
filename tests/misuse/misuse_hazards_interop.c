/*
 * Hazard misuse through the interop library (ZEIL_CHECKS=hazards): a stream
 * that waits on the wrong event of another stream.
 */
#include "misuse.h"

#include "misuse_interop.h"

static dnnl_stream_t in_order_stream(const interop_fixture_t *x)
{
    ze_command_list_handle_t list = zt_in_order_list(&x->f.env);
    dnnl_stream_t stream = NULL;
    DNNL_OK(dnnl_ze_interop_stream_create(&stream, x->engine, list, 0));
    return stream;
}

static ze_event_handle_t relu(const interop_fixture_t *x, dnnl_stream_t stream, dnnl_memory_t src,
                              dnnl_memory_t dst, ze_event_handle_t wait)
{
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
    ze_event_handle_t done = NULL;
    DNNL_OK(dnnl_ze_interop_primitive_execute(x->relu, stream, 2, args, wait ? 1 : 0,
                                              wait ? &wait : NULL, &done));
    return done;
}

/* Stream A: src -> mid -> out; stream B reads out, but waits on the event
 * of A's first ReLU instead of its second. */
/* oneDNN has no nhandles == 0: DNNL_MEMORY_ALLOCATE asks for a buffer. */
static void *allocate = DNNL_MEMORY_ALLOCATE;

static void wait_on_wrong_event(void)
{
    interop_fixture_t x;
    misuse_interop_open(&x);
    dnnl_stream_t a = in_order_stream(&x), b = in_order_stream(&x);
    dnnl_memory_t mid, out, result;
    DNNL_OK(dnnl_ze_interop_memory_create(&mid, &x.md, x.engine, 1, &allocate));
    DNNL_OK(dnnl_ze_interop_memory_create(&out, &x.md, x.engine, 1, &allocate));
    DNNL_OK(dnnl_ze_interop_memory_create(&result, &x.md, x.engine, 1, &allocate));
    ze_event_handle_t first = relu(&x, a, x.src, mid, NULL);
    relu(&x, a, mid, out, NULL);
    ze_event_handle_t read = relu(&x, b, out, result, first); /* reported, and it runs */
    ck_assert_ptr_nonnull(read);
    DNNL_OK(dnnl_stream_wait(a));
    DNNL_OK(dnnl_stream_wait(b));
    ck_assert_uint_eq(zeil_rule_count("ZEIL-E090"), 1);
    DNNL_OK(dnnl_memory_destroy(mid));
    DNNL_OK(dnnl_memory_destroy(out));
    DNNL_OK(dnnl_memory_destroy(result));
    DNNL_OK(dnnl_stream_destroy(a));
    DNNL_OK(dnnl_stream_destroy(b));
}

static const char *const hazards_env[] = {"ZEIL_CHECKS=hazards", NULL};
static const misuse_case_t cases[] = {
    {"hazard_wait_on_wrong_event", "ZEIL-E090", wait_on_wrong_event, hazards_env},
};

misuse_case_list_t misuse_hazard_interop_cases(void)
{
    return MISUSE_LIST(cases);
}
