/* stream.h: zeil's record of an interop stream, bound to a command list. */
#ifndef ZEIL_INTEROP_STREAM_H
#define ZEIL_INTEROP_STREAM_H

#include <pthread.h>
#include <zeil/dnnl_ze.h>

#include "engine.h"
#include "event_ring.h"
#include "launch_packets.h"

typedef struct interop_stream {
    dnnl_stream_t stream;          /* what the user holds */
    interop_engine_t *engine;      /* retained */
    ze_command_list_handle_t list; /* owned only when owns_list */
    int owns_list;                 /* created by dnnl_stream_create (the library) */
    int profiling;
    /* host backend */
    dnnl_stream_t worker;      /* the CPU stream launches run primitives on */
    ze_kernel_handle_t kernel; /* this stream's own kernel object */
    pthread_mutex_t lock;      /* kernel arguments + append + rings */
    packet_ring_t ring;
    event_ring_t events;
    uint64_t executes;                /* appended so far: execute numbers in messages */
    ze_event_pool_handle_t wait_pool; /* dnnl_stream_wait's barrier event */
    ze_event_handle_t wait_event;
} interop_stream_t;

/* The record of an interop stream, or null for any other stream. */
interop_stream_t *interop_stream_find(const_dnnl_stream_t stream);
/* Like interop_stream_find, reporting E101/E115 for the call. */
interop_stream_t *interop_stream_require(const char *call, const_dnnl_stream_t stream);

/* dnnl_stream_create on a host interop engine: a stream that owns a new
 * in-order immediate command list of the engine's context and device, as
 * oneDNN's streams on Level Zero engines do. */
dnnl_status_t interop_stream_create_owning_list(dnnl_stream_t *stream, interop_engine_t *engine,
                                                unsigned flags);

/* dnnl_primitive_execute on a host interop stream: validated and appended
 * to the stream's list like dnnl_ze_interop_primitive_execute, in order
 * after everything appended before; returns without waiting (execute.c). */
dnnl_status_t interop_execute_plain(const_dnnl_primitive_t primitive, interop_stream_t *stream,
                                    int nargs, const dnnl_exec_arg_t *args);

/* dnnl_stream_wait: waits for every launch appended so far. */
void interop_stream_wait(interop_stream_t *stream);
/* dnnl_stream_destroy: drops the record; waits for its launches and frees
 * what belongs to it (returned events included). No-op for other streams. */
void interop_stream_forget(dnnl_stream_t stream);

#endif
