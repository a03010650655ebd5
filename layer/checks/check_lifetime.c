/*
 * Lifetime rules: a context destroyed before its children (W050), an event
 * pool destroyed before its events (E030), a module before its kernels
 * (W051), and what is still alive at exit (W052). Destruction is rare, so
 * these scan the registry instead of keeping counters on the launch path.
 */
#include "checks.h"

#include "diag.h"

#include <stdio.h>
#include <string.h>

typedef struct child_count {
    const void *parent;
    int by_context; /* match obj->context, else obj->parent */
    uint64_t by_kind[ZEIL_KIND_COUNT];
    uint64_t total;
} child_count_t;

static void count_child(zeil_obj_t *obj, void *user)
{
    child_count_t *c = user;
    const void *link = c->by_context ? (const void *)obj->context : obj->parent;
    if (link != c->parent || obj->handle == c->parent)
        return;
    c->by_kind[obj->kind]++;
    c->total++;
}

static child_count_t count_children(const void *parent, int by_context)
{
    child_count_t c;
    memset(&c, 0, sizeof c);
    c.parent = parent;
    c.by_context = by_context;
    registry_foreach_live(count_child, &c);
    return c;
}

/* "2 command lists, 1 module" */
static void describe_counts(char *buf, size_t size, const uint64_t *by_kind, uint64_t allocs,
                            uint64_t bytes)
{
    size_t used = 0;
    buf[0] = 0;
    if (allocs) {
        int n = snprintf(buf, size, "%llu allocations (%llu bytes)", (unsigned long long)allocs,
                         (unsigned long long)bytes);
        used = n > 0 ? (size_t)n : 0;
    }
    for (int k = ZEIL_KIND_CONTEXT; k < ZEIL_KIND_COUNT && used < size; k++) {
        if (!by_kind[k])
            continue;
        int n = snprintf(buf + used, size - used, "%s%llu %s%s", used ? ", " : "",
                         (unsigned long long)by_kind[k], registry_kind_name((zeil_kind_t)k),
                         by_kind[k] > 1 ? "s" : "");
        used += n > 0 ? (size_t)n : 0;
    }
}

static int alloc_in_context(const zeil_alloc_t *alloc, const void *context)
{
    return alloc->context == context;
}

ze_result_t check_context_children(const zeil_call_t *call, const zeil_obj_t *context)
{
    if (!context || !diag_rule_enabled(ZEIL_RULE_W050))
        return ZE_RESULT_SUCCESS;
    child_count_t c = count_children(context->handle, 1);
    uint64_t bytes = 0;
    uint64_t allocs = registry_count_allocs(alloc_in_context, context->handle, &bytes);
    if (!c.total && !allocs)
        return ZE_RESULT_SUCCESS;
    char what[256];
    describe_counts(what, sizeof what, c.by_kind, allocs, bytes);
    return diag_report(ZEIL_RULE_W050, call->name, "context %p still has %s alive", context->handle,
                       what);
}

ze_result_t check_pool_events(const zeil_call_t *call, const zeil_obj_t *pool)
{
    if (!pool || !diag_rule_enabled(ZEIL_RULE_E030))
        return ZE_RESULT_SUCCESS;
    child_count_t c = count_children(pool->handle, 0);
    if (!c.by_kind[ZEIL_KIND_EVENT])
        return ZE_RESULT_SUCCESS;
    return diag_report(ZEIL_RULE_E030, call->name,
                       "event pool %p still has %llu live events; destroy them first", pool->handle,
                       (unsigned long long)c.by_kind[ZEIL_KIND_EVENT]);
}

ze_result_t check_module_kernels(const zeil_call_t *call, const zeil_obj_t *module)
{
    if (!module || !diag_rule_enabled(ZEIL_RULE_W051))
        return ZE_RESULT_SUCCESS;
    child_count_t c = count_children(module->handle, 0);
    if (!c.by_kind[ZEIL_KIND_KERNEL])
        return ZE_RESULT_SUCCESS;
    return diag_report(ZEIL_RULE_W051, call->name, "module %p still has %llu live kernels",
                       module->handle, (unsigned long long)c.by_kind[ZEIL_KIND_KERNEL]);
}

/* A leak is what the application could still have destroyed: an object of a
 * context that was itself destroyed went with it (W050 said so then). */
static void count_leak(zeil_obj_t *obj, void *user)
{
    uint64_t *by_kind = user;
    if (obj->kind < ZEIL_KIND_CONTEXT)
        return;
    if (obj->context && obj->kind != ZEIL_KIND_CONTEXT) {
        zeil_obj_t *ctx = registry_find(obj->context);
        if (ctx && !atomic_load(&ctx->alive))
            return;
    }
    by_kind[obj->kind]++;
}

static int alloc_of_live_context(const zeil_alloc_t *alloc, const void *unused)
{
    (void)unused;
    zeil_obj_t *ctx = registry_find(alloc->context);
    return !ctx || atomic_load(&ctx->alive);
}

void check_leaks_at_exit(void)
{
    if (!diag_rule_enabled(ZEIL_RULE_W052))
        return;
    uint64_t by_kind[ZEIL_KIND_COUNT] = {0};
    registry_foreach_live(count_leak, by_kind);
    uint64_t bytes = 0;
    uint64_t allocs = registry_count_allocs(alloc_of_live_context, NULL, &bytes);
    uint64_t objects = 0;
    for (int k = 0; k < ZEIL_KIND_COUNT; k++)
        objects += by_kind[k];
    if (!objects && !allocs)
        return;
    char what[512];
    describe_counts(what, sizeof what, by_kind, allocs, bytes);
    diag_report(ZEIL_RULE_W052, "exit", "leaked %s", what);
}
