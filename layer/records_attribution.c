/* Attribution: a thread-local stack of (stream, primitive, impl) pushed by the
 * interop library around an execute. Labels are interned, so records keep
 * pointers (the stack itself: records.h). */
#include "records.h"

#include <string.h>

_Thread_local zeil_attribution_t records_attribution_stack[ZEIL_ATTRIBUTION_DEPTH];
_Thread_local unsigned records_attribution_depth;

/* The interop library pushes the same few labels execute after execute, and
 * interning one (hash, read lock) cost more than the rest of the push: the
 * thread keeps the last interned text of each field and reuses it when the
 * text is the same (compared, not matched by pointer, so a buffer reused for
 * another text is interned anew). Interned strings live for ever. */
static _Thread_local const char *last_primitive, *last_impl, *last_memory_args;

static const char *intern_cached(const char *text, const char **last)
{
    if (!text)
        return NULL;
    if (!*last || strcmp(text, *last) != 0)
        *last = registry_intern(text);
    return *last;
}

void zeil_attribution_push(const zeil_attribution_t *attr)
{
    if (records_attribution_depth < ZEIL_ATTRIBUTION_DEPTH) {
        static const zeil_attribution_t none;
        if (!attr)
            attr = &none;
        zeil_attribution_t *top = &records_attribution_stack[records_attribution_depth];
        top->stream_id = attr->stream_id;
        top->primitive = intern_cached(attr->primitive, &last_primitive);
        top->impl = intern_cached(attr->impl, &last_impl);
        top->memory_args = intern_cached(attr->memory_args, &last_memory_args);
    }
    records_attribution_depth++;
}

void zeil_attribution_pop(void)
{
    if (records_attribution_depth > 0)
        records_attribution_depth--;
}
