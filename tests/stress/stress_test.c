/*
 * The stress suite: eight workers (each with an immediate list, a regular
 * list and a queue, on one shared context), a registry thread and a oneDNN
 * thread run at once; afterwards zeil's records and registry must hold
 * exactly what the threads did, zeil must have reported nothing, and nothing
 * may deadlock (a watchdog aborts the run).
 */
#include "stress.h"

#include <zeil/zeil.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_OPS 50000u
#define WATCHDOG_SECONDS 240u

uint64_t stress_ops(void)
{
    const char *value = getenv("ZEIL_STRESS_OPS");
    char *end = NULL;
    unsigned long long n = value ? strtoull(value, &end, 10) : 0;
    if (!value || *end || n < 2 * STRESS_BATCH)
        n = DEFAULT_OPS;
    return n & ~1ull; /* even: the lists get half each */
}

static void watchdog_fired(int signo)
{
    (void)signo;
    static const char message[] = "stress_test: watchdog: still running after the time limit "
                                  "(deadlock?); aborting\n";
    ssize_t ignored = write(STDERR_FILENO, message, sizeof message - 1);
    (void)ignored;
    abort();
}

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

static void start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
    ck_assert_int_eq(pthread_create(thread, NULL, fn, arg), 0);
}

static void check_live_delta(const zeil_live_counts_t *before, const zeil_live_counts_t *now,
                             zeil_kind_t kind, uint64_t expected_more)
{
    ck_assert_msg(now->handles[kind] == before->handles[kind] + expected_more,
                  "live %s: %llu, expected %llu", zeil_kind_name(kind),
                  (unsigned long long)now->handles[kind],
                  (unsigned long long)(before->handles[kind] + expected_more));
}

START_TEST(threads_leave_exact_records_and_registry)
{
    signal(SIGALRM, watchdog_fired);
    alarm(WATCHDOG_SECONDS);
    struct timespec started;
    clock_gettime(CLOCK_MONOTONIC, &started);

    zt_env_t env;
    zt_open(&env);
    ck_assert_msg(zeil_is_active(), "the stress suite needs zeil on");
    ze_module_handle_t module = zt_load_test_module(&env);
    zeil_live_counts_t baseline;
    zeil_get_live_counts(&baseline);

    uint64_t ops = stress_ops();
    static stress_worker_t workers[STRESS_WORKERS];
    memset(workers, 0, sizeof workers);
    for (int i = 0; i < STRESS_WORKERS; i++) {
        workers[i].env = &env;
        workers[i].module = module;
        workers[i].ops = ops;
        stress_worker_open(&workers[i]);
    }
    atomic_int stop = 0;
    stress_querier_t querier = {&env, workers, &stop, 0, 0, 0};
    stress_dnnl_t dnnl = {.env = &env, .executes = ops / 50};

    pthread_t worker_threads[STRESS_WORKERS], querier_thread, dnnl_thread;
    for (int i = 0; i < STRESS_WORKERS; i++)
        start(&worker_threads[i], stress_worker_run, &workers[i]);
    start(&querier_thread, stress_querier_run, &querier);
    start(&dnnl_thread, stress_dnnl_run, &dnnl);
    for (int i = 0; i < STRESS_WORKERS; i++)
        ck_assert_int_eq(pthread_join(worker_threads[i], NULL), 0);
    ck_assert_int_eq(pthread_join(dnnl_thread, NULL), 0);
    atomic_store(&stop, 1);
    ck_assert_int_eq(pthread_join(querier_thread, NULL), 0);

    /* Every append of every list, counted by zeil. */
    for (int i = 0; i < STRESS_WORKERS; i++) {
        const stress_worker_t *w = &workers[i];
        ck_assert_uint_eq(w->immediate_appends, ops);
        ck_assert_uint_eq(w->regular_appends, ops);
        ck_assert_uint_eq(w->allocations, ops);
        ck_assert_uint_eq(w->frees, ops);
        ck_assert_uint_eq(zeil_submission_count(w->immediate), w->immediate_appends);
        ck_assert_uint_eq(zeil_submission_count(w->regular), w->regular_appends);
    }
    for (int s = 0; s < 2; s++) {
        ck_assert_uint_eq(dnnl.done[s], dnnl.executes);
        ck_assert_uint_eq(dnnl.submissions[s], dnnl.executes);
    }

    /* The registry: exactly the workers' lists and queues on top of the
     * baseline; every allocation freed. */
    zeil_live_counts_t now;
    zeil_get_live_counts(&now);
    check_live_delta(&baseline, &now, ZEIL_KIND_COMMAND_LIST, 2 * STRESS_WORKERS);
    check_live_delta(&baseline, &now, ZEIL_KIND_COMMAND_QUEUE, STRESS_WORKERS);
    check_live_delta(&baseline, &now, ZEIL_KIND_KERNEL, 0);
    check_live_delta(&baseline, &now, ZEIL_KIND_EVENT, 0);
    check_live_delta(&baseline, &now, ZEIL_KIND_EVENT_POOL, 0);
    ck_assert_uint_eq(now.allocations, baseline.allocations);
    ck_assert_uint_eq(now.allocation_bytes, baseline.allocation_bytes);
    for (int i = 0; i < STRESS_WORKERS; i++)
        stress_worker_close(&workers[i]);
    zeil_get_live_counts(&now);
    for (int k = 0; k < ZEIL_KIND_COUNT; k++)
        check_live_delta(&baseline, &now, (zeil_kind_t)k, 0);

    ck_assert_uint_eq(zeil_error_count(), 0);
    ck_assert_uint_gt(querier.handle_lookups, 0);
    ck_assert_uint_gt(querier.tombstones_seen, 0);
    printf("stress: %d workers x %llu launches, copies, allocations and frees; oneDNN: 2 streams "
           "(%llu executes per stream); registry: %llu handle and %llu pointer lookups; "
           "%.1f s\n",
           STRESS_WORKERS, (unsigned long long)ops, (unsigned long long)dnnl.executes,
           (unsigned long long)querier.handle_lookups, (unsigned long long)querier.pointer_lookups,
           seconds_since(&started));
    ZT_OK(zeModuleDestroy(module));
    zt_close(&env);
    alarm(0);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("stress");
    TCase *tc = tcase_create("threads");
    tcase_set_timeout(tc, WATCHDOG_SECONDS + 30);
    tcase_add_test(tc, threads_leave_exact_records_and_registry);
    suite_add_tcase(suite, tc);
    return zt_run_suite(suite);
}
