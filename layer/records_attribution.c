/* Attribution: a thread-local stack of (stream, primitive, impl) pushed by the
 * interop library around an execute. Labels are interned, so records keep
 * pointers (the stack itself: records.h). */
#include "records.h"

_Thread_local zeil_attribution_t records_attribution_stack[ZEIL_ATTRIBUTION_DEPTH];
_Thread_local unsigned records_attribution_depth;

void zeil_attribution_push(const zeil_attribution_t *attr)
{
    if (records_attribution_depth < ZEIL_ATTRIBUTION_DEPTH) {
        static const zeil_attribution_t none;
        if (!attr)
            attr = &none;
        zeil_attribution_t *top = &records_attribution_stack[records_attribution_depth];
        top->stream_id = attr->stream_id;
        top->primitive = registry_intern(attr->primitive);
        top->impl = registry_intern(attr->impl);
    }
    records_attribution_depth++;
}

void zeil_attribution_pop(void)
{
    if (records_attribution_depth > 0)
        records_attribution_depth--;
}
