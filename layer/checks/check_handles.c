/*
 * Handle rules: unknown (E001), destroyed (E002), wrong kind (E003); context
 * mixing (E004); devices outside their context (E005).
 */
#include "checks.h"

#include "intercepted_kinds.h"
#include "diag.h"
#include "out_of_memory.h"

ze_result_t check_handle_finding(const zeil_call_t *call, const char *arg, const void *handle,
                                 zeil_kind_t kind, zeil_obj_t *obj, zeil_obj_t **out)
{
    /* Drivers also reach applications through calls zeil does not intercept
     * (loader extensions), so only their misuse counts. Devices come only
     * from zeDeviceGet and zeDeviceGetSubDevices, which zeil intercepts: an
     * unknown one is E001 (the driver would crash on it), a destroyed
     * object's value reused by a device is taken as it comes. */
    int may_be_unseen = kind == ZEIL_KIND_DRIVER || kind == ZEIL_KIND_DEVICE;
    if (!obj && kind == ZEIL_KIND_DEVICE && handle)
        may_be_unseen = 0;
    /* Handles of kinds some creator of which passes through at the loader's
     * version may be valid though unseen (or reuse a destroyed object's
     * value): zeil takes them as they come. */
    if (!may_be_unseen && kind != ZEIL_KIND_DEVICE &&
        (!obj || (obj->kind != kind && !atomic_load(&obj->alive))) &&
        !intercepted_kinds_all_creators(kind) && first_sight_register(call, arg, handle, kind, out))
        return ZE_RESULT_SUCCESS;
    if (!obj) {
        if (may_be_unseen || !handle)
            return ZE_RESULT_SUCCESS;
        if (oom_registry_incomplete() && diag_rule_enabled(ZEIL_RULE_E001)) {
            oom_unchecked(); /* zeil may have failed to register it */
            return ZE_RESULT_SUCCESS;
        }
        return diag_report(ZEIL_RULE_E001, call->name,
                           "%s %p is not a handle zeil knows "
                           "(expected %s)",
                           arg, handle, registry_kind_article(kind));
    }
    int alive = atomic_load(&obj->alive);
    if (obj->kind != kind) {
        if (!alive && may_be_unseen)
            return ZE_RESULT_SUCCESS;
        return diag_report(ZEIL_RULE_E003, call->name, "%s %p is %s%s, not %s", arg, handle,
                           registry_kind_article(obj->kind), alive ? "" : " (destroyed)",
                           registry_kind_article(kind));
    }
    if (!alive)
        return diag_report(ZEIL_RULE_E002, call->name,
                           "%s %p was destroyed (%s created by %s at call #%llu on thread %u, "
                           "destroyed at call #%llu on thread %u)",
                           arg, handle, registry_kind_name(kind), obj->created_by,
                           (unsigned long long)obj->created_call, obj->created_thread,
                           (unsigned long long)obj->destroyed_call, obj->destroyed_thread);
    *out = obj; /* alive and of its kind after all: it was just made */
    return ZE_RESULT_SUCCESS;
}

ze_result_t check_handle_array(const zeil_call_t *call, const char *arg, uint32_t count,
                               const void *const *handles, zeil_kind_t kind)
{
    ze_result_t r = ZE_RESULT_SUCCESS;
    for (uint32_t i = 0; handles && i < count; i++) {
        zeil_obj_t *obj;
        CHECK_KEEP_FIRST(r, check_handle(call, arg, handles[i], kind, &obj));
    }
    return r;
}

const char *check_context_gone(ze_context_handle_t context)
{
    const zeil_obj_t *c = context ? registry_find(context) : NULL;
    return c && c->kind == ZEIL_KIND_CONTEXT && !atomic_load(&c->alive)
               ? " (destroyed: its memory and objects went with it)"
               : "";
}

ze_result_t check_context_mix(const zeil_call_t *call, const char *arg_a, const zeil_obj_t *a,
                              const char *arg_b, const zeil_obj_t *b)
{
    return diag_report(ZEIL_RULE_E004, call->name,
                       "%s %p belongs to context %p%s, %s %p to context %p%s", arg_a, a->handle,
                       (void *)a->context, check_context_gone(a->context), arg_b, b->handle,
                       (void *)b->context, check_context_gone(b->context));
}

/* Sub-devices nest shallowly; parent is the device a sub-device came from.
 * A device zeil failed to register breaks the chain: then it may be related. */
static int is_ancestor(ze_device_handle_t ancestor, ze_device_handle_t device)
{
    for (int depth = 0; device && depth < 4; depth++) {
        zeil_obj_t *d = registry_find(device);
        if (!d && oom_registry_incomplete()) {
            oom_unchecked();
            return 1;
        }
        if (!d || d->kind != ZEIL_KIND_DEVICE)
            return 0;
        device = d->parent;
        if (device == ancestor)
            return 1;
    }
    return 0;
}

int check_devices_related_by_parent(ze_device_handle_t a, ze_device_handle_t b)
{
    return is_ancestor(a, b) || is_ancestor(b, a);
}

ze_result_t check_device_in_context(const zeil_call_t *call, const zeil_obj_t *context,
                                    ze_device_handle_t device)
{
    if (!context || !device)
        return ZE_RESULT_SUCCESS;
    if (context->device_count == 0) {
        zeil_obj_t *d = registry_find(device);
        if (!d || d->kind != ZEIL_KIND_DEVICE || !d->driver || d->driver == context->driver)
            return ZE_RESULT_SUCCESS;
        return diag_report(
            ZEIL_RULE_E005, call->name, "hDevice %p belongs to driver %p, context %p to driver %p",
            (void *)device, (void *)d->driver, context->handle, (void *)context->driver);
    }
    for (uint32_t i = 0; i < context->device_count; i++)
        if (check_devices_related(context->devices[i], device))
            return ZE_RESULT_SUCCESS;
    return diag_report(ZEIL_RULE_E005, call->name, "hDevice %p is not a device of context %p",
                       (void *)device, context->handle);
}
