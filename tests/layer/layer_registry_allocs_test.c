/*
 * The USM allocation index (layer/registry/usm/registry_allocs.c,
 * registry_alloc_frees.c and registry_alloc_lookup.c) on its own: the files are included here and
 * driven through registry_* with made-up addresses (the index works on
 * address values: nothing is allocated or dereferenced), no driver or loader. check forks each test, so each starts from an empty
 * index. The link wraps mmap (the index's only source of memory) so that
 * tests can make it fail, and READER_HOOK lets a test
 * change the index right after a reader has loaded the sequence.
 */
static void reader_hook(void);
#define READER_HOOK() reader_hook()
#include "registry_allocs.c"
#include "registry_alloc_frees.c"
#include "registry_alloc_lookup.c"

#include "zt.h"

#include <check.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

/* Loops run a tenth as long where sanitizers make every access a call. */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define SCALE 10u
#else
#define SCALE 1u
#endif

static _Atomic int fail_memory;

void *__real_mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset);
void *__wrap_mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset);

void *__wrap_mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset)
{
    return atomic_load(&fail_memory) ? MAP_FAILED
                                     : __real_mmap(addr, length, prot, flags, fd, offset);
}

#define CONTEXT ((ze_context_handle_t)(uintptr_t)0xc0)
#define DEVICE ((ze_device_handle_t)(uintptr_t)0xd0)

static uint64_t next_call = 1;

static void add(uintptr_t base, size_t size)
{
    zeil_alloc_t a = {.base = (void *)base,
                      .size = size,
                      .type = ZE_MEMORY_TYPE_DEVICE,
                      .context = CONTEXT,
                      .device = DEVICE,
                      .created_by = "zeMemAllocDevice",
                      .created_call = next_call++,
                      .created_thread = 7};
    if (registry_add_alloc(&a) != 0)
        ck_abort_msg("registry_add_alloc(%#lx, %zu) failed", (unsigned long)base, size);
}

/* (check writes down every ck_assert that passes: the loops over a million
 * allocations test with if and ck_abort_msg.) */
static void release(uintptr_t base)
{
    int r = registry_free_alloc((void *)base, next_call++, 9);
    if (r != 1)
        ck_abort_msg("registry_free_alloc(%#lx) returned %d", (unsigned long)base, r);
}

/* find(p) must say `expected` (0, 1 live, 2 tombstone) and, when found,
 * name the allocation of this base and size. */
static zeil_alloc_t expect(uintptr_t p, int expected, uintptr_t base, size_t size)
{
    zeil_alloc_t a;
    memset(&a, 0xa5, sizeof a);
    int found = registry_find_alloc((void *)p, &a);
    if (found != expected)
        ck_abort_msg("%#lx: found %d, expected %d", (unsigned long)p, found, expected);
    if (expected && ((uintptr_t)a.base != base || a.size != size || a.alive != (expected == 1)))
        ck_abort_msg("%#lx: found %p (%zu bytes, alive %d), expected %#lx (%zu bytes)",
                     (unsigned long)p, a.base, a.size, a.alive, (unsigned long)base, size);
    return a;
}

/* First, middle and last byte inside, one past the end and one before the
 * base outside. */
static void expect_range(uintptr_t base, size_t size, int expected)
{
    size_t span = size ? size : 1;
    expect(base, expected, base, size);
    expect(base + span / 2, expected, base, size);
    expect(base + span - 1, expected, base, size);
}

START_TEST(interior_pointers)
{
    add(0x10000, 100);
    expect_range(0x10000, 100, 1);
    expect(0x10000 + 100, 0, 0, 0);
    expect(0x10000 - 1, 0, 0, 0);
    zeil_alloc_t a = expect(0x10042, 1, 0x10000, 100);
    ck_assert_ptr_eq(a.context, CONTEXT);
    ck_assert_ptr_eq(a.device, DEVICE);
    ck_assert_int_eq(a.type, ZE_MEMORY_TYPE_DEVICE);
    ck_assert_str_eq(a.created_by, "zeMemAllocDevice");
    ck_assert_uint_eq(a.created_call, 1);
    ck_assert_uint_eq(a.created_thread, 7);
    ck_assert_uint_eq(a.freed_call, 0);
    ck_assert_int_eq(registry_find_alloc(NULL, NULL), 0);
    ck_assert_int_eq(registry_find_alloc((void *)0x10001, NULL), 1);
}
END_TEST

/* Allocations that cross a block boundary of their level are found from
 * both sides of it; neighbours of other sizes do not hide each other. */
START_TEST(adjacent_and_crossing)
{
    /* 64 bytes each, back to back, across a 256-byte block boundary. */
    for (uintptr_t b = 0x20000 + 0xc0; b < 0x20000 + 0x200; b += 64)
        add(b, 64);
    for (uintptr_t b = 0x20000 + 0xc0; b < 0x20000 + 0x200; b += 64)
        expect_range(b, 64, 1);
    expect(0x20000 + 0xbf, 0, 0, 0);
    expect(0x20000 + 0x200, 0, 0, 0);
    /* 200 bytes straddling 0x30100, then 4 KiB right after, then 16. */
    add(0x30080, 200);
    add(0x30080 + 200, 4096);
    add(0x30080 + 200 + 4096, 16);
    expect_range(0x30080, 200, 1);
    expect_range(0x30080 + 200, 4096, 1);
    expect_range(0x30080 + 200 + 4096, 16, 1);
    expect(0x30080 + 200 + 4096 + 16, 0, 0, 0);
    expect(0x3007f, 0, 0, 0);
    /* Every size class boundary: 16, 17, 256, 257, ... */
    uintptr_t b = 0x100000000ull;
    for (unsigned bits = 4; bits <= 28; bits += 4) {
        size_t sizes[] = {((size_t)1 << bits) - 1, (size_t)1 << bits, ((size_t)1 << bits) + 1};
        for (int i = 0; i < 3; i++) {
            add(b + 3, sizes[i]); /* unaligned: crosses blocks */
            expect_range(b + 3, sizes[i], 1);
            expect(b + 2, 0, 0, 0);
            expect(b + 3 + sizes[i], 0, 0, 0);
            b += 2 * sizes[i] + 64;
        }
    }
}
END_TEST

START_TEST(huge_allocations)
{
    const size_t gib = (size_t)1 << 30;
    add(0x7f0000000000ull, gib);
    add(0x7f0000000000ull + gib + 123, gib); /* unaligned, two blocks */
    add(0x7f0000000000ull + 2 * gib + 123, 64);
    expect_range(0x7f0000000000ull, gib, 1);
    expect_range(0x7f0000000000ull + gib + 123, gib, 1);
    expect_range(0x7f0000000000ull + 2 * gib + 123, 64, 1);
    expect(0x7f0000000000ull + gib, 0, 0, 0);
    expect(0x7f0000000000ull + gib + 122, 0, 0, 0);
    /* The largest sizes: up to the top of the address space. */
    add(0xffff000000000000ull, (size_t)1 << 47);
    expect_range(0xffff000000000000ull, (size_t)1 << 47, 1);
    add(0x8000000000000000ull, 0x7000000000000000ull);
    expect_range(0x8000000000000000ull, 0x7000000000000000ull, 1);
    expect(0x7fffffffffffffffull, 0, 0, 0);
    release(0x7f0000000000ull);
    expect_range(0x7f0000000000ull, gib, 2);
    expect_range(0x7f0000000000ull + gib + 123, gib, 1);
}
END_TEST

START_TEST(zero_size)
{
    add(0x40000, 0);
    add(0x40001, 8);
    expect(0x40000, 1, 0x40000, 0);
    expect(0x40001, 1, 0x40001, 8);
    expect(0x3ffff, 0, 0, 0);
    uint64_t bytes = 1;
    ck_assert_uint_eq(registry_count_allocs(NULL, NULL, &bytes), 2);
    ck_assert_uint_eq(bytes, 8);
    release(0x40000);
    expect(0x40000, 2, 0x40000, 0);
    expect(0x40001, 1, 0x40001, 8);
}
END_TEST

START_TEST(tombstones_newest_wins)
{
    /* Same base, growing: the newest (coarser) covers all. */
    add(0x50000, 64);
    release(0x50000);
    add(0x50000, 4096);
    expect(0x50010, 1, 0x50000, 4096); /* live before tombstones */
    release(0x50000);
    zeil_alloc_t a = expect(0x50010, 2, 0x50000, 4096);
    ck_assert_uint_eq(a.freed_call, next_call - 1);
    ck_assert_uint_eq(a.freed_thread, 9);
    ck_assert_uint_eq(a.created_call, next_call - 2);
    expect(0x50fff, 2, 0x50000, 4096);

    /* Shrinking: the newer, finer tombstone drops the older one it
     * overlaps, as the sorted array did. */
    add(0x60000, 4096);
    release(0x60000);
    add(0x60100, 64);
    release(0x60100);
    expect(0x60100, 2, 0x60100, 64);
    expect(0x60000, 0, 0, 0);
    expect(0x60fff, 0, 0, 0);

    /* Partial overlap at one level, and a coarser one over finer ones. */
    add(0x70000, 200);
    release(0x70000);
    add(0x70000 + 100, 200);
    release(0x70000 + 100);
    expect(0x70000 + 50, 0, 0, 0);
    expect(0x70000 + 150, 2, 0x70000 + 100, 200);
    add(0x70000, 1 << 16);
    release(0x70000);
    expect(0x70000 + 150, 2, 0x70000, 1 << 16);
    expect(0x70000 + 50, 2, 0x70000, 1 << 16);

    /* The same range freed again while a coarser tombstone covers it:
     * the new one takes the old one's slots and the coarser one goes. */
    add(0x90000, 64);
    release(0x90000);
    add(0x90000, 4096);
    release(0x90000);
    expect(0x90010, 2, 0x90000, 4096);
    add(0x90000, 64);
    release(0x90000);
    ck_assert_uint_eq(expect(0x90010, 2, 0x90000, 64).freed_call, next_call - 1);
    expect(0x90100, 0, 0, 0);

    /* Freed, then the memory handed out again: live wins; freed again:
     * the newest tombstone. */
    add(0x80000, 256);
    release(0x80000);
    add(0x80000, 256);
    uint64_t created = next_call - 1;
    expect(0x80080, 1, 0x80000, 256);
    release(0x80000);
    ck_assert_uint_eq(expect(0x80080, 2, 0x80000, 256).created_call, created);

    ck_assert_int_eq(registry_free_alloc((void *)0x80000, 1, 1), 0); /* double free */
    ck_assert_int_eq(registry_free_alloc((void *)0x80001, 1, 1), 0);
}
END_TEST

START_TEST(tombstone_eviction)
{
    /* ZEIL_TOMBSTONES + 10 frees: the 10 oldest are forgotten. */
    for (uintptr_t i = 0; i < ZEIL_TOMBSTONES + 10; i++) {
        add(0x1000000 + i * 4096, 1000 + i % 3000);
        release(0x1000000 + i * 4096);
    }
    for (uintptr_t i = 0; i < ZEIL_TOMBSTONES + 10; i++)
        expect(0x1000000 + i * 4096, i < 10 ? 0 : 2, 0x1000000 + i * 4096, 1000 + i % 3000);
    /* Shadowed tombstones (a coarse one freed over fine ones) age out
     * in order too, and the fine ones never show through. */
    for (uintptr_t i = 0; i < 16; i++) {
        add(0x9000000 + i * 64, 64);
        release(0x9000000 + i * 64);
    }
    add(0x9000000, 1024);
    release(0x9000000);
    for (uintptr_t i = 0; i < 16; i++)
        expect(0x9000000 + i * 64, 2, 0x9000000, 1024);
    for (uintptr_t i = 0; i < ZEIL_TOMBSTONES; i++) {
        add(0x20000000 + i * 4096, 4096);
        release(0x20000000 + i * 4096);
    }
    for (uintptr_t i = 0; i < 16; i++)
        expect(0x9000000 + i * 64, 0, 0, 0);
    ck_assert_uint_eq(registry_count_allocs(NULL, NULL, NULL), 0);
    for (unsigned k = 0; k < ALLOC_LEVELS; k++) {
        alloc_table_t *t = ALLOC_LOAD(allocs.dead.tables[k]);
        ck_assert(!t || t->used <= 2 * ZEIL_TOMBSTONES);
    }
}
END_TEST

/* zeil missed a free: the same base allocated again replaces the stale
 * allocation, whatever its size. */
START_TEST(missed_free)
{
    add(0xa0000, 64);
    add(0xa0000, 4096);
    expect(0xa0010, 1, 0xa0000, 4096);
    expect(0xa0100, 1, 0xa0000, 4096);
    ck_assert_uint_eq(registry_count_allocs(NULL, NULL, NULL), 1);
    uint64_t created = next_call - 1;
    add(0xa0000, 16);
    expect(0xa0000, 1, 0xa0000, 16);
    expect(0xa0100, 0, 0, 0);
    release(0xa0000);
    ck_assert_int_eq(registry_free_alloc((void *)0xa0000, 1, 1), 0);
    ck_assert_uint_ne(expect(0xa0000, 2, 0xa0000, 16).created_call, created);
    ck_assert_uint_eq(registry_count_allocs(NULL, NULL, NULL), 0);
}
END_TEST

/* Missed frees while the table of their level grows: the replacement finds
 * the stale entry wherever the new table put it. */
START_TEST(missed_frees_while_growing)
{
    for (uintptr_t i = 0; i < 3000; i++) {
        add(0x4000000 + i * 256, 100);
        add(0x4000000 + i * 256, 200);
    }
    ck_assert_uint_eq(registry_count_allocs(NULL, NULL, NULL), 3000);
    for (uintptr_t i = 0; i < 3000; i++)
        expect_range(0x4000000 + i * 256, 200, 1);
}
END_TEST

/* The burial of a free finds its allocation where the lookup found it, and
 * still finds it after the table was replaced (grown) or its slot moved in
 * between: the tombstone names that free. */
START_TEST(free_ends_on_its_allocation_after_moves)
{
    for (int moved = 0; moved < 2; moved++) {
        uintptr_t base = 0x7000000 + (uintptr_t)moved * 0x100000;
        add(base, 100);
        registry_free_t freeing;
        uint64_t call = next_call++;
        ck_assert_int_eq(registry_begin_free((void *)base, call, 9, &freeing), 1);
        if (moved) {
            freeing.slot = (freeing.slot + 1) % (MIN_SLOTS); /* not where it is */
        } else {
            const void *table = freeing.table;
            for (uintptr_t b = base + 0x1000; b < base + 0x1000 + 200 * 0x100; b += 0x100)
                add(b, 100);
            ck_assert_ptr_ne(ALLOC_LOAD(allocs.live.tables[freeing.level]), table);
        }
        ck_assert_int_eq(registry_end_free(&freeing), 1);
        zeil_alloc_t a = expect(base + 1, 2, base, 100);
        ck_assert_uint_eq(a.freed_call, call);
        ck_assert_uint_eq(a.freed_thread, 9);
    }
}
END_TEST

/* An allocation or a free with no number (the hooks' quiet path) takes one
 * with the index's lock, in the call counter (call_counter.h), and a free
 * the driver refused takes none to become live again. The lock is free
 * after each. */
static int lock_is_free(void)
{
    return atomic_load(&calls_counter.word) == calls_last_number();
}

START_TEST(numbers_taken_with_the_lock)
{
    uint64_t before = calls_last_number();
    ck_assert_int_eq(registry_add_alloc_fields((void *)0x9000000, 100, ZE_MEMORY_TYPE_DEVICE,
                                               CONTEXT, DEVICE, "zeMemAllocDevice", 0, 7),
                     0);
    ck_assert_uint_eq(calls_last_number(), before + 1);
    ck_assert_uint_eq(expect(0x9000000, 1, 0x9000000, 100).created_call, before + 1);
    ck_assert(lock_is_free());

    registry_free_t freeing;
    ck_assert_int_eq(registry_begin_free((void *)0x9000000, 0, 9, &freeing), 1);
    ck_assert_uint_eq(freeing.call, 0);
    ck_assert_int_eq(registry_end_free(&freeing), 1);
    ck_assert_uint_eq(freeing.call, before + 2);
    ck_assert_uint_eq(expect(0x9000000, 2, 0x9000000, 100).freed_call, before + 2);
    ck_assert(lock_is_free());

    /* Refused by the driver: live again, as it was, its tombstone gone. */
    add(0x9100000, 100);
    uint64_t created = next_call - 1;
    ck_assert_int_eq(registry_begin_free((void *)0x9100000, 0, 9, &freeing), 1);
    ck_assert_int_eq(registry_end_free(&freeing), 1);
    ck_assert_uint_eq(freeing.call, before + 3);
    ck_assert_int_eq(registry_unfree(&freeing), 0);
    ck_assert_uint_eq(calls_last_number(), before + 3);
    zeil_alloc_t a = expect(0x9100000 + 99, 1, 0x9100000, 100);
    ck_assert_uint_eq(a.created_call, created);
    ck_assert_uint_eq(a.created_thread, 7);
    ck_assert_ptr_eq(a.device, DEVICE);
    ck_assert_str_eq(a.created_by, "zeMemAllocDevice");
    const alloc_table_t *dead = ALLOC_LOAD(allocs.dead.tables[level_of(100)]);
    ck_assert_int_lt(table_find(dead, 0x9100000 >> level_shift(level_of(100)), 0x9100000, 0), 0);
    ck_assert(lock_is_free());
}
END_TEST

/* The free hook's usual case (usm_hot_paths.h): memory given out again at
 * the same address, freed without a number in its own context, is looked
 * up and buried at once, the number taken with the lock; in another
 * context, or when its level is not the newest one, nothing changes and no
 * number is taken (the free goes the two steps' way). A refusal by the
 * driver then makes it live again from what it noted. */
START_TEST(usual_free_looks_up_and_buries_at_once)
{
    add(0xa100000, 100);
    release(0xa100000);
    add(0xa100000, 100);
    uint64_t created = next_call - 1;
    registry_free_t freeing;
    uint64_t number = 0, before = calls_last_number();
    ck_assert_int_eq(usm_free_usual((void *)0xa100000, (ze_context_handle_t)(uintptr_t)0xc1,
                                    &number, 9, &freeing),
                     0);
    ck_assert_uint_eq(number, 0); /* it went no further than its lookup */
    ck_assert(lock_is_free());
    add(0xa200000, 4); /* the newest level now another (finer) */
    ck_assert_int_eq(usm_free_usual((void *)0xa100000, CONTEXT, &number, 9, &freeing), 0);
    ck_assert_uint_eq(expect(0xa100000 + 99, 1, 0xa100000, 100).created_call, created);
    release(0xa200000);
    add(0xa300000, 100); /* back to the level of 100 bytes */
    number = 0;
    ck_assert_int_eq(usm_free_usual((void *)0xa100000, CONTEXT, &number, 9, &freeing), 1);
    ck_assert_uint_eq(number, before + 1);
    ck_assert(lock_is_free());
    zeil_alloc_t a = expect(0xa100000 + 99, 2, 0xa100000, 100);
    ck_assert_uint_eq(a.created_call, created);
    ck_assert_uint_eq(a.freed_call, number);
    ck_assert_uint_eq(a.freed_thread, 9);
    ck_assert_uint_eq(a.created_thread, 7);
    ck_assert_ptr_eq(a.context, CONTEXT);
    ck_assert_ptr_eq(a.device, DEVICE);
    ck_assert_str_eq(a.created_by, "zeMemAllocDevice");
    ck_assert_int_eq(registry_unfree(&freeing), 0);
    a = expect(0xa100000, 1, 0xa100000, 100);
    ck_assert_uint_eq(a.created_call, created);
    ck_assert_ptr_eq(a.device, DEVICE);
    ck_assert(lock_is_free());
}
END_TEST

/* The creating call's name is kept as an index into a table of the names
 * seen: null stays null, and names past the table's room are not named. */
START_TEST(creators)
{
    static char names[300][8];
    for (int i = 0; i < 300; i++) {
        snprintf(names[i], sizeof names[i], "call%d", i);
        zeil_alloc_t a = {.base = (void *)(0x8000000 + (uintptr_t)i * 64),
                          .size = 64,
                          .created_by = i == 7 ? NULL : names[i]};
        ck_assert_int_eq(registry_add_alloc(&a), 0);
    }
    for (int i = 0; i < 300; i++) {
        zeil_alloc_t a =
            expect(0x8000000 + (uintptr_t)i * 64 + 5, 1, 0x8000000 + (uintptr_t)i * 64, 64);
        if (i == 7 || i > (int)ALLOC_CREATORS) /* (name 7 is null: takes no room) */
            ck_assert_ptr_null(a.created_by);
        else
            ck_assert_ptr_eq(a.created_by, names[i]);
    }
}
END_TEST

static int in_context(const zeil_alloc_t *a, const void *context)
{
    return a->context == context;
}

START_TEST(count_with_filter)
{
    add(0xb0000, 100);
    zeil_alloc_t other = {
        .base = (void *)0xc0000, .size = 1000, .context = (ze_context_handle_t)(uintptr_t)0xc1};
    ck_assert_int_eq(registry_add_alloc(&other), 0);
    add(0xd0000 + 0xf0, 0x20); /* two entries, counted once */
    uint64_t bytes = 0;
    ck_assert_uint_eq(registry_count_allocs(in_context, CONTEXT, &bytes), 2);
    ck_assert_uint_eq(bytes, 132);
    ck_assert_uint_eq(registry_count_allocs(NULL, NULL, &bytes), 3);
    ck_assert_uint_eq(bytes, 1132);
}
END_TEST

/* A made-up layout: sizes from 1 byte to 2 MiB, 4 MiB apart. */
static void layout(size_t i, uintptr_t *base, size_t *size)
{
    uint64_t h = (uint64_t)i * 0x9e3779b97f4a7c15ull;
    *size = (size_t)1 << (h >> 59) % 21;
    *size += (h >> 20) % *size;
    *base = 0x100000000000ull + (uintptr_t)i * (4u << 20) + (h >> 40) % 4096 * 16;
}

/* Entries sit on average less than two slots past their home in every
 * table (keys that defeat the hash would make runs, and lookups, long). */
static void expect_short_runs(const alloc_index_t *x)
{
    for (unsigned k = 0; k < ALLOC_LEVELS; k++) {
        const alloc_table_t *t = ALLOC_LOAD(x->tables[k]);
        size_t total = 0;
        for (size_t i = 0; t && i <= t->mask; i++) {
            alloc_entry_t e;
            slot_load(&t->slots[i], &e);
            if (e.span)
                total += (i - home_slot(t, entry_block(&e, level_shift(k)))) & t->mask;
        }
        ck_assert_msg(!t || total <= 2 * t->used, "level %u: %zu entries %zu slots past home", k,
                      t ? t->used : 0, total);
    }
}

START_TEST(a_million)
{
    const size_t n = 1000000 / SCALE;
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        uintptr_t base;
        size_t size;
        layout(i, &base, &size);
        add(base, size);
        total += size;
    }
    uint64_t bytes = 0;
    ck_assert_uint_eq(registry_count_allocs(NULL, NULL, &bytes), n);
    ck_assert_uint_eq(bytes, total);
    expect_short_runs(&allocs.live);
    for (size_t i = 0; i < n; i++) {
        uintptr_t base;
        size_t size;
        layout(i, &base, &size);
        expect_range(base, size, 1);
        expect(base + size, 0, 0, 0);
        expect(base - 1, 0, 0, 0);
    }
    /* Free every other one, newest last: the last ZEIL_TOMBSTONES freed
     * are tombstones, the rest unknown. */
    for (size_t i = 0; i < n; i += 2) {
        uintptr_t base;
        size_t size;
        layout(i, &base, &size);
        release(base);
    }
    for (size_t i = 0; i < n; i++) {
        uintptr_t base;
        size_t size;
        layout(i, &base, &size);
        int expected = i % 2 ? 1 : i >= n - 2 * ZEIL_TOMBSTONES ? 2 : 0;
        expect(base + size / 3, expected, base, size);
    }
    for (size_t i = 1; i < n; i += 2) {
        uintptr_t base;
        size_t size;
        layout(i, &base, &size);
        release(base);
    }
    ck_assert_uint_eq(registry_count_allocs(NULL, NULL, NULL), 0);
    /* Memory given back: every table small again. */
    for (unsigned k = 0; k < ALLOC_LEVELS; k++) {
        alloc_table_t *t = ALLOC_LOAD(allocs.live.tables[k]);
        ck_assert(!t || t->mask + 1 <= MIN_SLOTS);
        t = ALLOC_LOAD(allocs.dead.tables[k]);
        ck_assert(!t || t->mask + 1 <= 16 * ZEIL_TOMBSTONES);
    }
}
END_TEST

/* Churn that keeps tables growing and shrinking does not allocate once
 * they have their size: alloc + free of one allocation, many times. */
START_TEST(steady_state_allocates_nothing)
{
    for (int i = 0; i < 100; i++)
        add(0xe000000 + (uintptr_t)i * 8192, 4096);
    for (unsigned i = 0; i < 2 * ZEIL_TOMBSTONES; i++) {
        add(0xf000000, 4096);
        release(0xf000000);
    }
    atomic_store(&fail_memory, 1);
    for (unsigned i = 0; i < 100000 / SCALE; i++) {
        add(0xf000000 + (uintptr_t)(i % 3) * 8192, 4096);
        release(0xf000000 + (uintptr_t)(i % 3) * 8192);
    }
    atomic_store(&fail_memory, 0);
    expect(0xf000010, 2, 0xf000000, 4096);
}
END_TEST

START_TEST(out_of_memory)
{
    /* A new allocation zeil cannot record: it is unknown, and so is the
     * tombstone of the memory it reuses (it would call it freed). */
    add(0x3000000, 64);
    release(0x3000000);
    add(0x3001000, 64);
    release(0x3001000);
    atomic_store(&fail_memory, 1);
    zeil_alloc_t a = {.base = (void *)0x3000000, .size = 1 << 20}; /* a level with no table */
    ck_assert_int_eq(registry_add_alloc(&a), -1);
    expect(0x3000000, 0, 0, 0);
    expect(0x3001000, 0, 0, 0);
    expect(0x3100000, 0, 0, 0);
    atomic_store(&fail_memory, 0);
    /* Freed, but its tombstone cannot be kept (no table for its level). */
    add(0x5000000, 1 << 20);
    atomic_store(&fail_memory, 1);
    ck_assert_int_eq(registry_free_alloc((void *)0x5000000, 5, 5), 2);
    atomic_store(&fail_memory, 0);
    expect(0x5000000, 0, 0, 0);
    ck_assert_uint_eq(registry_count_allocs(NULL, NULL, NULL), 0);
    add(0x5000000, 1 << 20);
    expect(0x5000000, 1, 0x5000000, 1 << 20);
}
END_TEST

/* ---- readers against a writer ---- */

#define PLACES 8000u
#define CHURN (30000u / SCALE)

typedef struct shared {
    _Atomic int stop;
    _Atomic size_t writing; /* the place the writer is at */
    _Atomic uint64_t lookups, errors;
} shared_t;

/* Two allocations in every 256-byte block (one probe run): place 4j stays,
 * the others come and go, so that removing one shifts its neighbour in the
 * run under the readers. Each place has its own size, context and call:
 * a copy made of two slots, or of a slot half rewritten, gives itself away. */
static uintptr_t place_base(size_t i)
{
    return 0x200000000ull + (uintptr_t)(i / 2) * 256 + (i % 2) * 128;
}

static zeil_alloc_t place_alloc(size_t i)
{
    return (zeil_alloc_t){.base = (void *)place_base(i),
                          .size = 64 + i % 61,
                          .context = (ze_context_handle_t)(uintptr_t)(0x1000 + i),
                          .created_call = i + 1, /* 0 would take a number */
                          .created_thread = (uint32_t)i};
}

static void *reader(void *arg)
{
    shared_t *s = arg;
    uint64_t state = (uint64_t)(uintptr_t)&state, n = 0, errors = 0;
    while (!atomic_load(&s->stop) || n < 10000) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        /* Mostly where the writer is: its place or the other of its block
         * (the same probe run). */
        size_t i = (size_t)(state >> 33) % PLACES;
        if (state >> 62)
            i = atomic_load_explicit(&s->writing, memory_order_relaxed) ^ (state >> 61 & 1);
        zeil_alloc_t want = place_alloc(i), a;
        uintptr_t p = place_base(i) + (state >> 20) % want.size;
        int found = registry_find_alloc((void *)p, &a);
        if (found)
            errors += a.base != want.base || a.size != want.size || a.context != want.context ||
                      a.created_call != want.created_call ||
                      a.created_thread != want.created_thread;
        /* A tombstone is written over at each wave's free (call and thread
         * both the wave's number). */
        errors += (found == 2 && a.freed_call != a.freed_thread) || (!found && i % 4 == 0);
        n++;
    }
    atomic_fetch_add(&s->lookups, n);
    atomic_fetch_add(&s->errors, errors);
    return NULL;
}

START_TEST(readers_and_a_writer)
{
    for (size_t i = 0; i < PLACES; i += 4) {
        zeil_alloc_t a = place_alloc(i);
        ck_assert_int_eq(registry_add_alloc(&a), 0);
    }
    shared_t s = {0};
    pthread_t readers[3];
    for (int r = 0; r < 3; r++)
        ck_assert_int_eq(pthread_create(&readers[r], NULL, reader, &s), 0);
    /* The writer: the other places come and go, in either order, and other
     * allocations of the same level grow the table and shrink it again. */
    for (int wave = 0; wave < 6; wave++) {
        for (size_t n = 0; n < PLACES; n++) {
            size_t i = wave % 2 ? PLACES - 1 - n : n;
            zeil_alloc_t a = place_alloc(i);
            atomic_store_explicit(&s.writing, i, memory_order_relaxed);
            if (i % 4 && registry_add_alloc(&a) != 0)
                ck_abort_msg("add %zu failed", i);
        }
        for (size_t j = 0; j < CHURN && wave % 3 == 0; j++) {
            zeil_alloc_t a = {.base = (void *)(0x900000000ull + j * 512), .size = 100};
            ck_assert_int_eq(registry_add_alloc(&a), 0);
        }
        for (size_t n = 0; n < PLACES; n++) {
            size_t i = wave % 3 ? PLACES - 1 - n : n;
            atomic_store_explicit(&s.writing, i, memory_order_relaxed);
            if (i % 4 && registry_free_alloc((void *)place_base(i), (uint64_t)wave + 1,
                                             (uint32_t)wave + 1) != 1)
                ck_abort_msg("free %zu failed", i);
        }
        for (size_t j = 0; j < CHURN && wave % 3 == 0; j++)
            ck_assert_int_eq(registry_free_alloc((void *)(0x900000000ull + j * 512), 0, 0), 1);
    }
    atomic_store(&s.stop, 1);
    for (int r = 0; r < 3; r++)
        pthread_join(readers[r], NULL);
    ck_assert_uint_ge(atomic_load(&s.lookups), 30000);
    ck_assert_msg(atomic_load(&s.errors) == 0, "%llu wrong lookups of %llu",
                  (unsigned long long)atomic_load(&s.errors),
                  (unsigned long long)atomic_load(&s.lookups));
    ck_assert_uint_eq(registry_count_allocs(NULL, NULL, NULL), PLACES / 4);
}
END_TEST

/* The reader hook: a writer that, right after a lookup has loaded the
 * sequence for the hook_first-th time (from 0), starts changing hook_slot
 * (garbage in it), and finishes (puts it back) at the hook_last-th time. */
static alloc_slot_t *hook_slot;
static int hook_first, hook_last, hook_calls;
static alloc_entry_t hook_saved;

static void hook_begin(void)
{
    write_begin();
    slot_load(hook_slot, &hook_saved);
    ALLOC_STORE(hook_slot->context, (uintptr_t)0xbad);
    ALLOC_STORE(hook_slot->span, (uintptr_t)1000);
    ALLOC_STORE(hook_slot->created_call, (uint64_t)666);
}

static void reader_hook(void)
{
    if (!hook_slot)
        return;
    if (hook_calls == hook_first) {
        hook_begin();
    } else if (hook_calls == hook_last) {
        slot_store(hook_slot, &hook_saved);
        write_end();
    }
    hook_calls++;
}

static alloc_slot_t *slot_of(alloc_index_t *x, uintptr_t base, size_t size)
{
    alloc_table_t *t = ALLOC_LOAD(x->tables[level_of(size)]);
    ptrdiff_t i = table_find(t, base >> level_shift(level_of(size)), base, 0);
    ck_assert_int_ge(i, 0);
    return &t->slots[i];
}

/* A lookup that read a slot while a writer changed it, or that met a writer
 * at work, tries again: for a live allocation (found on the inline path) and
 * a tombstone (the other path, whose first try comes after the inline one
 * found nothing). */
START_TEST(seqlock_retries)
{
    add(0x6100000, 100); /* created_call 1 */
    add(0x6101000, 100);
    release(0x6101000); /* created_call 2, freed 3 */
    static const struct {
        int dead, first, last;
    } cases[] = {{0, 0, 1}, {1, 0, 1}, {1, 1, 2}, {0, 0, 2}, {1, 1, 3}, {0, -1, 1}, {1, -1, 1}};
    for (size_t n = 0; n < sizeof cases / sizeof *cases; n++) {
        int dead = cases[n].dead;
        uintptr_t base = dead ? 0x6101000 : 0x6100000;
        hook_slot = slot_of(dead ? &allocs.dead : &allocs.live, base, 100);
        hook_first = cases[n].first;
        hook_last = cases[n].last;
        hook_calls = 0;
        if (hook_first < 0) /* the writer is at work before the lookup starts */
            hook_begin();
        zeil_alloc_t a = expect(base + 10, 1 + dead, base, 100);
        ck_assert_ptr_eq(a.context, CONTEXT);
        ck_assert_uint_eq(a.created_call, 1u + (unsigned)dead);
        ck_assert_int_gt(hook_calls, hook_last); /* it came back after the change */
        hook_slot = NULL;
    }
}
END_TEST

/* A writer in the middle of a change: a slot holds garbage until the write
 * section ends. A reader never returns it (the sequence is odd, or has moved
 * by the time it is done), whether it finds a live allocation (the inline
 * path) or a tombstone (the other). */
typedef struct half_writes {
    _Atomic int stop;
    _Atomic uint64_t lookups, errors;
} half_writes_t;

#define HALF_LIVE 0x6000000u /* created_call 1 */
#define HALF_DEAD 0x6001000u /* created_call 2, freed_call 3 */

static void *half_write_reader(void *arg)
{
    half_writes_t *h = arg;
    uint64_t n = 0, errors = 0;
    while (!atomic_load_explicit(&h->stop, memory_order_relaxed)) {
        int dead = n % 2;
        uintptr_t base = dead ? HALF_DEAD : HALF_LIVE;
        zeil_alloc_t a;
        int found = registry_find_alloc((void *)(base + 10 + n % 80), &a);
        errors += found != 1 + dead || (uintptr_t)a.base != base || a.size != 100 ||
                  a.context != CONTEXT || a.created_call != 1u + dead ||
                  a.freed_call != (dead ? 3u : 0u);
        n++;
    }
    atomic_fetch_add(&h->lookups, n);
    atomic_fetch_add(&h->errors, errors);
    return NULL;
}

static void spin(int n)
{
    for (volatile int k = 0; k < n; k++)
        ;
}

START_TEST(seqlock_hides_half_writes)
{
    add(HALF_LIVE, 100);
    add(HALF_DEAD, 100);
    release(HALF_DEAD);
    alloc_slot_t *slots[2] = {slot_of(&allocs.live, HALF_LIVE, 100),
                              slot_of(&allocs.dead, HALF_DEAD, 100)};
    half_writes_t h = {0};
    pthread_t readers[2];
    for (int r = 0; r < 2; r++)
        ck_assert_int_eq(pthread_create(&readers[r], NULL, half_write_reader, &h), 0);
    for (unsigned n = 0; n < 100000 / SCALE; n++) {
        alloc_slot_t *slot = slots[n % 2];
        allocs_lock();
        write_begin();
        uintptr_t context = ALLOC_LOAD(slot->context), span = ALLOC_LOAD(slot->span);
        uint64_t created = ALLOC_LOAD(slot->created_call);
        ALLOC_STORE(slot->context, (uintptr_t)0xbad);
        ALLOC_STORE(slot->span, (uintptr_t)1000);
        ALLOC_STORE(slot->created_call, (uint64_t)666);
        spin(300); /* long enough for readers to see it */
        ALLOC_STORE(slot->context, context);
        ALLOC_STORE(slot->span, span);
        ALLOC_STORE(slot->created_call, created);
        write_end();
        allocs_unlock();
        spin(n % 4 < 2 ? 20 : 300); /* and to start lookups just before the next */
    }
    atomic_store(&h.stop, 1);
    for (int r = 0; r < 2; r++)
        pthread_join(readers[r], NULL);
    ck_assert_msg(atomic_load(&h.errors) == 0, "%llu wrong lookups of %llu",
                  (unsigned long long)atomic_load(&h.errors),
                  (unsigned long long)atomic_load(&h.lookups));
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("registry_allocs");
    TCase *tc = tcase_create("index");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, interior_pointers);
    tcase_add_test(tc, adjacent_and_crossing);
    tcase_add_test(tc, huge_allocations);
    tcase_add_test(tc, zero_size);
    tcase_add_test(tc, tombstones_newest_wins);
    tcase_add_test(tc, tombstone_eviction);
    tcase_add_test(tc, missed_free);
    tcase_add_test(tc, missed_frees_while_growing);
    tcase_add_test(tc, free_ends_on_its_allocation_after_moves);
    tcase_add_test(tc, numbers_taken_with_the_lock);
    tcase_add_test(tc, usual_free_looks_up_and_buries_at_once);
    tcase_add_test(tc, count_with_filter);
    tcase_add_test(tc, creators);
    tcase_add_test(tc, a_million);
    tcase_add_test(tc, steady_state_allocates_nothing);
    tcase_add_test(tc, out_of_memory);
    tcase_add_test(tc, seqlock_retries);
    tcase_add_test(tc, readers_and_a_writer);
    tcase_add_test(tc, seqlock_hides_half_writes);
    suite_add_tcase(suite, tc);
    return zt_run_suite(suite);
}
