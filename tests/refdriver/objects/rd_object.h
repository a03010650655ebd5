/*
 * rd_object.h: what every object of the reference driver has in common.
 *
 * Each object the driver hands out as a handle starts with a type tag, so a
 * handle of the wrong kind (an event passed where a kernel is expected) is
 * answered with an error code instead of being dereferenced as something it
 * is not. A destroyed object's tag is overwritten before its memory is freed.
 */
#ifndef ZEIL_RD_OBJECT_H
#define ZEIL_RD_OBJECT_H

#include <level_zero/ze_api.h>

#include <stddef.h>
#include <stdint.h>

typedef enum rd_magic {
    RD_MAGIC_DRIVER = 0x7264d001u,
    RD_MAGIC_DEVICE = 0x7264d002u,
    RD_MAGIC_CONTEXT = 0x7264d003u,
    RD_MAGIC_QUEUE = 0x7264d004u,
    RD_MAGIC_CMDLIST = 0x7264d005u,
    RD_MAGIC_FENCE = 0x7264d006u,
    RD_MAGIC_EVENT_POOL = 0x7264d007u,
    RD_MAGIC_EVENT = 0x7264d008u,
    RD_MAGIC_MODULE = 0x7264d009u,
    RD_MAGIC_BUILD_LOG = 0x7264d00au,
    RD_MAGIC_KERNEL = 0x7264d00bu,
    RD_MAGIC_PHYSICAL_MEM = 0x7264d00cu,
    RD_MAGIC_DEAD = 0x7264deadu,
} rd_magic_t;

/* A zeroed object of size bytes for a handle of kind magic (its tag is the
 * caller's to set), or null when out of memory; rd_objects.c. In the reuse
 * mode (rd_arena.h) the most recently deleted object of the kind first. */
void *rd_object_new(rd_magic_t magic, size_t size);
/* Overwrites the tag with RD_MAGIC_DEAD and gives the memory back. */
void rd_object_delete(void *object, rd_magic_t magic, size_t size);

/* Null: ZE_RESULT_ERROR_INVALID_NULL_HANDLE; another kind of object (or a
 * destroyed one whose memory is still mapped): ZE_RESULT_ERROR_INVALID_ARGUMENT.
 * Values no object can have (the first page, not pointer-aligned: every
 * object holds pointers) are refused before they are read. */
static inline ze_result_t rd_check_handle(const void *handle, rd_magic_t magic)
{
    if (!handle)
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if ((uintptr_t)handle < 4096 || (uintptr_t)handle % sizeof(void *) != 0)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    if (*(const uint32_t *)handle != (uint32_t)magic)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    return ZE_RESULT_SUCCESS;
}

/* Returns from the calling entry point when the handle is null or not of
 * that kind (an entry that needs nothing more of the object). */
#define RD_CHECK(handle, magic) \
    do { \
        ze_result_t rd_check_ = rd_check_handle((handle), (magic)); \
        if (rd_check_ != ZE_RESULT_SUCCESS) \
            return rd_check_; \
    } while (0)

/* RD_CHECK, declaring `type *var` from the handle. */
#define RD_HANDLE(type, var, handle, magic) \
    type *var = (type *)(void *)(handle); \
    RD_CHECK(handle, magic)

/* Returns from the calling entry point when a required pointer is null. */
#define RD_NOT_NULL(ptr) \
    do { \
        if (!(ptr)) \
            return ZE_RESULT_ERROR_INVALID_NULL_POINTER; \
    } while (0)

/* The body of a query that answers one value: ZE_RESULT_ERROR_INVALID_NULL_POINTER
 * when out is null, else *out = value and success. */
#define RD_ANSWER(out, value) \
    do { \
        RD_NOT_NULL(out); \
        *(out) = (value); \
        return ZE_RESULT_SUCCESS; \
    } while (0)

/* Returns from the calling entry point unless the call succeeded. */
#define RD_TRY(call) \
    do { \
        ze_result_t rd_try_ = (call); \
        if (rd_try_ != ZE_RESULT_SUCCESS) \
            return rd_try_; \
    } while (0)

/* The count-query convention of the specification ("if count is zero, the
 * driver updates it with the number available; if greater, with the number
 * available; otherwise only that many are written"): returns how many items
 * to write to the caller's array, 0 when it only asked for the count. */
static inline uint32_t rd_count_query(uint32_t *count, uint32_t available, const void *items)
{
    if (*count == 0 || !items) {
        *count = available;
        return 0;
    }
    if (*count > available)
        *count = available;
    return *count;
}

#endif
