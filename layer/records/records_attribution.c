/* Attribution: a thread-local stack of (stream, primitive, impl) pushed by the
 * interop library around an execute. Labels are interned, and so is each
 * attribution as a whole, so records keep pointers and a cached launch
 * (records_add_plain_launch) knows its attribution unchanged by its address;
 * records read the innermost entry from calls_thread_t. */
#include "records.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Pushes deeper than the stack are counted, not stored, so pops stay
 * balanced. */
#define ZEIL_ATTRIBUTION_DEPTH 16
typedef struct records_attribution {
    unsigned depth;
    /* Each level's attribution: interned, or (memory ran out) its copy. */
    const zeil_attribution_t *top[ZEIL_ATTRIBUTION_DEPTH];
    zeil_attribution_t copy[ZEIL_ATTRIBUTION_DEPTH];
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

/* Interned attributions: one per distinct value (its strings interned, so
 * compared as bytes), never freed. Each thread keeps those it used in a
 * small direct-mapped table, so that a network's executes, stream after
 * stream and primitive after primitive, find theirs without the lock. */
typedef struct interned_attribution {
    zeil_attribution_t value;
    UT_hash_handle hh;
} interned_attribution_t;
static pthread_mutex_t interned_lock = PTHREAD_MUTEX_INITIALIZER;
static interned_attribution_t *interned;
#define RECENT_ATTRIBUTIONS 64 /* a power of two */
static _Thread_local const zeil_attribution_t *recent[RECENT_ATTRIBUTIONS];

static unsigned recent_slot(const zeil_attribution_t *value)
{
    uint64_t h = value->stream_id ^ (uint64_t)(uintptr_t)value->primitive ^
                 (uint64_t)(uintptr_t)value->impl * 3 ^ (uint64_t)(uintptr_t)value->memory_args * 5;
    return (unsigned)((h * UINT64_C(0x9e3779b97f4a7c15)) >> 58) & (RECENT_ATTRIBUTIONS - 1);
}

static int same_attribution(const zeil_attribution_t *a, const zeil_attribution_t *b)
{
    return a->stream_id == b->stream_id && a->primitive == b->primitive && a->impl == b->impl &&
           a->memory_args == b->memory_args;
}

/* The interned attribution equal to *value, or null when memory ran out. */
static const zeil_attribution_t *interned_of(const zeil_attribution_t *value)
{
    const zeil_attribution_t **mine = &recent[recent_slot(value)];
    if (*mine && same_attribution(*mine, value))
        return *mine;
    interned_attribution_t *e = NULL;
    pthread_mutex_lock(&interned_lock);
    HASH_FIND(hh, interned, value, sizeof *value, e);
    if (!e) {
        e = calloc(1, sizeof *e);
        if (e) {
            e->value = *value;
            HASH_ADD(hh, interned, value, sizeof e->value, e);
            if (!e->hh.tbl) { /* uthash could not grow its table */
                free(e);
                e = NULL;
            }
        }
    }
    pthread_mutex_unlock(&interned_lock);
    if (!e)
        return NULL;
    *mine = &e->value;
    return &e->value;
}

const zeil_attribution_t records_undescribed;

/* The innermost stored attribution, or null: what records read. */
static void set_top(records_attribution_t *a)
{
    calls_thread.attribution =
        a->depth > 0 && a->depth <= ZEIL_ATTRIBUTION_DEPTH ? a->top[a->depth - 1] : NULL;
}

void zeil_attribution_push(const zeil_attribution_t *attr)
{
    records_attribution_t *a = &records_attribution;
    if (a->depth < ZEIL_ATTRIBUTION_DEPTH) {
        static const zeil_attribution_t none;
        if (!attr)
            attr = &none;
        zeil_attribution_t *copy = &a->copy[a->depth];
        memset(copy, 0, sizeof *copy); /* hashed as bytes */
        copy->stream_id = attr->stream_id;
        copy->primitive = intern_cached(attr->primitive, &last_primitive);
        copy->impl = intern_cached(attr->impl, &last_impl);
        copy->memory_args = intern_cached(attr->memory_args, &last_memory_args);
        const zeil_attribution_t *value = interned_of(copy);
        a->top[a->depth] = value ? value : copy;
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

int records_attribution_interned(const zeil_attribution_t *attr)
{
    const records_attribution_t *a = &records_attribution;
    return !(attr >= a->copy && attr < a->copy + ZEIL_ATTRIBUTION_DEPTH);
}
