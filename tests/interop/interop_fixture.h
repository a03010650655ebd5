/* interop_fixture.h: what the interop suites share: a Level Zero
 * environment with an interop engine and stream, device USM, small oneDNN
 * primitives, and asserting that a call was refused with a given rule. */
#ifndef ZEIL_TESTS_INTEROP_FIXTURE_H
#define ZEIL_TESTS_INTEROP_FIXTURE_H

#include <stdint.h>
#include <zeil/dnnl_ze.h>
#include <zeil/zeil.h>

#include "zt.h"

#define IFX_DNNL_OK(call) \
    do { \
        dnnl_status_t ifx_s_ = (call); \
        ck_assert_msg(ifx_s_ == dnnl_success, "%s returned %d", #call, (int)ifx_s_); \
    } while (0)

/* The call returns status and the rule fired exactly once more. */
#define IFX_REFUSED(status, rule, call) \
    do { \
        uint64_t ifx_before_ = zeil_rule_count(rule); \
        dnnl_status_t ifx_s_ = (call); \
        ck_assert_msg(ifx_s_ == (status), "%s returned %d, expected %s", #call, (int)ifx_s_, \
                      #status); \
        ck_assert_msg(zeil_rule_count(rule) == ifx_before_ + 1, "%s did not report %s", #call, \
                      rule); \
    } while (0)

typedef struct ifx {
    zt_env_t env;
    dnnl_engine_t engine;
    ze_command_list_handle_t list;
    dnnl_stream_t stream;
} ifx_t;

/* zeInit, an interop engine, an in-order immediate list and a stream on it. */
void ifx_open(ifx_t *f);
void ifx_close(ifx_t *f);

/* An asynchronous immediate list; in_order adds ZE_COMMAND_QUEUE_FLAG_IN_ORDER. */
ze_command_list_handle_t ifx_list(const zt_env_t *env, int in_order);

void *ifx_device_alloc(const zt_env_t *env, size_t size);

/* A plain f32 memory descriptor (nchw / oihw / ab... by rank). */
dnnl_memory_desc_t ifx_md(int ndims, const dnnl_dim_t *dims);

/* Memory over a fresh device USM buffer holding n floats (values copied in
 * when values is non-null); *ptr receives the buffer. */
dnnl_memory_t ifx_memory(const ifx_t *f, const dnnl_memory_desc_t *md, const float *values,
                         float **ptr);

/* ReLU (or linear: alpha * x + beta) over md, forward inference. */
dnnl_primitive_t ifx_eltwise(dnnl_engine_t engine, const dnnl_memory_desc_t *md,
                             dnnl_alg_kind_t alg, float alpha, float beta);

/* The primitive's implementation string. */
const char *ifx_impl(const_dnnl_primitive_t primitive);

/* Waits for an event returned by execute (fails the test on timeout). */
void ifx_wait(ze_event_handle_t event);

#endif
