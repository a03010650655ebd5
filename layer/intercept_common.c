/* What every creating and destroying intercept does with the registry. */
#include "intercepts.h"

#include "checks.h"
#include "hazards/hazards.h"
#include "out_of_memory.h"

#include <stdio.h>

zeil_obj_t *intercept_register(const zeil_call_t *call, const zeil_next_t *next,
                               zeil_obj_t *proto)
{
    proto->next = next;
    proto->created_by = call->name;
    proto->created_call = call->number;
    proto->created_thread = calls_thread_number();
    zeil_obj_t *obj = registry_insert(proto);
    if (!obj) {
        char doing[96];
        snprintf(doing, sizeof doing, "registering %s %p", check_kind_article(proto->kind),
                 proto->handle);
        oom_dropped(OOM_OBJECT, 1, call->name, doing);
    }
    return obj;
}

void intercept_destroying(const zeil_call_t *call, zeil_obj_t *obj)
{
    if (obj)
        registry_destroying(obj, call->number, calls_thread_number());
}

void intercept_retire(const zeil_call_t *call, zeil_obj_t *obj)
{
    if (obj && hazards_active())
        hazards_retired(obj);
    if (obj)
        registry_retire(obj, call->number, calls_thread_number());
}
