/*
 * Virtual memory: reservations of address space, physical memory objects,
 * and mappings of the one onto the other, as a CPU does them.
 *
 * A reservation is address space mapped PROT_NONE (MAP_NORESERVE): touching
 * it faults until pages are mapped. A physical memory object is a memfd of
 * its size; zeVirtualMemMap maps a part of it over the reservation
 * (MAP_SHARED | MAP_FIXED), so two ranges mapped to the same physical pages
 * see the same bytes, as on a device. Unmapping puts PROT_NONE address space
 * back. The page size is the host's.
 *
 * The driver keeps, per reserved page, whether it is still reserved, the
 * physical object mapped there (so a physical object in use is not
 * destroyed) and its access attribute. One mutex guards that table: the
 * specification says these calls "should" be lock-free; correctness first
 * here, nobody maps pages on a hot path.
 */
#include "rd_api.h"
#include "rd_context.h"
#include "rd_driver.h"
#include "rd_object.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct rd_physical {
    uint32_t magic;
    rd_context_t *context;
    size_t size;
    int fd;
    uint64_t mapped_pages; /* under vm.lock */
} rd_physical_t;

typedef struct page_state {
    rd_physical_t *physical; /* mapped there, or null */
    uint8_t reserved;        /* 0 once freed */
    uint8_t access;          /* ze_memory_access_attribute_t */
} page_state_t;

typedef struct reservation {
    uintptr_t base;
    size_t pages;
    size_t reserved_pages;
    rd_context_t *context;
    page_state_t *state;
} reservation_t;

static struct {
    pthread_mutex_t lock;
    reservation_t *items;
    size_t count, capacity;
} vm = {.lock = PTHREAD_MUTEX_INITIALIZER};

static size_t page_size(const rd_context_t *ctx)
{
    return (size_t)ctx->driver->host.page_size;
}

/* The size and address rules every range call shares (ZE_RESULT_SUCCESS
 * when ptr and size are page-aligned and size is not 0). */
static ze_result_t check_range(const rd_context_t *ctx, const void *ptr, size_t size)
{
    size_t page = page_size(ctx);
    if (size == 0 || size % page)
        return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
    if ((uintptr_t)ptr % page)
        return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
    return ZE_RESULT_SUCCESS;
}

static int prot_of(ze_memory_access_attribute_t access)
{
    return access == ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE  ? PROT_READ | PROT_WRITE
           : access == ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY ? PROT_READ
                                                           : PROT_NONE;
}

/* Under the lock: the reservation of ctx whose reserved pages hold all of
 * [ptr, ptr + size) and the index of its first page, or null. */
static reservation_t *find_range(const rd_context_t *ctx, const void *ptr, size_t size,
                                 size_t *first)
{
    uintptr_t p = (uintptr_t)ptr;
    size_t page = page_size(ctx);
    for (size_t i = 0; i < vm.count; i++) {
        reservation_t *r = &vm.items[i];
        if (r->context != ctx || p < r->base || p - r->base >= r->pages * page ||
            size > r->pages * page - (p - r->base))
            continue;
        *first = (p - r->base) / page;
        for (size_t k = 0; k < size / page; k++)
            if (!r->state[*first + k].reserved)
                return NULL;
        return r;
    }
    return NULL;
}

ze_result_t ZE_APICALL rd_zeVirtualMemQueryPageSize(ze_context_handle_t hContext,
                                                    ze_device_handle_t hDevice, size_t size,
                                                    size_t *pagesize)
{
    RD_HANDLE(rd_context_t, ctx, hContext, RD_MAGIC_CONTEXT);
    RD_HANDLE(rd_device_t, dev, hDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(pagesize);
    if (size == 0)
        return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
    if (!rd_context_has_device(ctx, dev))
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    *pagesize = page_size(ctx);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeVirtualMemReserve(ze_context_handle_t hContext, const void *pStart,
                                              size_t size, void **pptr)
{
    RD_HANDLE(rd_context_t, ctx, hContext, RD_MAGIC_CONTEXT);
    RD_NOT_NULL(pptr);
    /* pStart is optional (the specification since 1.0; the 1.4 header's
     * null check on it contradicts its own parameter text). */
    RD_TRY(check_range(ctx, pStart, size));
    size_t page = page_size(ctx);
    page_state_t *state = calloc(size / page, sizeof *state);
    if (!state)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    /* A hint, never MAP_FIXED: "if not available, another starting address". */
    void *p =
        mmap((void *)pStart, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        free(state);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (size_t k = 0; k < size / page; k++)
        state[k].reserved = 1;
    pthread_mutex_lock(&vm.lock);
    if (vm.count == vm.capacity) {
        size_t capacity = vm.capacity ? 2 * vm.capacity : 16;
        reservation_t *items = realloc(vm.items, capacity * sizeof *items);
        if (!items) {
            pthread_mutex_unlock(&vm.lock);
            munmap(p, size);
            free(state);
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
        vm.items = items;
        vm.capacity = capacity;
    }
    vm.items[vm.count++] = (reservation_t){(uintptr_t)p, size / page, size / page, ctx, state};
    pthread_mutex_unlock(&vm.lock);
    *pptr = p;
    return ZE_RESULT_SUCCESS;
}

/* Under the lock: pages [first, first + n) of r lose their mappings (back
 * to inaccessible reserved address space). */
static void unmap_pages(reservation_t *r, size_t first, size_t n, size_t page)
{
    for (size_t k = first; k < first + n; k++) {
        if (r->state[k].physical)
            r->state[k].physical->mapped_pages--;
        r->state[k].physical = NULL;
        r->state[k].access = ZE_MEMORY_ACCESS_ATTRIBUTE_NONE;
    }
    mmap((void *)(r->base + first * page), n * page, PROT_NONE,
         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}

ze_result_t ZE_APICALL rd_zeVirtualMemFree(ze_context_handle_t hContext, const void *ptr,
                                           size_t size)
{
    RD_HANDLE(rd_context_t, ctx, hContext, RD_MAGIC_CONTEXT);
    RD_NOT_NULL(ptr);
    RD_TRY(check_range(ctx, ptr, size));
    size_t page = page_size(ctx), first = 0;
    pthread_mutex_lock(&vm.lock);
    reservation_t *r = find_range(ctx, ptr, size, &first);
    if (!r) {
        pthread_mutex_unlock(&vm.lock);
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    /* "Any existing virtual mappings for the range will be unmapped." */
    unmap_pages(r, first, size / page, page);
    munmap((void *)ptr, size);
    for (size_t k = first; k < first + size / page; k++)
        r->state[k].reserved = 0;
    r->reserved_pages -= size / page;
    if (!r->reserved_pages) {
        free(r->state);
        *r = vm.items[--vm.count];
    }
    pthread_mutex_unlock(&vm.lock);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zePhysicalMemCreate(ze_context_handle_t hContext,
                                              ze_device_handle_t hDevice,
                                              ze_physical_mem_desc_t *desc,
                                              ze_physical_mem_handle_t *phPhysicalMemory)
{
    RD_HANDLE(rd_context_t, ctx, hContext, RD_MAGIC_CONTEXT);
    RD_HANDLE(rd_device_t, dev, hDevice, RD_MAGIC_DEVICE);
    RD_NOT_NULL(desc);
    RD_NOT_NULL(phPhysicalMemory);
    if (desc->flags > 0x1)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    if (desc->size == 0)
        return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
    if (desc->size % page_size(ctx))
        return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
    if (!rd_context_has_device(ctx, dev))
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    int fd = memfd_create("zeil-cpu-physical", MFD_CLOEXEC);
    if (fd < 0)
        return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    if (ftruncate(fd, (off_t)desc->size) != 0) {
        close(fd);
        return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    rd_physical_t *phys = rd_object_new(RD_MAGIC_PHYSICAL_MEM, sizeof *phys);
    if (!phys) {
        close(fd);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    phys->context = ctx;
    phys->size = desc->size;
    phys->fd = fd;
    phys->magic = RD_MAGIC_PHYSICAL_MEM;
    *phPhysicalMemory = (ze_physical_mem_handle_t)phys;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zePhysicalMemDestroy(ze_context_handle_t hContext,
                                               ze_physical_mem_handle_t hPhysicalMemory)
{
    RD_HANDLE(rd_context_t, ctx, hContext, RD_MAGIC_CONTEXT);
    RD_HANDLE(rd_physical_t, phys, hPhysicalMemory, RD_MAGIC_PHYSICAL_MEM);
    if (phys->context != ctx)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    pthread_mutex_lock(&vm.lock);
    uint64_t mapped = phys->mapped_pages;
    pthread_mutex_unlock(&vm.lock);
    if (mapped)
        return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
    close(phys->fd);
    rd_object_delete(phys, RD_MAGIC_PHYSICAL_MEM, sizeof *phys);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeVirtualMemMap(ze_context_handle_t hContext, const void *ptr,
                                          size_t size, ze_physical_mem_handle_t hPhysicalMemory,
                                          size_t offset, ze_memory_access_attribute_t access)
{
    RD_HANDLE(rd_context_t, ctx, hContext, RD_MAGIC_CONTEXT);
    RD_HANDLE(rd_physical_t, phys, hPhysicalMemory, RD_MAGIC_PHYSICAL_MEM);
    RD_NOT_NULL(ptr);
    if ((unsigned)access > ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    RD_TRY(check_range(ctx, ptr, size));
    size_t page = page_size(ctx), first = 0;
    if (offset % page)
        return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
    if (phys->context != ctx || offset > phys->size || size > phys->size - offset)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    pthread_mutex_lock(&vm.lock);
    reservation_t *r = find_range(ctx, ptr, size, &first);
    int taken = 0;
    for (size_t k = 0; r && k < size / page; k++)
        taken |= r->state[first + k].physical != NULL;
    /* Only reserved pages that nothing is mapped to yet. */
    if (!r || taken) {
        pthread_mutex_unlock(&vm.lock);
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    void *p =
        mmap((void *)ptr, size, prot_of(access), MAP_SHARED | MAP_FIXED, phys->fd, (off_t)offset);
    if (p == MAP_FAILED) {
        pthread_mutex_unlock(&vm.lock);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (size_t k = first; k < first + size / page; k++) {
        r->state[k].physical = phys;
        r->state[k].access = (uint8_t)access;
    }
    phys->mapped_pages += size / page;
    pthread_mutex_unlock(&vm.lock);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL rd_zeVirtualMemUnmap(ze_context_handle_t hContext, const void *ptr,
                                            size_t size)
{
    RD_HANDLE(rd_context_t, ctx, hContext, RD_MAGIC_CONTEXT);
    RD_NOT_NULL(ptr);
    RD_TRY(check_range(ctx, ptr, size));
    size_t page = page_size(ctx), first = 0;
    pthread_mutex_lock(&vm.lock);
    reservation_t *r = find_range(ctx, ptr, size, &first);
    if (r)
        unmap_pages(r, first, size / page, page);
    pthread_mutex_unlock(&vm.lock);
    return r ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

ze_result_t ZE_APICALL rd_zeVirtualMemSetAccessAttribute(ze_context_handle_t hContext,
                                                         const void *ptr, size_t size,
                                                         ze_memory_access_attribute_t access)
{
    RD_HANDLE(rd_context_t, ctx, hContext, RD_MAGIC_CONTEXT);
    RD_NOT_NULL(ptr);
    if ((unsigned)access > ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    RD_TRY(check_range(ctx, ptr, size));
    size_t page = page_size(ctx), first = 0;
    pthread_mutex_lock(&vm.lock);
    reservation_t *r = find_range(ctx, ptr, size, &first);
    /* Pages with nothing mapped stay inaccessible whatever they are given:
     * there is no memory behind them. */
    for (size_t k = 0; r && k < size / page; k++) {
        page_state_t *s = &r->state[first + k];
        s->access = (uint8_t)access;
        if (s->physical)
            mprotect((void *)(r->base + (first + k) * page), page, prot_of(access));
    }
    pthread_mutex_unlock(&vm.lock);
    return r ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

ze_result_t ZE_APICALL rd_zeVirtualMemGetAccessAttribute(ze_context_handle_t hContext,
                                                         const void *ptr, size_t size,
                                                         ze_memory_access_attribute_t *access,
                                                         size_t *outSize)
{
    RD_HANDLE(rd_context_t, ctx, hContext, RD_MAGIC_CONTEXT);
    RD_NOT_NULL(ptr);
    RD_NOT_NULL(access);
    RD_NOT_NULL(outSize);
    RD_TRY(check_range(ctx, ptr, size));
    size_t page = page_size(ctx), first = 0;
    pthread_mutex_lock(&vm.lock);
    reservation_t *r = find_range(ctx, ptr, size, &first);
    if (r) {
        uint8_t a = r->state[first].access;
        size_t same = 1;
        while (same < size / page && r->state[first + same].access == a)
            same++;
        *access = (ze_memory_access_attribute_t)a;
        *outSize = same * page;
    }
    pthread_mutex_unlock(&vm.lock);
    return r ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_ARGUMENT;
}
