/*
 * The oneDNN thread: ReLU primitives executed alternately on two interop
 * streams, each bound to its own immediate list of the shared context, while
 * the workers hammer the same context.
 */
#include "stress.h"

#include <zeil/dnnl_ze.h>
#include <zeil/zeil.h>

#include <oneapi/dnnl/dnnl.h>

/* oneDNN has no nhandles == 0: DNNL_MEMORY_ALLOCATE asks for a buffer. */
static void *allocate = DNNL_MEMORY_ALLOCATE;

#define DNNL_OK(call) \
    do { \
        dnnl_status_t s_ = (call); \
        ck_assert_msg(s_ == dnnl_success, "%s returned %d", #call, (int)s_); \
    } while (0)

void *stress_dnnl_run(void *arg)
{
    stress_dnnl_t *d = arg;
    dnnl_engine_t engine;
    DNNL_OK(
        dnnl_ze_interop_engine_create(&engine, d->env->driver, d->env->device, d->env->context));
    dnnl_stream_t stream[2];
    for (int s = 0; s < 2; s++) {
        d->list[s] = zt_immediate_list(d->env, 0);
        DNNL_OK(dnnl_ze_interop_stream_create(&stream[s], engine, d->list[s], 0));
    }
    dnnl_memory_desc_t md;
    const dnnl_dims_t dims = {1, 16, 8, 8};
    DNNL_OK(dnnl_memory_desc_init_by_tag(&md, 4, dims, dnnl_f32, dnnl_nchw));
    dnnl_eltwise_desc_t relu;
    DNNL_OK(dnnl_eltwise_forward_desc_init(&relu, dnnl_forward_inference, dnnl_eltwise_relu, &md,
                                           0.f, 0.f));
    dnnl_primitive_desc_t pd;
    dnnl_primitive_t primitive;
    DNNL_OK(dnnl_primitive_desc_create(&pd, &relu, NULL, engine, NULL));
    DNNL_OK(dnnl_primitive_create(&primitive, pd));
    DNNL_OK(dnnl_primitive_desc_destroy(pd));
    dnnl_memory_t src[2], dst[2];
    for (int s = 0; s < 2; s++) {
        DNNL_OK(dnnl_ze_interop_memory_create(&src[s], &md, engine, 1, &allocate));
        DNNL_OK(dnnl_ze_interop_memory_create(&dst[s], &md, engine, 1, &allocate));
    }
    for (uint64_t i = 0; i < 2 * d->executes; i++) {
        int s = (int)(i % 2);
        dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src[s]}, {DNNL_ARG_DST, dst[s]}};
        ze_event_handle_t done = NULL;
        DNNL_OK(dnnl_ze_interop_primitive_execute(primitive, stream[s], 2, args, 0, NULL, &done));
        ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
        d->done[s]++;
    }
    for (int s = 0; s < 2; s++) {
        d->submissions[s] = zeil_submission_count(d->list[s]);
        DNNL_OK(dnnl_memory_destroy(src[s]));
        DNNL_OK(dnnl_memory_destroy(dst[s]));
        DNNL_OK(dnnl_stream_destroy(stream[s]));
        ZT_OK(zeCommandListDestroy(d->list[s]));
    }
    DNNL_OK(dnnl_primitive_destroy(primitive));
    DNNL_OK(dnnl_engine_destroy(engine));
    return NULL;
}
