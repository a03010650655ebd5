/* Lookups in the USM allocation index: lock-free, under its seqlock
 * (registry_allocs.c says how). */
#include "registry.h"
#include "registry_alloc_index.h"

/* Called by readers right after they load the sequence: the unit test
 * (which includes this file) makes it a writer at that worst moment. */
#ifndef READER_HOOK
#define READER_HOOK() ((void)0)
#endif

static inline void unpack(zeil_alloc_t *out, const alloc_entry_t *e, int found)
{
    unsigned flags = meta_flags(e->meta);
    uint32_t creator = (uint32_t)(e->meta >> 32) & 0xffu;
    *out = (zeil_alloc_t){.base = (void *)e->base,
                          .size = (flags & F_ZERO_SIZE) ? 0 : (size_t)e->span,
                          .type = (ze_memory_type_t)(uint32_t)e->meta,
                          .context = (ze_context_handle_t)e->context,
                          .device = (ze_device_handle_t)e->device,
                          .created_by = creator ? ALLOC_LOAD(allocs.creators[creator - 1]) : NULL,
                          .created_call = e->created_call,
                          .freed_call = found == 2 ? e->freed_call : 0,
                          .created_thread = (uint32_t)e->threads,
                          .freed_thread = found == 2 ? (uint32_t)(e->threads >> 32) : 0,
                          .alive = found == 1};
}

static int find_entry(uintptr_t p, alloc_entry_t *e)
{
    int found = 1;
    const alloc_slot_t *s = entries_find(&allocs.live, p);
    if (!s) {
        found = 2;
        s = entries_find(&allocs.dead, p);
    }
    if (!s) {
        *e = (alloc_entry_t){0};
        return 0;
    }
    slot_load(s, e);
    return found;
}

/* Tombstones, pointers zeil does not know, and lookups that meet a writer. */
static __attribute__((noinline)) int find_slow(uintptr_t p, zeil_alloc_t *out)
{
    alloc_entry_t e;
    for (unsigned attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
        uint64_t s = ALLOC_LOAD(allocs.seq);
        READER_HOOK();
        if (s & 1) {
            cpu_relax();
            continue;
        }
        int found = find_entry(p, &e);
        if (ALLOC_LOAD(allocs.seq) != s)
            continue;
        if (found && out)
            unpack(out, &e, found);
        return found;
    }
    /* Writers kept changing the index: wait for them once. */
    allocs_lock();
    int found = find_entry(p, &e);
    allocs_unlock();
    if (found && out)
        unpack(out, &e, found);
    return found;
}

/* The common case's first half: the live slot holding p, unless a writer
 * is in the way (null); *s the sequence to compare once the slot is read. */
static inline const alloc_slot_t *live_hit(uintptr_t p, uint64_t *s)
{
    *s = ALLOC_LOAD(allocs.seq);
    READER_HOOK();
    return (*s & 1) ? NULL : entries_find(&allocs.live, p);
}

/* The common case inline and lean (the fewer instructions a lookup takes,
 * the more of them a core overlaps while each waits for its cache miss):
 * a live allocation, no writer in the way. */
int registry_find_alloc(const void *ptr, zeil_alloc_t *out)
{
    uintptr_t p = (uintptr_t)ptr;
    uint64_t s;
    const alloc_slot_t *hit = live_hit(p, &s);
    if (hit) {
        alloc_entry_t e;
        slot_load(hit, &e);
        if (ALLOC_LOAD(allocs.seq) == s) {
            if (out)
                unpack(out, &e, 1);
            return 1;
        }
    }
    return find_slow(p, out);
}

uint64_t registry_count_allocs(registry_alloc_filter keep, const void *user, uint64_t *bytes)
{
    uint64_t n = 0, total = 0;
    allocs_lock();
    for (unsigned k = 0; k < ALLOC_LEVELS; k++) {
        const alloc_table_t *t = ALLOC_LOAD(allocs.live.tables[k]);
        for (size_t i = 0; t && i <= t->mask; i++) {
            alloc_entry_t e;
            slot_load(&t->slots[i], &e);
            if (!e.span || (meta_flags(e.meta) & F_SECOND))
                continue;
            zeil_alloc_t a;
            unpack(&a, &e, 1);
            if (keep && !keep(&a, user))
                continue;
            n++;
            total += a.size;
        }
    }
    allocs_unlock();
    if (bytes)
        *bytes = total;
    return n;
}

/* zeil_lookup_pointer's: registry_find_alloc's common case with only the
 * fields the public answer has (no creator's name: one dependent load
 * fewer), straight into it. Anything else takes registry_find_alloc. */
int registry_lookup_info(const void *ptr, zeil_alloc_info_t *info)
{
    uintptr_t p = (uintptr_t)ptr;
    uint64_t s;
    const alloc_slot_t *hit = live_hit(p, &s);
    if (hit) {
        uintptr_t base = ALLOC_LOAD(hit->base), span = ALLOC_LOAD(hit->span);
        uintptr_t context = ALLOC_LOAD(hit->context), device = ALLOC_LOAD(hit->device);
        uint64_t created_call = ALLOC_LOAD(hit->created_call), meta = ALLOC_LOAD(hit->meta);
        if (ALLOC_LOAD(allocs.seq) == s) {
            if (info)
                *info =
                    (zeil_alloc_info_t){.base = (void *)base,
                                        .size = (meta_flags(meta) & F_ZERO_SIZE) ? 0 : (size_t)span,
                                        .type = (ze_memory_type_t)(uint32_t)meta,
                                        .context = (ze_context_handle_t)context,
                                        .device = (ze_device_handle_t)device,
                                        .alive = 1,
                                        .created_call = created_call};
            return 1;
        }
    }
    zeil_alloc_t a;
    int found = find_slow(p, &a);
    if (found && info)
        *info = (zeil_alloc_info_t){.base = a.base,
                                    .size = a.size,
                                    .type = a.type,
                                    .context = a.context,
                                    .device = a.device,
                                    .alive = found == 1,
                                    .created_call = a.created_call,
                                    .freed_call = found == 1 ? 0 : a.freed_call};
    return found;
}
