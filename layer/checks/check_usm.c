/*
 * USM rules: frees of non-USM (E010), interior (E011), freed (E012) pointers
 * or in the wrong context (E013); copy and fill ranges past their allocation
 * (E014) or in freed memory (E015); kernel arguments into freed USM (W040).
 * Pointers zeil knows nothing of are host memory the driver may accept. A
 * pointer in a freed range gets the "freed" finding only when nothing else
 * the driver accepts can be there (check_freed_ranges.c); otherwise W016.
 */
#include "checks.h"

#include "diag.h"
#include "out_of_memory.h"

#include <stdio.h>
#include <string.h>

/* The range's checks; context: the one ptr must be of (null: none), named
 * context_arg in E004. */
static ze_result_t usm_range(const zeil_call_t *call, const zeil_obj_t *list, const char *arg,
                             const void *ptr, size_t size, const char *context_arg,
                             ze_context_handle_t context)
{
    if (!ptr || !diag_rule_enabled(ZEIL_RULE_E014))
        return ZE_RESULT_SUCCESS;
    zeil_alloc_t a;
    int found = registry_find_alloc(ptr, &a);
    if (found == 2) {
        freed_range_verdict_t verdict =
            check_freed_range(list, list ? list->device : NULL, ptr, &a, FREED_RANGE_TRANSFER);
        if (verdict != FREED_RANGE_DANGLING) {
            check_freed_range_reused(call, arg, ptr, &a, verdict);
            return ZE_RESULT_SUCCESS;
        }
        return diag_report(ZEIL_RULE_E015, call->name,
                           "%s %p is in freed allocation %p (allocated by %s at call #%llu, "
                           "freed at call #%llu)",
                           arg, ptr, a.base, a.created_by, (unsigned long long)a.created_call,
                           (unsigned long long)a.freed_call);
    }
    if (found != 1)
        return ZE_RESULT_SUCCESS;
    size_t offset = (size_t)((const char *)ptr - (const char *)a.base);
    if (size > a.size - offset)
        return diag_report(ZEIL_RULE_E014, call->name,
                           "%s %p + %zu bytes ends %zu bytes past allocation %p (%zu bytes)", arg,
                           ptr, size, size - (a.size - offset), a.base, a.size);
    if (context && a.context != context && !context_arg)
        return diag_report(ZEIL_RULE_E004, call->name,
                           "%s %p belongs to context %p%s, hCommandList %p to context %p", arg, ptr,
                           (void *)a.context, check_context_gone(a.context), list->handle,
                           (void *)list->context);
    if (context && a.context != context)
        return diag_report(ZEIL_RULE_E004, call->name, "%s %p belongs to context %p%s, %s is %p",
                           arg, ptr, (void *)a.context, check_context_gone(a.context), context_arg,
                           (void *)context);
    return ZE_RESULT_SUCCESS;
}

ze_result_t check_usm_range(const zeil_call_t *call, const zeil_obj_t *list, const char *arg,
                            const void *ptr, size_t size)
{
    return usm_range(call, list, arg, ptr, size, NULL, list ? list->context : NULL);
}

ze_result_t check_usm_range_of(const zeil_call_t *call, const zeil_obj_t *list, const char *arg,
                               const void *ptr, size_t size, const char *context_arg,
                               ze_context_handle_t context)
{
    return usm_range(call, list, arg, ptr, size, context_arg, context);
}

/* A region's rows: row pitch and slice pitch as given, or packed when zero. */
static void region_pitches(const ze_copy_region_t *r, uint32_t *pitch, uint32_t *slice)
{
    if (!*pitch)
        *pitch = r->originX + r->width;
    if (!*slice)
        *slice = *pitch * (r->originY + r->height);
}

size_t check_region_offset(const ze_copy_region_t *r, uint32_t pitch, uint32_t slice)
{
    if (!r)
        return 0;
    region_pitches(r, &pitch, &slice);
    return (size_t)r->originZ * slice + (size_t)r->originY * pitch + r->originX;
}

size_t check_region_span(const ze_copy_region_t *r, uint32_t pitch, uint32_t slice)
{
    if (!r || !r->width || !r->height || !r->depth)
        return 0;
    region_pitches(r, &pitch, &slice);
    return (size_t)(r->depth - 1) * slice + (size_t)(r->height - 1) * pitch + r->width;
}

/* E012 of a free of ptr, freed already as a says. */
static ze_result_t already_freed(const zeil_call_t *call, const void *ptr, const zeil_alloc_t *a)
{
    return diag_report(ZEIL_RULE_E012, call->name,
                       "%p was already freed (allocated by %s at call #%llu, freed at call #%llu)",
                       ptr, a->created_by, (unsigned long long)a->created_call,
                       (unsigned long long)a->freed_call);
}

ze_result_t check_usm_free_raced(const zeil_call_t *call, ze_context_handle_t context,
                                 const void *ptr)
{
    zeil_alloc_t a;
    if (registry_find_alloc(ptr, &a) == 2 && a.base == ptr)
        return already_freed(call, ptr, &a);
    return check_usm_free(call, context, ptr); /* given out again since */
}

ze_result_t check_usm_free(const zeil_call_t *call, ze_context_handle_t context, const void *ptr)
{
    if (!ptr)
        return ZE_RESULT_SUCCESS;
    zeil_alloc_t a;
    int found = registry_find_alloc(ptr, &a);
    if (found == 1 && a.base != ptr)
        return diag_report(ZEIL_RULE_E011, call->name,
                           "%p is inside allocation %p (%zu bytes, allocated by %s at call #%llu), "
                           "not its base",
                           ptr, a.base, a.size, a.created_by, (unsigned long long)a.created_call);
    if (found == 1 && context && a.context != context)
        return diag_report(ZEIL_RULE_E013, call->name,
                           "%p belongs to context %p, freed in context %p", ptr, (void *)a.context,
                           (void *)context);
    if (found == 2) {
        const zeil_obj_t *owner = context ? registry_find(context) : NULL;
        freed_range_verdict_t verdict = check_freed_range(owner, NULL, ptr, &a, FREED_RANGE_FREE);
        if (verdict != FREED_RANGE_DANGLING) {
            check_freed_range_reused(call, "ptr", ptr, &a, verdict);
            return ZE_RESULT_SUCCESS;
        }
        return already_freed(call, ptr, &a);
    }
    if (found == 0 && oom_registry_incomplete()) {
        oom_unchecked(); /* zeil may have failed to register it */
        return ZE_RESULT_SUCCESS;
    }
    if (found == 0)
        return diag_report(ZEIL_RULE_E010, call->name, "%p is not a USM allocation", ptr);
    return ZE_RESULT_SUCCESS;
}

void check_kernel_argument(const zeil_call_t *call, const zeil_obj_t *kernel, uint32_t index,
                           size_t size, const void *value)
{
    if (!kernel || !value || size != sizeof(void *) || !diag_rule_enabled(ZEIL_RULE_W040))
        return;
    const void *ptr;
    memcpy(&ptr, value, sizeof ptr);
    zeil_alloc_t a;
    if (!ptr || registry_find_alloc(ptr, &a) != 2)
        return;
    freed_range_verdict_t verdict =
        check_freed_range(kernel, kernel->device, ptr, &a, FREED_RANGE_ACCESS);
    if (verdict != FREED_RANGE_DANGLING) {
        char arg[32];
        snprintf(arg, sizeof arg, "argument %u", index);
        check_freed_range_reused(call, arg, ptr, &a, verdict);
        return;
    }
    diag_report(ZEIL_RULE_W040, call->name,
                "argument %u of kernel '%s' (%p) points into freed allocation %p (freed at "
                "call #%llu)",
                index, kernel->name ? kernel->name : "?", ptr, a.base,
                (unsigned long long)a.freed_call);
}
