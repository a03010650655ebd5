/*
 * The registry under immediate reuse (layer/registry/registry_objects.c,
 * registry_allocs.c and registry_alloc_frees.c on their own): a destroy works
 * on the exact entry it found before the driver's call, and a creation that
 * receives the handle in between ends with the new entry live and the old
 * one a tombstone; a free buries its allocation before the driver's call,
 * so a new allocation of the address finds it a tombstone already. The three files are compiled into the suite (no
 * driver, no loader); made-up handle and address values; a "driver"
 * of a few handle values, reused last-freed-first, for the threaded case.
 */
#include "registry.h"

#include "zt.h"

#include <check.h>
#include <pthread.h>

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define ROUNDS 20000u
#else
#define ROUNDS 200000u
#endif

static void add_alloc(uintptr_t base, size_t size, uint64_t call)
{
    zeil_alloc_t a = {.base = (void *)base,
                      .size = size,
                      .type = ZE_MEMORY_TYPE_HOST,
                      .created_by = "zeMemAllocHost",
                      .created_call = call};
    ck_assert_int_eq(registry_add_alloc(&a), 0);
}

static zeil_alloc_t find_alloc(uintptr_t p, int expected)
{
    zeil_alloc_t a = {0};
    ck_assert_int_eq(registry_find_alloc((void *)p, &a), expected);
    return a;
}

/* A free buries its allocation before the driver frees it: when the driver
 * gives the address to another thread at once, zeil already has the old
 * allocation as a tombstone, and the new one is live. */
START_TEST(free_buries_before_the_driver)
{
    add_alloc(0x10000, 256, 1);
    registry_free_t freeing;
    ck_assert_int_eq(registry_begin_free((void *)0x10000, 2, 5, &freeing), 1);
    /* Looked up, not changed: still live until the free's checks passed. */
    ck_assert(find_alloc(0x10000, 1).created_call == 1);
    ck_assert_int_eq(registry_end_free(&freeing), 1);
    /* Freed while the driver frees it: other threads see a tombstone. */
    zeil_alloc_t a = find_alloc(0x10000, 2);
    ck_assert_uint_eq(a.created_call, 1);
    ck_assert_uint_eq(a.freed_call, 2);
    ck_assert_uint_eq(a.freed_thread, 5);
    /* The driver freed it and another thread got the address at once. */
    add_alloc(0x10000, 128, 3);
    a = find_alloc(0x10000, 1);
    ck_assert_uint_eq(a.created_call, 3);
    ck_assert_uint_eq(a.size, 128);
    /* The old one is a tombstone of the right free, beyond the new one. */
    a = find_alloc(0x10000 + 200, 2);
    ck_assert_uint_eq(a.created_call, 1);
    ck_assert_uint_eq(a.freed_call, 2);
    /* The new one frees normally. */
    ck_assert_int_eq(registry_free_alloc((void *)0x10000, 4, 5), 1);
    ck_assert_uint_eq(find_alloc(0x10000, 2).created_call, 3);
}
END_TEST

START_TEST(allocation_inside_a_buried_range)
{
    add_alloc(0x20000, 4096, 1);
    registry_free_t freeing;
    ck_assert_int_eq(registry_begin_free((void *)0x20000, 2, 5, &freeing), 1);
    ck_assert_int_eq(registry_end_free(&freeing), 1);
    add_alloc(0x20040, 64, 3); /* a driver that splits freed memory */
    zeil_alloc_t a = find_alloc(0x20040, 1);
    ck_assert_uint_eq((uintptr_t)a.base, 0x20040);
    ck_assert_uint_eq(find_alloc(0x20000, 2).freed_call, 2);
    ck_assert_uint_eq(registry_count_allocs(NULL, NULL, NULL), 1);
}
END_TEST

/* The driver refused the free: the allocation is live again, as it was, and
 * frees later as any other. */
START_TEST(free_refused_by_the_driver_is_live_again)
{
    add_alloc(0x30000, 64, 1);
    registry_free_t freeing;
    ck_assert_int_eq(registry_begin_free((void *)0x30000, 2, 5, &freeing), 1);
    ck_assert_int_eq(registry_end_free(&freeing), 1);
    ck_assert_uint_eq(find_alloc(0x30000, 2).freed_call, 2);
    ck_assert_int_eq(registry_unfree(&freeing), 0);
    zeil_alloc_t a = find_alloc(0x30000 + 63, 1);
    ck_assert_uint_eq(a.created_call, 1);
    ck_assert_uint_eq(a.size, 64);
    ck_assert_int_eq(a.type, ZE_MEMORY_TYPE_HOST);
    ck_assert_str_eq(a.created_by, "zeMemAllocHost");
    ck_assert_uint_eq(registry_count_allocs(NULL, NULL, NULL), 1);
    ck_assert_int_eq(registry_free_alloc((void *)0x30000, 3, 5), 1);
    ck_assert_uint_eq(find_alloc(0x30000, 2).freed_call, 3);
    ck_assert_int_eq(registry_begin_free((void *)0x30000, 4, 5, &freeing), 0);
}
END_TEST

/* Its tombstone gone before the driver's refusal came back (a newer
 * overlapping one dropped it): live again from what the free held, its
 * range, context and creating call. */
START_TEST(refused_free_whose_tombstone_is_gone)
{
    zeil_alloc_t proto = {.base = (void *)0x38000,
                          .size = 100,
                          .type = ZE_MEMORY_TYPE_DEVICE,
                          .context = (ze_context_handle_t)(uintptr_t)0xc0,
                          .created_by = "zeMemAllocDevice",
                          .created_call = 1};
    ck_assert_int_eq(registry_add_alloc(&proto), 0);
    registry_free_t freeing;
    ck_assert_int_eq(registry_begin_free((void *)0x38000, 2, 5, &freeing), 1);
    ck_assert_int_eq(registry_end_free(&freeing), 1);
    add_alloc(0x38010, 80, 3); /* another that overlaps, freed at once */
    ck_assert_int_eq(registry_free_alloc((void *)0x38010, 4, 5), 1);
    ck_assert_uint_eq(find_alloc(0x38010, 2).created_call, 3);
    find_alloc(0x38000, 0); /* the older tombstone left */
    ck_assert_int_eq(registry_unfree(&freeing), 0);
    zeil_alloc_t a = find_alloc(0x38000 + 99, 1);
    ck_assert_uint_eq(a.created_call, 1);
    ck_assert_uint_eq(a.size, 100);
    ck_assert_ptr_eq(a.context, proto.context);
    ck_assert_int_eq(a.type, ZE_MEMORY_TYPE_UNKNOWN);
    ck_assert_ptr_null(a.created_by);
    ck_assert_int_eq(registry_free_alloc((void *)0x38000, 5, 5), 1);
}
END_TEST

/* Two frees of one pointer at once (the program's bug): both find it live,
 * the first to bury it wins, and the other finds it gone (0: the hook then
 * checks it, and calls it a double free). */
START_TEST(racing_double_free)
{
    for (int second_first = 0; second_first < 2; second_first++) {
        uintptr_t base = 0x40000 + 0x1000 * (uintptr_t)second_first;
        add_alloc(base, 64, 1);
        registry_free_t a, b;
        ck_assert_int_eq(registry_begin_free((void *)base, 2, 5, &a), 1);
        ck_assert_int_eq(registry_begin_free((void *)base, 3, 6, &b), 1);
        ck_assert_int_eq(registry_end_free(second_first ? &b : &a), 1);
        ck_assert_int_eq(registry_end_free(second_first ? &a : &b), 0);
        zeil_alloc_t dead = find_alloc(base, 2);
        ck_assert_uint_eq(dead.freed_call, second_first ? 3 : 2);
        ck_assert_uint_eq(dead.freed_thread, second_first ? 6 : 5);
    }
}
END_TEST

static zeil_obj_t *insert(uintptr_t handle, uint64_t call)
{
    zeil_obj_t *obj = registry_insert(
        &(zeil_obj_t){.handle = (void *)handle, .kind = ZEIL_KIND_EVENT, .created_call = call});
    ck_assert_ptr_nonnull(obj);
    return obj;
}

START_TEST(destroy_racing_a_creation_of_the_same_handle)
{
    zeil_obj_t *x = insert(0x1000, 1);
    registry_destroying(x, 2, 7);
    /* The driver destroyed it and another thread's creation got the value. */
    zeil_obj_t *y = insert(0x1000, 3);
    ck_assert_ptr_eq(registry_find((void *)0x1000), y);
    ck_assert_int_eq(atomic_load(&y->alive), 1);
    /* The creation retired x in its destroyer's name... */
    ck_assert_int_eq(atomic_load(&x->alive), 0);
    ck_assert_uint_eq(x->destroyed_call, 2);
    ck_assert_uint_eq(x->destroyed_thread, 7);
    /* ...and the destroyer's own retirement changes nothing. */
    registry_retire(x, 2, 7);
    ck_assert_int_eq(atomic_load(&y->alive), 1);
    ck_assert_ptr_eq(registry_find((void *)0x1000), y);
    registry_retire(y, 4, 7);
    ck_assert_ptr_eq(registry_find((void *)0x1000), y);
    ck_assert_int_eq(atomic_load(&y->alive), 0);
}
END_TEST

START_TEST(missed_destruction_becomes_a_tombstone)
{
    zeil_obj_t *x = insert(0x2000, 1);
    zeil_obj_t *y = insert(0x2000, 5);
    ck_assert_int_eq(atomic_load(&x->alive), 0);
    ck_assert_uint_eq(x->destroyed_call, 0); /* unknown */
    ck_assert_ptr_eq(registry_find((void *)0x2000), y);
}
END_TEST

/* A driver of HANDLES handle values, reused last-freed-first. */
#define HANDLES 64u
#define THREADS 8
static pthread_mutex_t driver_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t driver_free[HANDLES];
static uint32_t driver_free_count;
static _Atomic uint64_t call_numbers;

static uintptr_t driver_create(void)
{
    pthread_mutex_lock(&driver_lock);
    uintptr_t h = driver_free_count ? driver_free[--driver_free_count] : 0;
    pthread_mutex_unlock(&driver_lock);
    return h;
}

static void driver_destroy(uintptr_t h)
{
    pthread_mutex_lock(&driver_lock);
    driver_free[driver_free_count++] = h;
    pthread_mutex_unlock(&driver_lock);
}

static void *churn(void *arg)
{
    (void)arg;
    for (uint32_t i = 0; i < ROUNDS / THREADS; i++) {
        uintptr_t h = driver_create();
        if (!h)
            continue;
        zeil_obj_t *obj = registry_insert(&(zeil_obj_t){
            .handle = (void *)h, .kind = ZEIL_KIND_EVENT, .created_call = ++call_numbers});
        /* What a call on the new handle sees: the object just made. */
        zeil_obj_t *found = registry_find((void *)h);
        if (found != obj || !atomic_load(&found->alive))
            ck_abort_msg("handle %#lx: found %p (alive %d), inserted %p", (unsigned long)h,
                         (void *)found, found ? atomic_load(&found->alive) : -1, (void *)obj);
        uint64_t call = ++call_numbers;
        registry_destroying(obj, call, 1);
        driver_destroy(h);
        registry_retire(obj, call, 1);
    }
    return NULL;
}

static void count_live(zeil_obj_t *obj, void *user)
{
    (void)obj;
    ++*(int *)user;
}

START_TEST(threads_reusing_handles_at_once)
{
    for (uint32_t i = 0; i < HANDLES; i++)
        driver_free[driver_free_count++] = 0x100000 + 64 * i;
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++)
        ck_assert_int_eq(pthread_create(&threads[i], NULL, churn, NULL), 0);
    for (int i = 0; i < THREADS; i++)
        ck_assert_int_eq(pthread_join(threads[i], NULL), 0);
    int live = 0;
    registry_foreach_live(count_live, &live);
    ck_assert_int_eq(live, 0);
}
END_TEST

/* USM allocations the same way: each thread allocates an address the
 * "driver" hands out (freed ones first), checks it finds its own allocation
 * live, and frees it in two steps before the driver's free (the lookup, the
 * burial), so that other threads allocate the same address as soon as the
 * "driver" has it back. */
static void *churn_usm(void *arg)
{
    uint32_t thread = (uint32_t)(uintptr_t)arg;
    for (uint32_t i = 0; i < ROUNDS / THREADS; i++) {
        uintptr_t base = driver_create();
        if (!base)
            continue;
        uint64_t call = ++call_numbers;
        add_alloc(base, 48, call);
        zeil_alloc_t a = {0};
        if (registry_find_alloc((void *)(base + 47), &a) != 1 || a.created_call != call)
            ck_abort_msg("%#lx: found allocation of call %llu (alive %d), made at call %llu",
                         (unsigned long)base, (unsigned long long)a.created_call, a.alive,
                         (unsigned long long)call);
        registry_free_t freeing;
        if (registry_begin_free((void *)base, ++call_numbers, thread, &freeing) != 1)
            ck_abort_msg("%#lx: its free found no live allocation", (unsigned long)base);
        if (registry_end_free(&freeing) != 1)
            ck_abort_msg("%#lx: its free did not bury it", (unsigned long)base);
        driver_destroy(base);
    }
    return NULL;
}

START_TEST(threads_reusing_addresses_at_once)
{
    for (uint32_t i = 0; i < HANDLES; i++)
        driver_free[driver_free_count++] = 0x10000000 + 64 * i;
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++)
        ck_assert_int_eq(pthread_create(&threads[i], NULL, churn_usm, (void *)(uintptr_t)(i + 1)),
                         0);
    for (int i = 0; i < THREADS; i++)
        ck_assert_int_eq(pthread_join(threads[i], NULL), 0);
    ck_assert_uint_eq(registry_count_allocs(NULL, NULL, NULL), 0);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("layer_registry_reuse");
    TCase *tc = tcase_create("reuse");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, free_buries_before_the_driver);
    tcase_add_test(tc, allocation_inside_a_buried_range);
    tcase_add_test(tc, free_refused_by_the_driver_is_live_again);
    tcase_add_test(tc, refused_free_whose_tombstone_is_gone);
    tcase_add_test(tc, racing_double_free);
    tcase_add_test(tc, destroy_racing_a_creation_of_the_same_handle);
    tcase_add_test(tc, missed_destruction_becomes_a_tombstone);
    tcase_add_test(tc, threads_reusing_handles_at_once);
    tcase_add_test(tc, threads_reusing_addresses_at_once);
    suite_add_tcase(suite, tc);
    return zt_run_suite(suite);
}
