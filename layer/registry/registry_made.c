/*
 * registry_made.c: registering what a creating call made (the generated
 * intercepts of creating entries, their hooks, first sight), stamped with
 * the call that made it.
 */
#include "registry.h"

#include "calls.h"
#include "out_of_memory.h"

#include <stdio.h>

zeil_obj_t *registry_register_made(const zeil_call_t *call, const zeil_next_t *next,
                                   zeil_obj_t *proto)
{
    proto->next = next;
    proto->created_by = call->name;
    proto->created_call = call->number;
    proto->created_thread = calls_thread_number();
    zeil_obj_t *obj = registry_insert(proto);
    char doing[96];
    if (!obj && snprintf(doing, sizeof doing, "registering %s %p",
                         registry_kind_article(proto->kind), proto->handle) > 0)
        oom_dropped(OOM_OBJECT, 1, call->name, doing);
    return obj;
}
