/* The query side of zeil.h: handles, pointers, live counts. Inactive, zeil
 * knows nothing, so every query finds nothing. */
#include "registry.h"
#include "checks.h"
#include "env.h"
#include "intercepted_kinds.h"
#include "timing.h"
#include "wrapped.h"

#include "zeil_output.h"

#include <string.h>

#define ZEIL_STRINGIFY2(x) #x
#define ZEIL_STRINGIFY(x) ZEIL_STRINGIFY2(x)

const char *zeil_version_string(void)
{
    return ZEIL_STRINGIFY(ZEIL_VERSION_MAJOR) "." ZEIL_STRINGIFY(
        ZEIL_VERSION_MINOR) "." ZEIL_STRINGIFY(ZEIL_VERSION_PATCH);
}

int zeil_is_enabled(void)
{
    return zeil_settings()->enabled;
}

int zeil_is_active(void)
{
    return wrapped_active();
}

const char *zeil_kind_name(zeil_kind_t kind)
{
    return registry_kind_name(kind);
}

int zeil_lookup_handle(const void *handle, zeil_handle_info_t *info)
{
    if (!zeil_is_active())
        return 0;
    zeil_obj_t *obj = registry_find(handle);
    if (!obj)
        return 0;
    if (info) {
        memset(info, 0, sizeof *info);
        info->kind = obj->kind;
        info->alive = atomic_load(&obj->alive);
        info->driver = obj->driver;
        info->device = obj->device;
        info->context = obj->context;
        info->parent = obj->parent;
        info->created_call = obj->created_call;
        info->destroyed_call = info->alive ? 0 : obj->destroyed_call;
        info->created_thread = obj->created_thread;
        info->destroyed_thread = info->alive ? 0 : obj->destroyed_thread;
        info->is_immediate = obj->is_immediate;
        info->is_in_order = obj->is_in_order;
        info->is_closed = atomic_load(&obj->is_closed);
        info->ordinal = obj->ordinal;
        info->stream_id = atomic_load(&obj->stream_id);
    }
    return 1;
}

int zeil_lookup_pointer(const void *ptr, zeil_alloc_info_t *info)
{
    if (!zeil_is_active() || !ptr)
        return 0;
    return registry_lookup_info(ptr, info);
}

static void count_live(zeil_obj_t *obj, void *user)
{
    zeil_live_counts_t *counts = user;
    if ((unsigned)obj->kind < ZEIL_KIND_COUNT)
        counts->handles[obj->kind]++;
}

void zeil_get_live_counts(zeil_live_counts_t *counts)
{
    if (!counts)
        return;
    memset(counts, 0, sizeof *counts);
    if (!zeil_is_active())
        return;
    registry_foreach_live(count_live, counts);
    counts->allocations = registry_count_allocs(NULL, NULL, &counts->allocation_bytes);
}

void zeil_flush(void)
{
    if (zeil_is_active())
        timing_collect(NULL);
    if (zeil_is_enabled())
        zo_flush();
}

int zeil_adopt_handle(const void *handle, zeil_kind_t kind, zeil_handle_info_t *info)
{
    if (zeil_lookup_handle(handle, info))
        return 1;
    /* Drivers and devices zeil never saw are no misuse and have nothing to
     * adopt (check_handles.c); the other kinds only when something else may
     * have made them (first_sight.c). */
    if (!zeil_is_active() || !handle || kind <= ZEIL_KIND_DEVICE || kind >= ZEIL_KIND_COUNT ||
        intercepted_kinds_all_creators(kind))
        return 0;
    zeil_call_t call;
    calls_begin(&call, "zeil_adopt_handle");
    zeil_obj_t *obj;
    if (!first_sight_register(&call, "handle", handle, kind, &obj))
        return 0;
    return zeil_lookup_handle(handle, info);
}
