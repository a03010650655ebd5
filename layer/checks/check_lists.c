/*
 * Command list rules: appends to closed lists (E020), executing open (E021) or
 * immediate (E022) lists, lists that do not fit the queue (E023), fences of
 * another queue (E024); the events of an append (E004 across contexts, W031
 * for a second signal without reset).
 */
#include "checks.h"

#include "diag.h"

ze_result_t check_list_closed_finding(const zeil_call_t *call, const zeil_obj_t *list)
{
    return diag_report(ZEIL_RULE_E020, call->name,
                       "command list %p is closed (zeCommandListClose at call #%llu); "
                       "reset it before appending",
                       list->handle, (unsigned long long)atomic_load(&list->closed_call));
}

static ze_result_t check_event_of_list(const zeil_call_t *call, const char *arg,
                                       ze_event_handle_t event, const zeil_obj_t *list, int signals,
                                       zeil_obj_t **out)
{
    zeil_obj_t *obj;
    ze_result_t r = check_handle(call, arg, event, ZEIL_KIND_EVENT, &obj);
    if (out)
        *out = obj;
    if (!obj)
        return r;
    CHECK_KEEP_FIRST(r, check_same_context(call, arg, obj, "hCommandList", list));
    /* A regular list's signal is judged when it runs (check_signals.c). */
    uint64_t previous = list && !list->is_immediate ? 0 : atomic_load(&obj->signalled_by_call);
    if (signals && previous && diag_rule_enabled(ZEIL_RULE_W031))
        diag_report(ZEIL_RULE_W031, call->name,
                    "signal event %p was already signalled by call #%llu and not reset since",
                    (void *)event, (unsigned long long)previous);
    return r;
}

ze_result_t check_append(const zeil_call_t *call, ze_command_list_handle_t list,
                         zeil_obj_t **list_obj, ze_event_handle_t signal, zeil_obj_t **signal_obj,
                         uint32_t num_waits, const ze_event_handle_t *waits, const char *list_arg,
                         const char *signal_arg, const char *waits_arg)
{
    *signal_obj = NULL;
    ze_result_t r = check_handle(call, list_arg, list, ZEIL_KIND_COMMAND_LIST, list_obj);
    CHECK_KEEP_FIRST(r, check_list_open(call, *list_obj));
    if (signal)
        CHECK_KEEP_FIRST(r,
                         check_event_of_list(call, signal_arg, signal, *list_obj, 1, signal_obj));
    for (uint32_t i = 0; waits && i < num_waits; i++)
        CHECK_KEEP_FIRST(r, check_event_of_list(call, waits_arg, waits[i], *list_obj, 0, NULL));
    return r;
}

static ze_result_t check_list_fits_queue(const zeil_call_t *call, const zeil_obj_t *list,
                                         const zeil_obj_t *queue)
{
    ze_result_t r = ZE_RESULT_SUCCESS;
    if (list->is_immediate)
        return diag_report(ZEIL_RULE_E022, call->name,
                           "command list %p is immediate; it executes as it is appended to",
                           list->handle);
    if (!atomic_load(&list->is_closed))
        CHECK_KEEP_FIRST(r, diag_report(ZEIL_RULE_E021, call->name,
                                        "command list %p is open; close it first", list->handle));
    CHECK_KEEP_FIRST(r, check_same_context(call, "phCommandLists[]", list, "hCommandQueue", queue));
    if (queue &&
        (!check_devices_related(list->device, queue->device) || list->ordinal != queue->ordinal))
        CHECK_KEEP_FIRST(r, diag_report(ZEIL_RULE_E023, call->name,
                                        "command list %p (device %p, ordinal %u) does not match "
                                        "queue %p (device %p, ordinal %u)",
                                        list->handle, (void *)list->device, list->ordinal,
                                        queue->handle, (void *)queue->device, queue->ordinal));
    return r;
}

ze_result_t check_execute(const zeil_call_t *call, const zeil_obj_t *queue, uint32_t count,
                          const ze_command_list_handle_t *lists, ze_fence_handle_t fence)
{
    ze_result_t r = ZE_RESULT_SUCCESS;
    for (uint32_t i = 0; lists && i < count; i++) {
        zeil_obj_t *list;
        CHECK_KEEP_FIRST(
            r, check_handle(call, "phCommandLists[]", lists[i], ZEIL_KIND_COMMAND_LIST, &list));
        if (list)
            CHECK_KEEP_FIRST(r, check_list_fits_queue(call, list, queue));
    }
    zeil_obj_t *fence_obj;
    CHECK_KEEP_FIRST(r, check_handle(call, "hFence", fence, ZEIL_KIND_FENCE, &fence_obj));
    if (fence_obj && queue && fence_obj->parent != queue->handle)
        CHECK_KEEP_FIRST(r, diag_report(ZEIL_RULE_E024, call->name,
                                        "fence %p belongs to queue %p, not %p", (void *)fence,
                                        fence_obj->parent, queue->handle));
    return r;
}
