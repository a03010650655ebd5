/*
 * Unified shared memory: device, host and shared allocations (all host
 * memory underneath, from the driver's own arena: rd_arena.h), their table,
 * and the property and range queries.
 */
#include "rd_api.h"
#include "rd_arena.h"
#include "rd_context.h"
#include "rd_memory.h"

#include <stdlib.h>
#include <string.h>

void rd_alloc_table_init(rd_alloc_table_t *table)
{
    memset(table, 0, sizeof *table);
    pthread_mutex_init(&table->lock, NULL);
    table->next_id = 1;
}

/* Index of the last allocation whose base is <= addr, or -1. Caller locks. */
static long table_floor(const rd_alloc_table_t *t, uintptr_t addr)
{
    long lo = 0, hi = (long)t->count - 1, found = -1;
    while (lo <= hi) {
        long mid = lo + (hi - lo) / 2;
        if (t->items[mid].base <= addr) {
            found = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return found;
}

/* Index of the allocation that contains addr, or -1. Caller locks. */
static long table_find(const rd_alloc_table_t *t, uintptr_t addr)
{
    long i = table_floor(t, addr);
    if (i >= 0 && addr - t->items[i].base < t->items[i].size)
        return i;
    return -1;
}

static int table_insert(rd_alloc_table_t *t, rd_alloc_t *alloc)
{
    pthread_mutex_lock(&t->lock);
    if (t->count == t->capacity) {
        size_t cap = t->capacity ? t->capacity * 2 : 64;
        rd_alloc_t *items = realloc(t->items, cap * sizeof *items);
        if (!items) {
            pthread_mutex_unlock(&t->lock);
            return 0;
        }
        t->items = items;
        t->capacity = cap;
    }
    alloc->id = t->next_id++;
    size_t at = (size_t)(table_floor(t, alloc->base) + 1);
    memmove(&t->items[at + 1], &t->items[at], (t->count - at) * sizeof *t->items);
    t->items[at] = *alloc;
    t->count++;
    pthread_mutex_unlock(&t->lock);
    return 1;
}

static ze_result_t check_alignment(size_t size, size_t alignment)
{
    if (size == 0)
        return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
    if (alignment & (alignment - 1))
        return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t allocate(rd_context_t *ctx, rd_device_t *dev, ze_memory_type_t type, size_t size,
                            size_t alignment, void **pptr)
{
    RD_TRY(check_alignment(size, alignment));
    uint64_t limit = ctx->driver->host.memory_bytes; /* maxMemAllocSize; 0 when unknown */
    if (limit && size > limit)
        return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
    if (alignment < RD_DEFAULT_ALIGNMENT)
        alignment = RD_DEFAULT_ALIGNMENT;
    size_t block = 0;
    void *mem = rd_arena_alloc(size, alignment, &block);
    if (!mem)
        return type == ZE_MEMORY_TYPE_DEVICE ? ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY
                                             : ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    rd_alloc_t alloc = {(uintptr_t)mem, size, type, 0, ctx, dev, block};
    if (!table_insert(&ctx->driver->allocs, &alloc)) {
        rd_arena_free(mem, block);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    *pptr = mem;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeMemAllocDevice(ze_context_handle_t hContext,
                                           const ze_device_mem_alloc_desc_t *device_desc,
                                           size_t size, size_t alignment,
                                           ze_device_handle_t hDevice, void **pptr)
{
    RD_HANDLE(rd_context_t, ctx, hContext, RD_MAGIC_CONTEXT);
    RD_HANDLE(rd_device_t, dev, hDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(device_desc);
    RD_NOT_NULL(pptr);
    if (device_desc->flags > 0x7)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    if (!rd_context_has_device(ctx, dev))
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    return allocate(ctx, dev, ZE_MEMORY_TYPE_DEVICE, size, alignment, pptr);
}

ze_result_t ZE_APICALL rd_zeMemAllocHost(ze_context_handle_t hContext,
                                         const ze_host_mem_alloc_desc_t *host_desc, size_t size,
                                         size_t alignment, void **pptr)
{
    RD_HANDLE(rd_context_t, ctx, hContext, RD_MAGIC_CONTEXT);
    RD_NOT_NULL(host_desc);
    RD_NOT_NULL(pptr);
    if (host_desc->flags > 0xf)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    return allocate(ctx, NULL, ZE_MEMORY_TYPE_HOST, size, alignment, pptr);
}

ze_result_t ZE_APICALL rd_zeMemAllocShared(ze_context_handle_t hContext,
                                           const ze_device_mem_alloc_desc_t *device_desc,
                                           const ze_host_mem_alloc_desc_t *host_desc, size_t size,
                                           size_t alignment, ze_device_handle_t hDevice,
                                           void **pptr)
{
    RD_HANDLE(rd_context_t, ctx, hContext, RD_MAGIC_CONTEXT);
    RD_NOT_NULL(device_desc);
    RD_NOT_NULL(host_desc);
    RD_NOT_NULL(pptr);
    if (device_desc->flags > 0x7 || host_desc->flags > 0xf)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    rd_device_t *dev = NULL;
    if (hDevice) { /* optional: without it the allocation is shared by all devices */
        RD_HANDLE(rd_device_t, d, hDevice, RD_MAGIC_DEVICE);
        if (!rd_context_has_device(ctx, d))
            return ZE_RESULT_ERROR_INVALID_ARGUMENT;
        dev = d;
    }
    return allocate(ctx, dev, ZE_MEMORY_TYPE_SHARED, size, alignment, pptr);
}

ze_result_t ZE_APICALL rd_zeMemFree(ze_context_handle_t hContext, void *ptr)
{
    RD_HANDLE(rd_context_t, ctx, hContext, RD_MAGIC_CONTEXT);
    RD_NOT_NULL(ptr);
    rd_alloc_table_t *t = &ctx->driver->allocs;
    pthread_mutex_lock(&t->lock);
    long i = table_find(t, (uintptr_t)ptr);
    /* Only the base of an allocation of this context can be freed. */
    if (i < 0 || t->items[i].base != (uintptr_t)ptr || t->items[i].context != ctx) {
        pthread_mutex_unlock(&t->lock);
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    size_t block = t->items[i].block;
    memmove(&t->items[i], &t->items[i + 1], (t->count - (size_t)i - 1) * sizeof *t->items);
    t->count--;
    pthread_mutex_unlock(&t->lock);
    rd_arena_free(ptr, block);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeMemFreeExt(ze_context_handle_t hContext,
                                       const ze_memory_free_ext_desc_t *pMemFreeDesc, void *ptr)
{
    RD_NOT_NULL(pMemFreeDesc);
    if (pMemFreeDesc->freePolicy > 0x3)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    /* Either policy (blocking or deferred) is met by freeing now: the
     * application has made sure no command still uses the memory. */
    return rd_zeMemFree(hContext, ptr);
}

/* Copies the allocation containing ptr in the context into *out; 0 if none. */
static int lookup(rd_context_t *ctx, const void *ptr, rd_alloc_t *out)
{
    rd_alloc_table_t *t = &ctx->driver->allocs;
    pthread_mutex_lock(&t->lock);
    long i = table_find(t, (uintptr_t)ptr);
    int found = i >= 0 && t->items[i].context == ctx;
    if (found)
        *out = t->items[i];
    pthread_mutex_unlock(&t->lock);
    return found;
}

ze_result_t ZE_APICALL rd_zeMemGetAllocProperties(
    ze_context_handle_t hContext, const void *ptr,
    ze_memory_allocation_properties_t *pMemAllocProperties, ze_device_handle_t *phDevice)
{
    RD_HANDLE(rd_context_t, ctx, hContext, RD_MAGIC_CONTEXT);
    RD_NOT_NULL(ptr);
    RD_NOT_NULL(pMemAllocProperties);
    rd_alloc_t a;
    if (!lookup(ctx, ptr, &a)) {
        pMemAllocProperties->type = ZE_MEMORY_TYPE_UNKNOWN;
        pMemAllocProperties->id = 0;
        pMemAllocProperties->pageSize = 0;
        if (phDevice)
            *phDevice = NULL;
        return ZE_RESULT_SUCCESS;
    }
    pMemAllocProperties->type = a.type;
    pMemAllocProperties->id = a.id;
    pMemAllocProperties->pageSize = ctx->driver->host.page_size;
    if (phDevice)
        *phDevice = (ze_device_handle_t)a.device;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeMemGetAddressRange(ze_context_handle_t hContext, const void *ptr,
                                               void **pBase, size_t *pSize)
{
    RD_HANDLE(rd_context_t, ctx, hContext, RD_MAGIC_CONTEXT);
    RD_NOT_NULL(ptr);
    rd_alloc_t a;
    if (!lookup(ctx, ptr, &a)) {
        if (pBase)
            *pBase = NULL;
        if (pSize)
            *pSize = 0;
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if (pBase)
        *pBase = (void *)a.base;
    if (pSize)
        *pSize = a.size;
    return ZE_RESULT_SUCCESS;
}
