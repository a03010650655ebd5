/*
 * interpose.h: libzeil_interop defines dnnl_memory_destroy,
 * dnnl_stream_destroy, dnnl_stream_wait and dnnl_engine_destroy in front of
 * oneDNN's, because oneDNN 2.6 has no destruction hook: this is how a
 * DNNL_MEMORY_ALLOCATE buffer is freed exactly once with its memory object,
 * how a stream's events and packets are released with it, and how
 * dnnl_stream_wait waits for the work appended to its command list. Each
 * definition releases zeil's part, then calls oneDNN's own function.
 *
 * It works when libzeil_interop precedes libdnnl in symbol lookup order
 * (the zeil_interop CMake target and pkg-config file put it first);
 * interpose_check reports W151 once when it does not.
 */
#ifndef ZEIL_INTEROP_INTERPOSE_H
#define ZEIL_INTEROP_INTERPOSE_H

#include <oneapi/dnnl/dnnl.h>

void interpose_check(const char *call);

/* oneDNN's own functions (the next definitions behind zeil's). */
dnnl_status_t real_dnnl_memory_destroy(dnnl_memory_t memory);
dnnl_status_t real_dnnl_stream_destroy(dnnl_stream_t stream);
dnnl_status_t real_dnnl_stream_wait(dnnl_stream_t stream);
dnnl_status_t real_dnnl_engine_destroy(dnnl_engine_t engine);

#endif
