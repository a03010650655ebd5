/*
 * Immediate command lists: asynchronous lists return before their work runs
 * and run it in order; synchronous lists finish it before returning; events
 * order work across two lists (producer/consumer), with barriers and with
 * events the host signals, and lists driven from several host threads at
 * once.
 */
#include "zt.h"
#include "test_kernels.h"

#include <pthread.h>

#define MS (1000u * 1000u) /* nanoseconds */

static const uint32_t one[3] = {1, 1, 1};

/* Appends the spin kernel (one group) for the given time. */
static void append_spin(ze_command_list_handle_t list, ze_kernel_handle_t spin, uint64_t us,
                        uint64_t *finished_ns, ze_event_handle_t signal, uint32_t num_waits,
                        ze_event_handle_t *waits)
{
    ZT_ARG(spin, 0, us);
    ZT_ARG(spin, 1, finished_ns);
    zt_launch(list, spin, one, one, signal, num_waits, waits);
}

static void append_stamp(ze_command_list_handle_t list, ze_kernel_handle_t stamp,
                         uint64_t *started_ns, ze_event_handle_t signal, uint32_t num_waits,
                         ze_event_handle_t *waits)
{
    ZT_ARG(stamp, 0, started_ns);
    zt_launch(list, stamp, one, one, signal, num_waits, waits);
}

typedef struct fixture {
    zt_env_t env;
    ze_module_handle_t module;
    ze_kernel_handle_t spin, stamp;
    ze_event_pool_handle_t pool;
    uint64_t *times; /* shared USM: [0] finished, [1] started */
} fixture_t;

static void open_fixture(fixture_t *f)
{
    zt_open(&f->env);
    f->module = zt_load_test_module(&f->env);
    f->spin = zt_kernel(f->module, TK_SPIN);
    f->stamp = zt_kernel(f->module, TK_STAMP);
    f->pool = zt_event_pool(&f->env, 4, 0);
    f->times = zt_usm_alloc(&f->env, ZT_USM_SHARED, 4 * sizeof(uint64_t), 8);
    for (int i = 0; i < 4; i++)
        f->times[i] = 0;
}

static void close_fixture(fixture_t *f)
{
    ZT_OK(zeMemFree(f->env.context, f->times));
    ZT_OK(zeEventPoolDestroy(f->pool));
    ZT_OK(zeKernelDestroy(f->spin));
    ZT_OK(zeKernelDestroy(f->stamp));
    ZT_OK(zeModuleDestroy(f->module));
    zt_close(&f->env);
}

START_TEST(test_async_list_returns_before_work_runs)
{
    fixture_t f;
    open_fixture(&f);
    ze_command_list_handle_t list = zt_immediate_list(&f.env, 0);
    ze_event_handle_t done = zt_event(f.pool, 0);
    uint64_t start = zt_now_ns();
    append_spin(list, f.spin, 300u * 1000, &f.times[0], done, 0, NULL);
    /* Not signalled yet: the append did not wait for the 300 ms kernel (a
     * wall-clock bound on the append would fail on a loaded machine). */
    ZT_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(done));
    ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    ck_assert_uint_ge(zt_now_ns() - start, 300 * MS);
    ck_assert_uint_ge(f.times[0], start + 300 * MS);
    ZT_OK(zeEventDestroy(done));
    ZT_OK(zeCommandListDestroy(list));
    close_fixture(&f);
}
END_TEST

START_TEST(test_sync_list_finishes_before_returning)
{
    fixture_t f;
    open_fixture(&f);
    ze_command_list_handle_t list = zt_immediate_list(&f.env, 1);
    ze_event_handle_t done = zt_event(f.pool, 0);
    uint64_t start = zt_now_ns();
    append_spin(list, f.spin, 100u * 1000, &f.times[0], done, 0, NULL);
    ck_assert_uint_ge(zt_now_ns() - start, 100 * MS);
    ck_assert_uint_ne(f.times[0], 0);
    ZT_OK(zeEventQueryStatus(done));
    /* Copies too. */
    uint64_t value = 0x1234, copy = 0;
    ZT_OK(zeCommandListAppendMemoryCopy(list, &copy, &value, sizeof value, NULL, 0, NULL));
    ck_assert_uint_eq(copy, 0x1234);
    ZT_OK(zeEventDestroy(done));
    ZT_OK(zeCommandListDestroy(list));
    close_fixture(&f);
}
END_TEST

START_TEST(test_async_list_runs_in_order)
{
    fixture_t f;
    open_fixture(&f);
    ze_command_list_handle_t list = zt_immediate_list(&f.env, 0);
    ze_event_handle_t done = zt_event(f.pool, 0);
    uint64_t *copied = &f.times[2];
    append_spin(list, f.spin, 50u * 1000, &f.times[0], NULL, 0, NULL);
    append_stamp(list, f.stamp, &f.times[1], NULL, 0, NULL);
    /* A copy after the kernels sees what the first one wrote. */
    ZT_OK(
        zeCommandListAppendMemoryCopy(list, copied, &f.times[0], sizeof(uint64_t), done, 0, NULL));
    ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    ck_assert_uint_ne(f.times[0], 0);
    ck_assert_msg(f.times[1] >= f.times[0], "second kernel started at %llu, first ended at %llu",
                  (unsigned long long)f.times[1], (unsigned long long)f.times[0]);
    ck_assert_uint_eq(*copied, f.times[0]);
    ZT_OK(zeEventDestroy(done));
    ZT_OK(zeCommandListDestroy(list));
    close_fixture(&f);
}
END_TEST

START_TEST(test_producer_consumer_across_lists)
{
    /* The consumer list is given its work first, waiting on an event the
     * producer list signals after a slow kernel. */
    fixture_t f;
    open_fixture(&f);
    ze_command_list_handle_t producer = zt_immediate_list(&f.env, 0);
    ze_command_list_handle_t consumer = zt_immediate_list(&f.env, 0);
    ze_event_handle_t produced = zt_event(f.pool, 0), consumed = zt_event(f.pool, 1);
    append_stamp(consumer, f.stamp, &f.times[1], consumed, 1, &produced);
    ZT_RESULT(ZE_RESULT_NOT_READY, zeEventHostSynchronize(consumed, 30 * MS));
    ck_assert_uint_eq(f.times[1], 0);
    append_spin(producer, f.spin, 100u * 1000, &f.times[0], produced, 0, NULL);
    ZT_OK(zeEventHostSynchronize(consumed, UINT64_MAX));
    ZT_OK(zeEventQueryStatus(produced));
    ck_assert_uint_ne(f.times[0], 0);
    ck_assert_msg(f.times[1] >= f.times[0], "consumer started at %llu, producer ended at %llu",
                  (unsigned long long)f.times[1], (unsigned long long)f.times[0]);
    ZT_OK(zeEventDestroy(produced));
    ZT_OK(zeEventDestroy(consumed));
    ZT_OK(zeCommandListDestroy(producer));
    ZT_OK(zeCommandListDestroy(consumer));
    close_fixture(&f);
}
END_TEST

START_TEST(test_barrier_waits_on_two_lists)
{
    fixture_t f;
    open_fixture(&f);
    ze_command_list_handle_t a = zt_immediate_list(&f.env, 0);
    ze_command_list_handle_t b = zt_immediate_list(&f.env, 0);
    ze_command_list_handle_t c = zt_immediate_list(&f.env, 0);
    ze_event_handle_t ev[2] = {zt_event(f.pool, 0), zt_event(f.pool, 1)};
    ze_event_handle_t barrier_done = zt_event(f.pool, 2), done = zt_event(f.pool, 3);
    ZT_OK(zeCommandListAppendBarrier(c, barrier_done, 2, ev));
    append_stamp(c, f.stamp, &f.times[1], done, 0, NULL);
    append_spin(a, f.spin, 60u * 1000, &f.times[0], ev[0], 0, NULL);
    append_spin(b, f.spin, 120u * 1000, &f.times[2], ev[1], 0, NULL);
    ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    ZT_OK(zeEventQueryStatus(barrier_done));
    ck_assert_uint_ge(f.times[1], f.times[0]);
    ck_assert_uint_ge(f.times[1], f.times[2]);
    for (int i = 0; i < 2; i++)
        ZT_OK(zeEventDestroy(ev[i]));
    ZT_OK(zeEventDestroy(barrier_done));
    ZT_OK(zeEventDestroy(done));
    ZT_OK(zeCommandListDestroy(a));
    ZT_OK(zeCommandListDestroy(b));
    ZT_OK(zeCommandListDestroy(c));
    close_fixture(&f);
}
END_TEST

START_TEST(test_host_released_list)
{
    fixture_t f;
    open_fixture(&f);
    ze_command_list_handle_t list = zt_immediate_list(&f.env, 0);
    ze_event_handle_t gate = zt_event(f.pool, 0), done = zt_event(f.pool, 1);
    uint32_t value = 0xabcdef01, target = 0;
    ZT_OK(zeCommandListAppendMemoryCopy(list, &target, &value, sizeof value, done, 1, &gate));
    ZT_RESULT(ZE_RESULT_NOT_READY, zeEventHostSynchronize(done, 30 * MS));
    ck_assert_uint_eq(target, 0);
    ZT_OK(zeEventHostSignal(gate));
    ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    ck_assert_uint_eq(target, value);
    ZT_OK(zeEventDestroy(gate));
    ZT_OK(zeEventDestroy(done));
    ZT_OK(zeCommandListDestroy(list));
    close_fixture(&f);
}
END_TEST

/* The worker polls for work and the host polls the event for up to 20 us
 * before each sleeps: pauses between launches below, around and above that
 * budget make every hand-off (worker polling or asleep, host polling or
 * asleep) happen, and none may be lost. A lost wake-up shows as a timeout
 * here, not as a hang. */
START_TEST(test_handoffs_across_the_polling_budget)
{
    fixture_t f;
    open_fixture(&f);
    ze_command_list_handle_t list = zt_immediate_list(&f.env, 0);
    ze_event_handle_t done = zt_event(f.pool, 0);
    static const long pauses_ns[] = {0, 2000, 10000, 19000, 21000, 30000, 200000, 3000000};
    const size_t npauses = sizeof pauses_ns / sizeof *pauses_ns;
    for (int i = 0; i < 400; i++) {
        struct timespec pause = {0, pauses_ns[(size_t)i % npauses]};
        nanosleep(&pause, NULL);
        /* Every third one also runs 30 us: either side may poll or sleep
         * while the kernel runs. */
        int spins = i % 3 == 1;
        append_stamp(list, f.stamp, &f.times[1], spins ? NULL : done, 0, NULL);
        if (spins)
            append_spin(list, f.spin, 30, &f.times[0], done, 0, NULL);
        ZT_OK(zeEventHostSynchronize(done, 10000u * MS));
        ck_assert_uint_ne(f.times[1], 0);
        f.times[1] = 0;
        ZT_OK(zeEventHostReset(done));
    }
    ZT_OK(zeEventDestroy(done));
    ZT_OK(zeCommandListDestroy(list));
    close_fixture(&f);
}
END_TEST

/* One host thread's share of test_lists_used_from_several_threads: its own
 * list and kernel object, many launches, each checked. */
typedef struct thread_work {
    const zt_env_t *env;
    ze_module_handle_t module;
    int seed;
    int failures;
} thread_work_t;

static void *launch_many(void *arg)
{
    thread_work_t *w = arg;
    enum {
        N = 4096,
        ROUNDS = 40
    };
    ze_command_list_handle_t list = zt_immediate_list(w->env, 1);
    ze_kernel_handle_t add = zt_kernel(w->module, TK_VECTOR_ADD);
    float *v = zt_usm_alloc(w->env, ZT_USM_SHARED, 3 * N * sizeof(float), 0);
    float *a = v, *b = v + N, *c = v + 2 * N;
    uint64_t n = N;
    const uint32_t gs[3] = {64, 1, 1}, gc[3] = {N / 64, 1, 1};
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < N; i++) {
            a[i] = (float)(i + w->seed);
            b[i] = (float)round;
        }
        ZT_ARG(add, 0, a);
        ZT_ARG(add, 1, b);
        ZT_ARG(add, 2, c);
        ZT_ARG(add, 3, n);
        zt_launch(list, add, gs, gc, NULL, 0, NULL);
        for (int i = 0; i < N; i++)
            if (c[i] != (float)(i + w->seed + round))
                w->failures++;
    }
    ZT_OK(zeMemFree(w->env->context, v));
    ZT_OK(zeKernelDestroy(add));
    ZT_OK(zeCommandListDestroy(list));
    return NULL;
}

START_TEST(test_lists_used_from_several_threads)
{
    enum {
        THREADS = 4
    };
    fixture_t f;
    open_fixture(&f);
    pthread_t threads[THREADS];
    thread_work_t work[THREADS];
    for (int t = 0; t < THREADS; t++) {
        work[t] = (thread_work_t){&f.env, f.module, t * 100000, 0};
        ck_assert_int_eq(pthread_create(&threads[t], NULL, launch_many, &work[t]), 0);
    }
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    for (int t = 0; t < THREADS; t++)
        ck_assert_msg(work[t].failures == 0, "thread %d saw %d wrong results", t, work[t].failures);
    close_fixture(&f);
}
END_TEST

START_TEST(test_bad_arguments_refused)
{
    zt_env_t env;
    zt_open(&env);
    ze_command_list_handle_t list = NULL;
    ze_command_queue_desc_t desc = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_DEFAULT,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeCommandListCreateImmediate(env.context, env.device, NULL, &list));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeCommandListCreateImmediate(env.context, env.device, &desc, NULL));
    desc.mode = (ze_command_queue_mode_t)7;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_ENUMERATION,
              zeCommandListCreateImmediate(env.context, env.device, &desc, &list));
    list = zt_immediate_list(&env, 0);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_SIZE, zeCommandListAppendBarrier(list, NULL, 1, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeCommandListAppendWaitOnEvents(list, 1, NULL));
    ZT_OK(zeCommandListDestroy(list));
    zt_close(&env);
}
END_TEST

static Suite *immediate_suite(void)
{
    Suite *s = suite_create("driver_immediate");
    TCase *tc = tcase_create("immediate");
    tcase_add_test(tc, test_async_list_returns_before_work_runs);
    tcase_add_test(tc, test_sync_list_finishes_before_returning);
    tcase_add_test(tc, test_async_list_runs_in_order);
    tcase_add_test(tc, test_producer_consumer_across_lists);
    tcase_add_test(tc, test_barrier_waits_on_two_lists);
    tcase_add_test(tc, test_host_released_list);
    tcase_add_test(tc, test_lists_used_from_several_threads);
    tcase_add_test(tc, test_handoffs_across_the_polling_budget);
    tcase_add_test(tc, test_bad_arguments_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return zt_run_suite(immediate_suite());
}
