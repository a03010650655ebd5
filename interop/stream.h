/* stream.h: zeil's record of an interop stream, bound to a command list. */
#ifndef ZEIL_INTEROP_STREAM_H
#define ZEIL_INTEROP_STREAM_H

#include <pthread.h>
#include <zeil/dnnl_ze.h>

#include "engine.h"
#include "launch_packets.h"

typedef struct interop_stream {
    dnnl_stream_t stream;          /* what the user holds */
    interop_engine_t *engine;      /* retained */
    ze_command_list_handle_t list; /* not owned */
    int profiling;
    /* host backend */
    dnnl_stream_t worker;          /* the CPU stream launches run primitives on */
    ze_kernel_handle_t kernel;     /* this stream's own kernel object */
    pthread_mutex_t lock;          /* kernel arguments + append + ring */
    packet_ring_t ring;
} interop_stream_t;

/* The record of an interop stream, or null for any other stream. */
interop_stream_t *interop_stream_find(const_dnnl_stream_t stream);
/* Like interop_stream_find, reporting E101/E115 for the call. */
interop_stream_t *interop_stream_require(const char *call, const_dnnl_stream_t stream);

/* dnnl_stream_wait: waits for every launch appended so far. */
void interop_stream_wait(interop_stream_t *stream);
/* dnnl_stream_destroy: drops the record; waits for its launches and frees
 * what belongs to it (returned events included). No-op for other streams. */
void interop_stream_forget(dnnl_stream_t stream);

#endif
