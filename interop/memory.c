/* Interop memory: oneDNN memory objects over USM of the engine's context. */
#include "memory.h"

#include <stdlib.h>
#include <zeil/dnnl_ze.h>

#include "checks.h"
#include "dnnl_compat.h"
#include "engine.h"
#include "export.h"
#include "forward.h"
#include "handle_map.h"
#include "real_dnnl.h"
#include "rules.h"

/* memory -> the USM it owns */
typedef struct owned_usm {
    void *ptr;
    ze_context_handle_t context;
} owned_usm_t;

static handle_map_t owned_buffers = HANDLE_MAP_INIT;

/* Device USM of the engine's context, for DNNL_MEMORY_ALLOCATE. oneDNN's
 * CPU primitives need 64-byte alignment for their vector loads. */
static dnnl_status_t allocate_device_usm(const char *call, const interop_engine_t *engine,
                                         size_t size, void **ptr)
{
    ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    ze_result_t result = zeMemAllocDevice(engine->context, &desc, size, 64, engine->device, ptr);
    if (result == ZE_RESULT_SUCCESS && *ptr)
        return dnnl_success;
    interop_report(INTEROP_RULE_E124, call, "zeMemAllocDevice(%zu bytes) returned 0x%x", size,
                   (unsigned)result);
    return dnnl_out_of_memory;
}

static dnnl_status_t create_owning(const char *call, dnnl_memory_t *memory,
                                   dnnl_ze_interop_memory_desc_t md, const interop_engine_t *engine,
                                   size_t size)
{
    if (size == 0) /* nothing to own: a zero-size memory has no buffer */
        return real_dnnl_memory_create(memory, md, engine->engine, DNNL_MEMORY_NONE);
    owned_usm_t *owned = malloc(sizeof *owned);
    if (!owned)
        return dnnl_out_of_memory;
    owned->context = engine->context;
    owned->ptr = NULL; /* the clean-up below frees only what was allocated */
    dnnl_status_t status = allocate_device_usm(call, engine, size, &owned->ptr);
    if (status == dnnl_success)
        status = real_dnnl_memory_create(memory, md, engine->engine, owned->ptr);
    if (status == dnnl_success && handle_map_put(&owned_buffers, *memory, owned) != 0) {
        real_dnnl_memory_destroy(*memory);
        status = dnnl_out_of_memory;
    }
    if (status != dnnl_success) {
        if (owned->ptr)
            zeMemFree(owned->context, owned->ptr);
        free(owned);
    }
    return status;
}

INTEROP_EXPORT dnnl_status_t dnnl_ze_interop_memory_create(dnnl_memory_t *memory,
                                                           dnnl_ze_interop_memory_desc_t md,
                                                           dnnl_engine_t engine, int nhandles,
                                                           void **handles)
{
    const char *call = "dnnl_ze_interop_memory_create";
    if (check_not_null(call, memory, "memory output") || check_not_null(call, md, "memory_desc"))
        return dnnl_invalid_arguments;
    interop_engine_t *owner = interop_engine_require(call, engine);
    if (!owner)
        return dnnl_invalid_arguments;
    /* oneDNN's own checks first, with its results: at least one handle,
     * a handle array, a descriptor of a concrete layout. */
    if (nhandles < 1) {
        interop_report(INTEROP_RULE_E127, call,
                       "nhandles is %d; give at least one handle (DNNL_MEMORY_ALLOCATE to "
                       "allocate)",
                       nhandles);
        return dnnl_invalid_arguments;
    }
    if (check_not_null(call, handles, "handles"))
        return dnnl_invalid_arguments;
    const char *unfit = compat_md_unfit_for_memory(md);
    if (unfit) {
        interop_report(INTEROP_RULE_E127, call, "memory_desc %s", unfit);
        return dnnl_invalid_arguments;
    }
    if (nhandles > COMPAT_MAX_MEMORY_HANDLES) {
        interop_report(INTEROP_RULE_E123, call,
                       "nhandles is %d; multi-buffer memory needs oneDNN 3.x", nhandles);
        return dnnl_unimplemented;
    }
    dnnl_status_t status = check_engine_objects_alive(call, owner->device, owner->context);
    if (status != dnnl_success)
        return status;
    void *handle = handles[0];
    size_t size = compat_md_size(md);
    if (handle != DNNL_MEMORY_ALLOCATE && handle != DNNL_MEMORY_NONE) {
        status = check_usm(call, handle, size, owner->context, owner->device, owner->system_memory,
                           "handle");
        if (status != dnnl_success)
            return status;
    }
    if (owner->backend == INTEROP_BACKEND_FORWARD) {
        void *forwarded[1] = {handle};
        return forward_table()->memory_create(memory, md, engine, 1, forwarded);
    }
    if (handle == DNNL_MEMORY_ALLOCATE)
        return create_owning(call, memory, md, owner, size);
    return real_dnnl_memory_create(memory, md, owner->engine, handle);
}

dnnl_status_t interop_memory_create_plain(dnnl_memory_t *memory, dnnl_ze_interop_memory_desc_t md,
                                          interop_engine_t *engine, void *handle)
{
    const char *call = "dnnl_memory_create";
    if (check_not_null(call, memory, "memory output") || check_not_null(call, md, "memory_desc"))
        return dnnl_invalid_arguments;
    dnnl_status_t status = check_engine_objects_alive(call, engine->device, engine->context);
    if (status != dnnl_success)
        return status;
    size_t size = compat_md_size(md);
    if (handle == DNNL_MEMORY_ALLOCATE)
        return create_owning(call, memory, md, engine, size);
    if (handle != DNNL_MEMORY_NONE) {
        status = check_usm(call, handle, size, engine->context, engine->device,
                           engine->system_memory, "handle");
        if (status != dnnl_success)
            return status;
    }
    return real_dnnl_memory_create(memory, md, engine->engine, handle);
}

struct owned_usm *interop_memory_detach(dnnl_memory_t memory)
{
    return memory ? handle_map_take(&owned_buffers, memory) : NULL;
}

void interop_memory_free_owned(struct owned_usm *owned)
{
    if (!owned)
        return;
    zeMemFree(owned->context, owned->ptr);
    free(owned);
}
