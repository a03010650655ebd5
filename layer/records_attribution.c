/* Attribution: a thread-local stack of (stream, primitive, impl) pushed by the
 * interop library around an execute. Labels are interned, so records keep
 * pointers. Pushes deeper than the stack are counted, not stored, so pops stay
 * balanced. */
#include "records.h"

#define ATTRIBUTION_DEPTH 16

static _Thread_local zeil_attribution_t attribution_stack[ATTRIBUTION_DEPTH];
static _Thread_local unsigned attribution_depth;

void zeil_attribution_push(const zeil_attribution_t *attr)
{
    if (attribution_depth < ATTRIBUTION_DEPTH) {
        static const zeil_attribution_t none;
        if (!attr)
            attr = &none;
        zeil_attribution_t *top = &attribution_stack[attribution_depth];
        top->stream_id = attr->stream_id;
        top->primitive = registry_intern(attr->primitive);
        top->impl = registry_intern(attr->impl);
    }
    attribution_depth++;
}

void zeil_attribution_pop(void)
{
    if (attribution_depth > 0)
        attribution_depth--;
}

const zeil_attribution_t *records_current_attribution(void)
{
    if (attribution_depth == 0 || attribution_depth > ATTRIBUTION_DEPTH)
        return NULL;
    return &attribution_stack[attribution_depth - 1];
}
