/*
 * Which entries of the loader's API version zeil intercepts and
 * which pass through unchecked (see intercepted_kinds.h). The shims record the
 * version the loader asked in their zeil_next_t; this reads it, and the
 * generated layout says which entries that version has.
 */
#include "intercepted_kinds.h"

#include "diag.h"
#include "env.h"

#include <zeil/zeil.h>

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const zeil_next_t *_Atomic attached[ZEIL_MAX_NEXT_DRIVERS];
static _Atomic uint32_t driver_versions[ZEIL_MAX_NEXT_DRIVERS];
/* The generated tables (intercept/), handed over by the bootstrap. */
static const zeil_intercepts_t *_Atomic runtime_table, *_Atomic hooked_table;

void intercepted_kinds_note_next(const zeil_next_t *next, const zeil_intercepts_t *runtime,
                                 const zeil_intercepts_t *hooked)
{
    atomic_store(&runtime_table, runtime);
    atomic_store(&hooked_table, hooked);
    if (next->index < ZEIL_MAX_NEXT_DRIVERS)
        atomic_store(&attached[next->index], next);
}

void intercepted_kinds_note_driver_version(const zeil_next_t *next, ze_api_version_t version)
{
    if (next->index < ZEIL_MAX_NEXT_DRIVERS)
        atomic_store(&driver_versions[next->index], (uint32_t)version);
}

typedef struct layout_entry {
    const char *table;
    const char *member;
    uint32_t version;
    ptrdiff_t intercept_offset; /* in zeil_intercepts_t, or -1 */
} layout_entry_t;

#define LAYOUT_ROW_T(table, member, api, version) \
    {#table, #member, version, offsetof(zeil_intercepts_t, api)},
#define LAYOUT_ROW_U(table, member, api, version) {#table, #member, version, -1},
#define LAYOUT_ROW(table, member, api, version, index, kind) \
    LAYOUT_ROW_##kind(table, member, api, version)
static const layout_entry_t layout[] = {ZEIL_DDI_LAYOUT(LAYOUT_ROW)};
#undef LAYOUT_ROW
#undef LAYOUT_ROW_U
#undef LAYOUT_ROW_T

static int in_table(const zeil_intercepts_t *table, const layout_entry_t *e)
{
    if (!table || e->intercept_offset < 0)
        return 0;
    void (*fn)(void);
    memcpy(&fn, (const char *)table + e->intercept_offset, sizeof fn);
    return fn != NULL;
}

/* Every entry of known type has a generated intercept. */
static int intercepted(const layout_entry_t *e)
{
    return in_table(atomic_load(&runtime_table), e);
}

static int unchecked(const layout_entry_t *e, uint32_t version)
{
    return e->version > (uint32_t)ZEIL_INSTALLED_API_VERSION && e->version <= version &&
           !intercepted(e);
}

/* The highest version the loader asked any wrapped driver's tables for, and
 * the shim that was asked it. */
static uint32_t requested(const zeil_next_t **which)
{
    uint32_t best = 0;
    for (unsigned i = 0; i < ZEIL_MAX_NEXT_DRIVERS; i++) {
        const zeil_next_t *next = atomic_load(&attached[i]);
        uint32_t v = next ? (uint32_t)atomic_load(&next->requested_version) : 0;
        if (v > best) {
            best = v;
            if (which)
                *which = next;
        }
    }
    return best;
}

void zeil_get_coverage(zeil_coverage_t *c)
{
    memset(c, 0, sizeof *c);
    c->requested_version = requested(NULL);
    for (unsigned i = 0; i < ZEIL_MAX_NEXT_DRIVERS; i++)
        if (atomic_load(&driver_versions[i]) > c->driver_version)
            c->driver_version = atomic_load(&driver_versions[i]);
    c->headers_version = (uint32_t)ZEIL_INSTALLED_API_VERSION;
    c->known_version = (uint32_t)ZEIL_DDI_NEWEST_VERSION;
    for (size_t i = 0; c->requested_version && i < sizeof layout / sizeof layout[0]; i++) {
        if (layout[i].version > c->requested_version)
            continue;
        c->intercepted += (uint32_t)intercepted(&layout[i]);
        c->unchecked += (uint32_t)unchecked(&layout[i], c->requested_version);
    }
}

void intercepted_kinds_list_unchecked(void)
{
    const zeil_next_t *next = NULL;
    uint32_t version = requested(&next);
    /* A list for those who ask (ZEIL_LOG=info), not a finding to count. */
    if (!version || zeil_settings()->log_level < ZEIL_LOG_INFO ||
        !diag_rule_enabled(ZEIL_RULE_W082))
        return;
    for (size_t i = 0; i < sizeof layout / sizeof layout[0];) {
        const char *table = layout[i].table;
        char names[768];
        size_t used = 0, count = 0;
        names[0] = 0;
        for (; i < sizeof layout / sizeof layout[0] && layout[i].table == table; i++) {
            if (!unchecked(&layout[i], version))
                continue;
            count++;
            int n = snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "",
                             layout[i].member);
            if (n > 0 && used + (size_t)n < sizeof names)
                used += (size_t)n;
        }
        if (count)
            diag_report(ZEIL_RULE_W082, "exit",
                        "the loader asked %s for API %u.%u: %zu %s of %s newer than API "
                        "%u.%u pass%s through unchecked: %s",
                        next->path, ZE_MAJOR_VERSION(version), ZE_MINOR_VERSION(version), count,
                        count == 1 ? "entry" : "entries", table,
                        ZE_MAJOR_VERSION(ZEIL_INSTALLED_API_VERSION),
                        ZE_MINOR_VERSION(ZEIL_INSTALLED_API_VERSION), count == 1 ? "es" : "",
                        names);
    }
}

/* Every function that creates handles of a kind zeil tracks (drivers and
 * devices are never misuse when unseen: check_handles.c). */
static const struct creator {
    zeil_kind_t kind;
    const char *table, *member;
} creators[] = {
    {ZEIL_KIND_CONTEXT, "ze_context_dditable_t", "pfnCreate"},
    {ZEIL_KIND_CONTEXT, "ze_context_dditable_t", "pfnCreateEx"},
    {ZEIL_KIND_CONTEXT, "ze_driver_dditable_t", "pfnGetDefaultContext"},
    {ZEIL_KIND_COMMAND_QUEUE, "ze_command_queue_dditable_t", "pfnCreate"},
    {ZEIL_KIND_COMMAND_LIST, "ze_command_list_dditable_t", "pfnCreate"},
    {ZEIL_KIND_COMMAND_LIST, "ze_command_list_dditable_t", "pfnCreateImmediate"},
    {ZEIL_KIND_COMMAND_LIST, "ze_command_list_exp_dditable_t", "pfnCreateCloneExp"},
    {ZEIL_KIND_COMMAND_LIST, "ze_graph_dditable_t", "pfnGetPrimaryCommandListExt"},
    {ZEIL_KIND_EVENT_POOL, "ze_event_pool_dditable_t", "pfnCreate"},
    {ZEIL_KIND_EVENT_POOL, "ze_event_pool_dditable_t", "pfnOpenIpcHandle"},
    {ZEIL_KIND_EVENT, "ze_event_dditable_t", "pfnCreate"},
    {ZEIL_KIND_EVENT, "ze_event_dditable_t", "pfnCounterBasedCreate"},
    {ZEIL_KIND_EVENT, "ze_event_dditable_t", "pfnCounterBasedOpenIpcHandle"},
    {ZEIL_KIND_FENCE, "ze_fence_dditable_t", "pfnCreate"},
    {ZEIL_KIND_MODULE, "ze_module_dditable_t", "pfnCreate"},
    {ZEIL_KIND_KERNEL, "ze_kernel_dditable_t", "pfnCreate"},
};

/* Kinds some creator of which zeil passes through at a version, cached for
 * the last version asked (the loader asks one version per process). */
static _Atomic uint64_t partial_cache; /* version << 32 | kind mask, 0: none */

static uint32_t partial_kinds(uint32_t version)
{
    uint64_t cached = atomic_load_explicit(&partial_cache, memory_order_acquire);
    if (cached && (uint32_t)(cached >> 32) == version)
        return (uint32_t)cached;
    uint32_t mask = 0;
    for (size_t c = 0; c < sizeof creators / sizeof creators[0]; c++)
        for (size_t i = 0; i < sizeof layout / sizeof layout[0]; i++)
            if (strcmp(layout[i].table, creators[c].table) == 0 &&
                strcmp(layout[i].member, creators[c].member) == 0 && layout[i].version <= version &&
                !in_table(atomic_load(&hooked_table), &layout[i]))
                mask |= 1u << creators[c].kind;
    atomic_store_explicit(&partial_cache, (uint64_t)version << 32 | mask, memory_order_release);
    return mask;
}

int intercepted_kinds_all_creators(zeil_kind_t kind)
{
    uint32_t version = requested(NULL);
    return !version || !(partial_kinds(version) & (1u << kind));
}

const zeil_next_t *intercepted_kinds_only_next(void)
{
    const zeil_next_t *only = NULL;
    for (unsigned i = 0; i < ZEIL_MAX_NEXT_DRIVERS; i++) {
        const zeil_next_t *next = atomic_load(&attached[i]);
        if (next && only)
            return NULL;
        if (next)
            only = next;
    }
    return only;
}
