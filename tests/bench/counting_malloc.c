/*
 * The malloc family, defined in the executable so that the dynamic linker
 * binds every library's calls (the loader's, zeil's, the driver's, and
 * glibc's own internal ones) here, forwarding to glibc's implementation
 * through its __libc_* entry points.
 */
#include "counting_malloc.h"

#include <errno.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *ptr, size_t size);
void *__libc_memalign(size_t alignment, size_t size);
void *__libc_valloc(size_t size);
void *__libc_pvalloc(size_t size);
void __libc_free(void *ptr);

static atomic_int counting;
static atomic_uint_fast64_t allocations, frees;
static _Atomic(void *) first_caller;

static inline void count(atomic_uint_fast64_t *counter, void *caller)
{
    if (!atomic_load_explicit(&counting, memory_order_relaxed))
        return;
    atomic_fetch_add_explicit(counter, 1, memory_order_relaxed);
    void *none = NULL;
    atomic_compare_exchange_strong(&first_caller, &none, caller);
}

#define CALLER __builtin_return_address(0)

void *malloc(size_t size)
{
    count(&allocations, CALLER);
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    count(&allocations, CALLER);
    return __libc_calloc(n, size);
}

void *realloc(void *ptr, size_t size)
{
    count(&allocations, CALLER);
    return __libc_realloc(ptr, size);
}

void *reallocarray(void *ptr, size_t n, size_t size)
{
    count(&allocations, CALLER);
    if (size && n > SIZE_MAX / size) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_realloc(ptr, n * size);
}

void *memalign(size_t alignment, size_t size)
{
    count(&allocations, CALLER);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size)
{
    count(&allocations, CALLER);
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size)
{
    count(&allocations, CALLER);
    if (alignment % sizeof(void *) || (alignment & (alignment - 1)))
        return EINVAL;
    void *p = __libc_memalign(alignment, size);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

void *valloc(size_t size)
{
    count(&allocations, CALLER);
    return __libc_valloc(size);
}

void *pvalloc(size_t size)
{
    count(&allocations, CALLER);
    return __libc_pvalloc(size);
}

void free(void *ptr)
{
    if (ptr)
        count(&frees, CALLER);
    __libc_free(ptr);
}

void counting_malloc_start(void)
{
    atomic_store(&allocations, 0);
    atomic_store(&frees, 0);
    atomic_store(&first_caller, NULL);
    atomic_store(&counting, 1);
}

counting_malloc_counts_t counting_malloc_stop(void)
{
    atomic_store(&counting, 0);
    return (counting_malloc_counts_t){atomic_load(&allocations), atomic_load(&frees),
                                      atomic_load(&first_caller)};
}
