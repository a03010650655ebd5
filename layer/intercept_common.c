/* What every creating and destroying intercept does with the registry. */
#include "intercepts.h"

zeil_obj_t *intercept_register(const zeil_call_t *call, const zeil_next_t *next,
                               zeil_obj_t *proto)
{
    proto->next = next;
    proto->created_by = call->name;
    proto->created_call = call->number;
    proto->created_thread = calls_thread_number();
    return registry_insert(proto);
}

void intercept_retire(const zeil_call_t *call, zeil_obj_t *obj)
{
    if (obj)
        registry_retire(obj, call->number, calls_thread_number());
}
