/*
 * The launch fast path: a thread's cached last launches (launch_cache.h)
 * never let a destroyed kernel or list, or a closed list, through, also when
 * the thread alternates between lists and kernels; plain launches,
 * which take no shared call number, get record keys that are unique,
 * increase along each list and follow every numbered call they come after,
 * also across threads and past a thread's 1023 keys per number; and readers
 * copy records while the list's only writer appends (run under
 * ThreadSanitizer by scripts/test --tsan).
 */
#include "zl.h"
#include "test_kernels.h"

#include <zeil/zeil.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ze_group_count_t one_group = {1, 1, 1};

/* stamp(uint64_t *out), ready to launch. */
static ze_kernel_handle_t stamp_kernel(zl_fixture_t *f, uint64_t *out)
{
    ze_kernel_handle_t k = zt_kernel(f->module, TK_STAMP);
    ZT_ARG(k, 0, out);
    ZT_OK(zeKernelSetGroupSize(k, 1, 1, 1));
    return k;
}

static ze_result_t launch(ze_command_list_handle_t list, ze_kernel_handle_t kernel)
{
    return zeCommandListAppendLaunchKernel(list, kernel, &one_group, NULL, 0, NULL);
}

/* A regular list with launches of one kernel: from the second on, they find
 * the thread's launch cache. */
typedef struct launches {
    zl_fixture_t f;
    uint64_t *out;
    ze_command_list_handle_t list;
    ze_kernel_handle_t kernel;
} launches_t;

static void launches_open(launches_t *c, int launches)
{
    zl_open(&c->f);
    c->out = zt_usm_alloc(&c->f.env, ZT_USM_HOST, sizeof *c->out, 0);
    c->list = zt_regular_list(&c->f.env);
    c->kernel = stamp_kernel(&c->f, c->out);
    for (int i = 0; i < launches; i++)
        ZT_OK(launch(c->list, c->kernel));
}

/* Destroys what the test left alive (it sets what it destroyed to null). */
static void launches_close(launches_t *c)
{
    if (c->list)
        ZT_OK(zeCommandListDestroy(c->list));
    if (c->kernel)
        ZT_OK(zeKernelDestroy(c->kernel));
    ZT_OK(zeMemFree(c->f.env.context, c->out));
    zl_close(&c->f);
}

START_TEST(test_destroyed_kernel_refused_after_cached_launches)
{
    launches_t c;
    launches_open(&c, 3);
    ZT_OK(zeKernelDestroy(c.kernel));
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, launch(c.list, c.kernel));
    zl_assert_one_finding(mark, "ZEIL-E002", "zeCommandListAppendLaunchKernel", "was destroyed",
                          NULL);
    ck_assert_uint_eq(zeil_submission_count(c.list), 3);
    c.kernel = NULL;
    launches_close(&c);
}
END_TEST

START_TEST(test_destroyed_list_refused_after_cached_launches)
{
    launches_t c;
    launches_open(&c, 3);
    ZT_OK(zeCommandListDestroy(c.list));
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, launch(c.list, c.kernel));
    zl_assert_one_finding(mark, "ZEIL-E002", "zeCommandListAppendLaunchKernel", "was destroyed",
                          NULL);
    c.list = NULL;
    launches_close(&c);
}
END_TEST

START_TEST(test_closed_list_refused_after_cached_launches)
{
    launches_t c;
    launches_open(&c, 3);
    ZT_OK(zeCommandListClose(c.list));
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, launch(c.list, c.kernel));
    zl_assert_one_finding(mark, "ZEIL-E020", "zeCommandListAppendLaunchKernel", "is closed", NULL);
    /* Reset opens it again, and the fast path with it. */
    ZT_OK(zeCommandListReset(c.list));
    ZT_OK(launch(c.list, c.kernel));
    ZT_OK(launch(c.list, c.kernel));
    ck_assert_uint_eq(zeil_submission_count(c.list), 5);
    launches_close(&c);
}
END_TEST

/* ---- one thread alternating between lists and kernels ------------------- */

#define ALTERNATING_LISTS 3

/* Each list's records: all launches of its kernel, in increasing order. */
typedef struct list_check {
    const char *kernel;
    uint64_t last_seq;
    size_t records, bad;
} list_check_t;

static int check_list_record(const zeil_record_t *r, void *user)
{
    list_check_t *c = user;
    c->records++;
    if (r->kind != ZEIL_RECORD_LAUNCH || !r->kernel || strcmp(r->kernel, c->kernel) != 0 ||
        r->seq <= c->last_seq || r->group_count[0] != 1 || r->group_size[0] != 1)
        c->bad++;
    c->last_seq = r->seq;
    return 0;
}

START_TEST(test_alternating_lists_keep_their_checks_and_records)
{
    zl_fixture_t f;
    zl_open(&f);
    uint64_t *out = zt_usm_alloc(&f.env, ZT_USM_HOST, ALTERNATING_LISTS * sizeof *out, 0);
    ze_command_list_handle_t lists[ALTERNATING_LISTS];
    ze_kernel_handle_t kernels[ALTERNATING_LISTS];
    for (int i = 0; i < ALTERNATING_LISTS; i++) {
        lists[i] = zt_regular_list(&f.env);
        kernels[i] = stamp_kernel(&f, &out[i]);
    }
    /* Round after round over every list, each with its own kernel, and the
     * first list with every kernel too: more pairs than the cache holds. */
    for (int round = 0; round < 50; round++)
        for (int i = 0; i < ALTERNATING_LISTS; i++)
            ZT_OK(launch(lists[i], kernels[i]));
    for (int round = 0; round < 10; round++)
        for (int i = 0; i < ALTERNATING_LISTS; i++)
            ZT_OK(launch(lists[0], kernels[i]));
    ck_assert_uint_eq(zeil_submission_count(lists[0]), 50 + 10 * ALTERNATING_LISTS);
    for (int i = 1; i < ALTERNATING_LISTS; i++) {
        ck_assert_uint_eq(zeil_submission_count(lists[i]), 50);
        list_check_t c = {TK_STAMP, 0, 0, 0};
        ck_assert_uint_eq(zeil_records_of_list(lists[i], check_list_record, &c), 50);
        ck_assert_uint_eq(c.bad, 0);
    }
    /* A closed list among the cached ones is refused; the others go on. */
    ZT_OK(zeCommandListClose(lists[1]));
    size_t mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, launch(lists[1], kernels[1]));
    zl_assert_one_finding(mark, "ZEIL-E020", "zeCommandListAppendLaunchKernel", "is closed", NULL);
    ZT_OK(launch(lists[2], kernels[2]));
    ZT_OK(launch(lists[0], kernels[0]));
    /* So are a destroyed kernel and a destroyed list, cached in this thread
     * beside live ones. */
    ZT_OK(zeKernelDestroy(kernels[2]));
    mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, launch(lists[2], kernels[2]));
    zl_assert_one_finding(mark, "ZEIL-E002", "zeCommandListAppendLaunchKernel", "was destroyed",
                          NULL);
    ZT_OK(zeCommandListDestroy(lists[0]));
    mark = zl_log_mark();
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, launch(lists[0], kernels[0]));
    zl_assert_one_finding(mark, "ZEIL-E002", "zeCommandListAppendLaunchKernel", "was destroyed",
                          NULL);
    ZT_OK(launch(lists[2], kernels[0]));
    ZT_OK(launch(lists[2], kernels[1]));
    ck_assert_uint_eq(zeil_submission_count(lists[2]), 53);
    ZT_OK(zeCommandListDestroy(lists[1]));
    ZT_OK(zeCommandListDestroy(lists[2]));
    ZT_OK(zeKernelDestroy(kernels[0]));
    ZT_OK(zeKernelDestroy(kernels[1]));
    ZT_OK(zeMemFree(f.env.context, out));
    zl_close(&f);
}
END_TEST

/* ---- what a cached launch's record says --------------------------------- */

/* What the i-th record of the list must say. */
typedef struct expected_record {
    const char *call;
    uint64_t stream_id;
    const char *primitive, *impl, *memory_args;
    uint32_t group_size_x, group_count_y;
} expected_record_t;

typedef struct record_walk {
    const expected_record_t *expected;
    size_t n, seen;
    char failure[256];
} record_walk_t;

static int same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static int check_expected(const zeil_record_t *r, void *user)
{
    record_walk_t *w = user;
    size_t i = w->seen++;
    if (i >= w->n || w->failure[0])
        return 0;
    const expected_record_t *e = &w->expected[i];
    if (r->kind != ZEIL_RECORD_LAUNCH || !same_text(r->call, e->call) ||
        !same_text(r->kernel, TK_STAMP) || r->stream_id != e->stream_id ||
        !same_text(r->primitive, e->primitive) || !same_text(r->impl, e->impl) ||
        !same_text(r->memory_args, e->memory_args) || r->group_size[0] != e->group_size_x ||
        r->group_size[1] != 1 || r->group_count[0] != 1 || r->group_count[1] != e->group_count_y ||
        r->group_count[2] != 1 || r->thread == 0 || r->host_ns == 0)
        snprintf(w->failure, sizeof w->failure,
                 "record %zu: %s stream %llu %s/%s/%s size %u counts %u,%u", i,
                 r->call ? r->call : "-", (unsigned long long)r->stream_id,
                 r->primitive ? r->primitive : "-", r->impl ? r->impl : "-",
                 r->memory_args ? r->memory_args : "-", r->group_size[0], r->group_count[0],
                 r->group_count[1]);
    return 0;
}

typedef struct launches_counted {
    ze_command_list_handle_t list;
    uint64_t launches;
} launches_counted_t;

static int count_launches(const zeil_kernel_stats_t *s, void *user)
{
    launches_counted_t *c = user;
    if (s->list == c->list)
        c->launches += s->launches;
    return 0;
}

#define LAUNCH "zeCommandListAppendLaunchKernel"

/* Cached launches between the changes their records must follow: the
 * kernel's group size, the attribution (pushed, popped, pushed again with
 * other labels at the same depth), the list's stream, the call, the group
 * count. Every record says what the launch was, and every launch counts. */
START_TEST(test_cached_launch_records_follow_every_change)
{
    launches_t c;
    launches_open(&c, 0);
    static const ze_group_count_t two_rows = {1, 2, 1};
    static const expected_record_t expected[] = {
        {LAUNCH, 0, NULL, NULL, NULL, 1, 1},
        {LAUNCH, 0, NULL, NULL, NULL, 1, 1},
        {LAUNCH, 0, NULL, NULL, NULL, 1, 2}, /* another group count */
        {LAUNCH, 0, NULL, NULL, NULL, 4, 1}, /* zeKernelSetGroupSize(4) */
        {LAUNCH, 0, NULL, NULL, NULL, 4, 1},
        {LAUNCH, 0, NULL, NULL, NULL, 4, 1},                      /* the same size set again */
        {LAUNCH, 7, "convolution", "jit:a", "src f32 1x1", 4, 1}, /* pushed */
        {LAUNCH, 7, "convolution", "jit:a", "src f32 1x1", 4, 1},
        {LAUNCH, 0, NULL, NULL, NULL, 4, 1},                      /* popped */
        {LAUNCH, 7, "convolution", "jit:b", "src f32 1x1", 4, 1}, /* other impl */
        {LAUNCH, 7, "convolution", "jit:b", "src f32 1x1", 4, 1},
        {LAUNCH, 7, "convolution", "jit:a", "src f32 1x1", 4, 1}, /* the first again */
        {LAUNCH, 0, NULL, NULL, NULL, 4, 1},
        {LAUNCH, 9, NULL, NULL, NULL, 4, 1}, /* the list bound to stream 9 */
        {LAUNCH, 9, NULL, NULL, NULL, 4, 1},
        {"zeCommandListAppendLaunchCooperativeKernel", 9, NULL, NULL, NULL, 4, 1},
        {LAUNCH, 9, NULL, NULL, NULL, 4, 1},
        {LAUNCH, 7, "relu", NULL, NULL, 4, 1}, /* the attribution's stream first */
        {LAUNCH, 9, NULL, NULL, NULL, 1, 1},   /* size back to 1 */
    };
    const zeil_attribution_t conv_a = {7, "convolution", "jit:a", "src f32 1x1"};
    char impl_b[16];
    snprintf(impl_b, sizeof impl_b, "jit:%c", 'b'); /* not a literal: copied */
    const zeil_attribution_t conv_b = {7, "convolution", impl_b, "src f32 1x1"};
    const zeil_attribution_t relu = {7, "relu", NULL, NULL};
    ZT_OK(launch(c.list, c.kernel));
    ZT_OK(launch(c.list, c.kernel));
    ZT_OK(zeCommandListAppendLaunchKernel(c.list, c.kernel, &two_rows, NULL, 0, NULL));
    ZT_OK(zeKernelSetGroupSize(c.kernel, 4, 1, 1));
    ZT_OK(launch(c.list, c.kernel));
    ZT_OK(launch(c.list, c.kernel));
    ZT_OK(zeKernelSetGroupSize(c.kernel, 4, 1, 1));
    ZT_OK(launch(c.list, c.kernel));
    zeil_attribution_push(&conv_a);
    ZT_OK(launch(c.list, c.kernel));
    ZT_OK(launch(c.list, c.kernel));
    zeil_attribution_pop();
    ZT_OK(launch(c.list, c.kernel));
    zeil_attribution_push(&conv_b);
    ZT_OK(launch(c.list, c.kernel));
    ZT_OK(launch(c.list, c.kernel));
    zeil_attribution_pop();
    zeil_attribution_push(&conv_a);
    ZT_OK(launch(c.list, c.kernel));
    zeil_attribution_pop();
    ZT_OK(launch(c.list, c.kernel));
    ck_assert_int_eq(zeil_bind_list_to_stream(c.list, 9, "nine"), 0);
    ZT_OK(launch(c.list, c.kernel));
    ZT_OK(launch(c.list, c.kernel));
    ZT_OK(zeCommandListAppendLaunchCooperativeKernel(c.list, c.kernel, &one_group, NULL, 0, NULL));
    ZT_OK(launch(c.list, c.kernel));
    zeil_attribution_push(&relu);
    ZT_OK(launch(c.list, c.kernel));
    zeil_attribution_pop();
    ZT_OK(zeKernelSetGroupSize(c.kernel, 1, 1, 1));
    ZT_OK(launch(c.list, c.kernel));
    size_t n = sizeof expected / sizeof *expected;
    record_walk_t walk = {expected, n, 0, ""};
    ck_assert_uint_eq(zeil_records_of_list(c.list, check_expected, &walk), n);
    ck_assert_msg(!walk.failure[0], "%s", walk.failure);
    ck_assert_uint_eq(zeil_submission_count(c.list), n);
    launches_counted_t counted = {c.list, 0};
    zeil_foreach_kernel_stats(count_launches, &counted);
    ck_assert_uint_eq(counted.launches, n);
    ck_assert_int_eq(zeil_unbind_stream(9), 0);
    launches_close(&c);
}
END_TEST

/* ---- keys of plain launches from two threads ---------------------------- */

#define KEY_LAUNCHES 2500 /* past two rollovers of a thread's 1023 keys */

typedef struct appender {
    ze_command_list_handle_t list;
    ze_kernel_handle_t kernel;
    pthread_barrier_t *start;
    ze_result_t failed;
} appender_t;

static void *append_many(void *arg)
{
    appender_t *a = arg;
    pthread_barrier_wait(a->start);
    for (int i = 0; i < KEY_LAUNCHES; i++)
        a->failed |= launch(a->list, a->kernel);
    return NULL;
}

typedef struct seqs {
    uint64_t *v;
    size_t n;
} seqs_t;

static int collect_seq(const zeil_record_t *r, void *user)
{
    seqs_t *s = user;
    s->v[s->n++] = r->seq;
    return 0;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

START_TEST(test_plain_launch_keys_unique_and_ordered)
{
    zl_fixture_t f;
    zl_open(&f);
    uint64_t *out = zt_usm_alloc(&f.env, ZT_USM_HOST, 2 * sizeof *out, 0);
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, 2);
    appender_t a[2];
    for (int t = 0; t < 2; t++)
        a[t] = (appender_t){zt_regular_list(&f.env), stamp_kernel(&f, &out[t]), &start,
                            ZE_RESULT_SUCCESS};
    uint64_t before = zeil_call_number();
    pthread_t threads[2];
    for (int t = 0; t < 2; t++)
        ck_assert_int_eq(pthread_create(&threads[t], NULL, append_many, &a[t]), 0);
    for (int t = 0; t < 2; t++)
        pthread_join(threads[t], NULL);
    ZT_OK(a[0].failed | a[1].failed);
    /* A number now and then (k runs out), never one per launch. */
    ck_assert_uint_le(zeil_call_number() - before, 2 * (KEY_LAUNCHES / 1023 + 2));
    /* A numbered append after both threads: keyed after every plain one. */
    ZT_OK(zeCommandListAppendBarrier(a[0].list, NULL, 0, NULL));
    seqs_t all = {calloc(2 * KEY_LAUNCHES + 1, sizeof(uint64_t)), 0};
    ck_assert_ptr_nonnull(all.v);
    for (int t = 0; t < 2; t++) {
        size_t first = all.n;
        ck_assert_uint_eq(zeil_records_of_list(a[t].list, collect_seq, &all),
                          KEY_LAUNCHES + (t == 0));
        for (size_t i = first + 1; i < all.n; i++)
            ck_assert_uint_gt(all.v[i], all.v[i - 1]);
        for (size_t i = first; i < all.n; i++)
            ck_assert_uint_gt(all.v[i] >> ZEIL_RECORD_SEQ_SHIFT, 0);
    }
    uint64_t barrier = all.v[KEY_LAUNCHES];
    ck_assert_uint_eq(barrier & ((1u << ZEIL_RECORD_SEQ_SHIFT) - 1), 0); /* numbered */
    for (size_t i = 0; i < all.n; i++)
        if (i != KEY_LAUNCHES)
            ck_assert_uint_lt(all.v[i], barrier);
    qsort(all.v, all.n, sizeof *all.v, compare_u64);
    for (size_t i = 1; i < all.n; i++)
        ck_assert_uint_ne(all.v[i], all.v[i - 1]);
    free(all.v);
    for (int t = 0; t < 2; t++) {
        ZT_OK(zeCommandListDestroy(a[t].list));
        ZT_OK(zeKernelDestroy(a[t].kernel));
    }
    pthread_barrier_destroy(&start);
    ZT_OK(zeMemFree(f.env.context, out));
    zl_close(&f);
}
END_TEST

/* ---- a reader beside the writer ----------------------------------------- */

typedef struct reader {
    ze_command_list_handle_t list;
    _Atomic int stop;
    size_t visits, bad;
} reader_t;

static int check_record(const zeil_record_t *r, void *user)
{
    uint64_t *last = user;
    /* A copy is whole or not given: a torn one would show here. */
    if (r->kind != ZEIL_RECORD_LAUNCH || !r->kernel || strcmp(r->kernel, TK_STAMP) != 0 ||
        r->group_count[0] != 1 || r->group_size[0] != 1 || r->seq <= *last)
        *last = UINT64_MAX;
    else
        *last = r->seq;
    return 0;
}

static void *read_while_appending(void *arg)
{
    reader_t *r = arg;
    while (!atomic_load(&r->stop)) {
        uint64_t last = 0;
        zeil_records_of_list(r->list, check_record, &last);
        r->visits++;
        r->bad += last == UINT64_MAX;
    }
    return NULL;
}

START_TEST(test_readers_copy_while_the_writer_appends)
{
    launches_t c;
    launches_open(&c, 1); /* the ring exists before the reader starts */
    reader_t reader = {c.list, 0, 0, 0};
    pthread_t thread;
    ck_assert_int_eq(pthread_create(&thread, NULL, read_while_appending, &reader), 0);
    for (int batch = 0; batch < 20; batch++) {
        for (int i = 0; i < 1000; i++)
            ZT_OK(launch(c.list, c.kernel));
        ZT_OK(zeCommandListReset(c.list));
    }
    atomic_store(&reader.stop, 1);
    pthread_join(thread, NULL);
    ck_assert_uint_gt(reader.visits, 0);
    ck_assert_uint_eq(reader.bad, 0);
    ck_assert_uint_eq(zeil_submission_count(c.list), 20001);
    launches_close(&c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("layer_launch_path");
    TCase *tc = tcase_create("launch_path");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_destroyed_kernel_refused_after_cached_launches);
    tcase_add_test(tc, test_destroyed_list_refused_after_cached_launches);
    tcase_add_test(tc, test_closed_list_refused_after_cached_launches);
    tcase_add_test(tc, test_alternating_lists_keep_their_checks_and_records);
    tcase_add_test(tc, test_cached_launch_records_follow_every_change);
    tcase_add_test(tc, test_plain_launch_keys_unique_and_ordered);
    tcase_add_test(tc, test_readers_copy_while_the_writer_appends);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
