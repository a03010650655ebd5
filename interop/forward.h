/*
 * forward.h: the forward backend's target, another oneDNN in the process with
 * its own Level Zero runtime, found as the next definition of every
 * dnnl_ze_interop_* behind zeil's (dlsym(RTLD_NEXT, ...)).
 */
#ifndef ZEIL_INTEROP_FORWARD_H
#define ZEIL_INTEROP_FORWARD_H

#include <zeil/dnnl_ze.h>

#define FORWARD_FUNCTIONS(X) \
    X(engine_get_cache_blob_id) \
    X(engine_get_cache_blob) \
    X(engine_create_from_cache_blob) \
    X(engine_create) \
    X(engine_get_context) \
    X(engine_get_device) \
    X(engine_get_driver) \
    X(stream_create) \
    X(stream_get_list) \
    X(memory_create) \
    X(primitive_execute)

typedef struct forward_table {
#define FORWARD_MEMBER(name) __typeof__(&dnnl_ze_interop_##name) name;
    FORWARD_FUNCTIONS(FORWARD_MEMBER)
#undef FORWARD_MEMBER
} forward_table_t;

/* The next implementation, or null when the process has none (or only some
 * of its functions). */
const forward_table_t *forward_table(void);

#endif
