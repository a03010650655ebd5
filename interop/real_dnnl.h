/*
 * real_dnnl.h: the definitions behind the ones libzeil_interop puts in front
 * of oneDNN's and the loader's (interpose.h): oneDNN's own create, execute,
 * destroy and wait functions and the loader's zeEventHostSynchronize, looked
 * up once; and the check that zeil's definitions come first.
 */
#ifndef ZEIL_INTEROP_REAL_DNNL_H
#define ZEIL_INTEROP_REAL_DNNL_H

#include <zeil/dnnl_ze.h>

/* dnnl_success, or E126 and dnnl_runtime_error when oneDNN's definitions
 * come first for the application. */
dnnl_status_t interpose_check(const char *call);

/* oneDNN's own functions (the next definitions behind zeil's). */
dnnl_status_t real_dnnl_memory_destroy(dnnl_memory_t memory);
dnnl_status_t real_dnnl_stream_destroy(dnnl_stream_t stream);
dnnl_status_t real_dnnl_stream_wait(dnnl_stream_t stream);
dnnl_status_t real_dnnl_engine_destroy(dnnl_engine_t engine);
dnnl_status_t real_dnnl_engine_get_kind(dnnl_engine_t engine, dnnl_engine_kind_t *kind);
dnnl_status_t real_dnnl_stream_create(dnnl_stream_t *stream, dnnl_engine_t engine, unsigned flags);
dnnl_status_t real_dnnl_primitive_execute(const_dnnl_primitive_t primitive, dnnl_stream_t stream,
                                          int nargs, const dnnl_exec_arg_t *args);
ze_result_t real_zeEventHostSynchronize(ze_event_handle_t event, uint64_t timeout);
dnnl_status_t real_dnnl_memory_create(dnnl_memory_t *memory, dnnl_ze_interop_memory_desc_t md,
                                      dnnl_engine_t engine, void *handle);

#endif
