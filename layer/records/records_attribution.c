/* Attribution: a thread-local stack of (stream, primitive, impl) pushed by the
 * interop library around an execute. Labels are interned, so records keep
 * pointers; records read the innermost entry from calls_thread_t. */
#include "records.h"

#include <string.h>

/* Pushes deeper than the stack are counted, not stored, so pops stay
 * balanced. */
#define ZEIL_ATTRIBUTION_DEPTH 16
typedef struct records_attribution {
    unsigned depth;
    zeil_attribution_t stack[ZEIL_ATTRIBUTION_DEPTH];
} records_attribution_t;
static _Thread_local records_attribution_t records_attribution;

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

/* The innermost stored attribution, or null: what records read. */
static void set_top(records_attribution_t *a)
{
    calls_thread.attribution =
        a->depth > 0 && a->depth <= ZEIL_ATTRIBUTION_DEPTH ? &a->stack[a->depth - 1] : NULL;
}

void zeil_attribution_push(const zeil_attribution_t *attr)
{
    records_attribution_t *a = &records_attribution;
    if (a->depth < ZEIL_ATTRIBUTION_DEPTH) {
        static const zeil_attribution_t none;
        if (!attr)
            attr = &none;
        zeil_attribution_t *top = &a->stack[a->depth];
        top->stream_id = attr->stream_id;
        top->primitive = intern_cached(attr->primitive, &last_primitive);
        top->impl = intern_cached(attr->impl, &last_impl);
        top->memory_args = intern_cached(attr->memory_args, &last_memory_args);
    }
    a->depth++;
    set_top(a);
}

void zeil_attribution_pop(void)
{
    records_attribution_t *a = &records_attribution;
    if (a->depth > 0)
        a->depth--;
    set_top(a);
}

unsigned records_attribution_depth(void)
{
    return records_attribution.depth;
}
