/* memory.h: interop memory objects and the USM they own. */
#ifndef ZEIL_INTEROP_MEMORY_H
#define ZEIL_INTEROP_MEMORY_H

#include <oneapi/dnnl/dnnl.h>

#include "engine.h"

struct owned_usm;

/* dnnl_memory_create on a host interop engine, as oneDNN's on a Level Zero
 * engine: DNNL_MEMORY_ALLOCATE allocates USM of the engine (owned by the
 * memory object), DNNL_MEMORY_NONE has no buffer, any other handle is
 * checked like a dnnl_ze_interop_memory_create handle. */
dnnl_status_t interop_memory_create_plain(dnnl_memory_t *memory, dnnl_ze_interop_memory_desc_t md,
                                          interop_engine_t *engine, void *handle);

/* dnnl_memory_destroy, before oneDNN destroys the object: takes the device
 * USM the memory owns (DNNL_MEMORY_ALLOCATE) out of the table, so it is
 * freed exactly once; null for memory that owns nothing. */
struct owned_usm *interop_memory_detach(dnnl_memory_t memory);
/* After oneDNN destroyed the object: frees the USM (null: nothing). */
void interop_memory_free_owned(struct owned_usm *owned);

#endif
