/*
 * misuse_interop.h: what the interop misuse cases share (misuse_interop.c,
 * misuse_interop_blobs.c): an interop engine and stream over the layer
 * fixture, and oneDNN status assertions.
 */
#ifndef ZEIL_TESTS_MISUSE_INTEROP_H
#define ZEIL_TESTS_MISUSE_INTEROP_H

#include "misuse.h"

#include <zeil/dnnl_ze.h>
#include <zeil/zeil.h>

#include <oneapi/dnnl/dnnl.h>

#define DNNL_OK(call) \
    do { \
        dnnl_status_t s_ = (call); \
        ck_assert_msg(s_ == dnnl_success, "%s returned %d", #call, (int)s_); \
    } while (0)
#define DNNL_STATUS(expected, call) \
    do { \
        dnnl_status_t s_ = (call); \
        ck_assert_msg(s_ == (expected), "%s returned %d, expected %s", #call, (int)s_, #expected); \
    } while (0)

typedef struct interop_fixture {
    zl_fixture_t f;
    dnnl_engine_t engine;
    ze_command_list_handle_t list; /* the stream's */
    dnnl_stream_t stream;
    dnnl_memory_desc_t md; /* 1x16x8x8 f32 */
    dnnl_primitive_t relu;
    dnnl_memory_t src, dst;
} interop_fixture_t;

/* The fixture, an interop engine, a stream on an immediate list, a ReLU over
 * 1x16x8x8 f32 and source and destination memory owning their USM. */
void misuse_interop_open(interop_fixture_t *x);
/* Modules zeil sees alive (an engine builds one). */
uint64_t misuse_live_modules(void);

#endif
