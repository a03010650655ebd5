/*
 * Timestamps: the timer resolution in both of its units, kernel timestamp
 * events (start <= end, a duration that covers a slow kernel; on immediate
 * and regular lists), appended timestamp queries, global timestamps written
 * by a list and read on the host.
 */
#include "zt.h"
#include "test_kernels.h"

#include <string.h>

#define MS (1000u * 1000u) /* nanoseconds */

static const uint32_t one[3] = {1, 1, 1};

typedef struct clock_info {
    uint64_t ns_per_tick;   /* timerResolution with the 1.0 properties */
    uint64_t ticks_per_sec; /* timerResolution with the 1.2 properties */
    uint64_t kernel_mask;   /* kernelTimestampValidBits as a mask */
    uint64_t global_mask;   /* timestampValidBits as a mask */
} clock_info_t;

static uint64_t mask_of(uint32_t bits)
{
    return bits >= 64 ? UINT64_MAX : (((uint64_t)1 << bits) - 1);
}

static clock_info_t device_clock(const zt_env_t *env)
{
    ze_device_properties_t v10 = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ze_device_properties_t v12 = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2};
    ZT_OK(zeDeviceGetProperties(env->device, &v10));
    ZT_OK(zeDeviceGetProperties(env->device, &v12));
    clock_info_t c = {v10.timerResolution, v12.timerResolution,
                      mask_of(v10.kernelTimestampValidBits), mask_of(v10.timestampValidBits)};
    ck_assert_uint_gt(c.ns_per_tick, 0);
    ck_assert_uint_gt(c.ticks_per_sec, 0);
    ck_assert_uint_gt(v10.timestampValidBits, 0);
    return c;
}

/* Nanoseconds between two readings of a counter with the given mask
 * (counters may wrap). */
static double elapsed_ns(const clock_info_t *c, uint64_t mask, uint64_t start, uint64_t end)
{
    uint64_t ticks = (end - start) & mask;
    return (double)ticks * 1e9 / (double)c->ticks_per_sec;
}

START_TEST(test_resolution_units_agree)
{
    /* The 1.0 structure reports nanoseconds per tick, the 1.2 structure ticks
     * per second: the same clock either way. */
    zt_env_t env;
    zt_open(&env);
    clock_info_t c = device_clock(&env);
    double period_ns = 1e9 / (double)c.ticks_per_sec;
    ck_assert_msg((double)c.ns_per_tick > period_ns - 1.0 &&
                      (double)c.ns_per_tick < period_ns + 1.0,
                  "%llu ns per tick but %llu ticks per second", (unsigned long long)c.ns_per_tick,
                  (unsigned long long)c.ticks_per_sec);
    zt_close(&env);
}
END_TEST

typedef struct fixture {
    zt_env_t env;
    clock_info_t clock;
    ze_module_handle_t module;
    ze_kernel_handle_t spin;
    ze_event_pool_handle_t pool; /* kernel timestamp events */
    ze_command_list_handle_t list;
} fixture_t;

static void open_fixture(fixture_t *f)
{
    zt_open(&f->env);
    f->clock = device_clock(&f->env);
    f->module = zt_load_test_module(&f->env);
    f->spin = zt_kernel(f->module, TK_SPIN);
    f->pool = zt_event_pool(&f->env, 4, ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP);
    f->list = zt_immediate_list(&f->env, 0);
}

static void close_fixture(fixture_t *f)
{
    ZT_OK(zeCommandListDestroy(f->list));
    ZT_OK(zeEventPoolDestroy(f->pool));
    ZT_OK(zeKernelDestroy(f->spin));
    ZT_OK(zeModuleDestroy(f->module));
    zt_close(&f->env);
}

static void append_spin_to(fixture_t *f, ze_command_list_handle_t list, uint64_t us,
                           ze_event_handle_t signal)
{
    uint64_t *no_output = NULL;
    ZT_ARG(f->spin, 0, us);
    ZT_ARG(f->spin, 1, no_output);
    zt_launch(list, f->spin, one, one, signal, 0, NULL);
}

static void append_spin(fixture_t *f, uint64_t us, ze_event_handle_t signal)
{
    append_spin_to(f, f->list, us, signal);
}

static void check_duration(fixture_t *f, const ze_kernel_timestamp_result_t *ts, double min_ns)
{
    const uint64_t mask = f->clock.kernel_mask;
    ck_assert_uint_le(ts->global.kernelStart, mask);
    ck_assert_uint_le(ts->global.kernelEnd, mask);
    double global = elapsed_ns(&f->clock, mask, ts->global.kernelStart, ts->global.kernelEnd);
    double context = elapsed_ns(&f->clock, mask, ts->context.kernelStart, ts->context.kernelEnd);
    ck_assert_msg(global >= min_ns * 0.95 && global < min_ns + 1e9,
                  "global duration %.0f ns for a %.0f ns kernel", global, min_ns);
    ck_assert_msg(context > 0 && context <= global * 1.01 + 1e6,
                  "context duration %.0f ns, global %.0f ns", context, global);
}

START_TEST(test_kernel_timestamp_covers_kernel)
{
    fixture_t f;
    open_fixture(&f);
    ze_event_handle_t ev = zt_event(f.pool, 0);
    ze_kernel_timestamp_result_t ts;
    memset(&ts, 0xCD, sizeof ts);
    ze_kernel_timestamp_result_t untouched = ts;
    append_spin(&f, 30u * 1000, ev);
    /* "The destination memory will be unmodified if the event has not been
     * signaled." The kernel runs for 30 ms, so this query comes first. */
    ze_result_t early = zeEventQueryKernelTimestamp(ev, &ts);
    if (early == ZE_RESULT_NOT_READY)
        ck_assert_int_eq(memcmp(&ts, &untouched, sizeof ts), 0);
    else
        ck_abort_msg("query before the kernel ended returned 0x%x", (unsigned)early);
    ZT_OK(zeEventHostSynchronize(ev, UINT64_MAX));
    ZT_OK(zeEventQueryKernelTimestamp(ev, &ts));
    check_duration(&f, &ts, 30.0 * MS);
    ZT_OK(zeEventDestroy(ev));
    close_fixture(&f);
}
END_TEST

START_TEST(test_kernel_timestamp_on_regular_list)
{
    /* The same through a regular list on a queue, executed twice: the event
     * is reset between runs and the second run's times come after the
     * first's. */
    fixture_t f;
    open_fixture(&f);
    ze_event_handle_t ev = zt_event(f.pool, 0);
    ze_command_list_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0, 0};
    ze_command_list_handle_t list = NULL;
    ZT_OK(zeCommandListCreate(f.env.context, f.env.device, &desc, &list));
    append_spin_to(&f, list, 15u * 1000, ev);
    ZT_OK(zeCommandListClose(list));
    ze_command_queue_desc_t qdesc = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_queue_handle_t queue = NULL;
    ZT_OK(zeCommandQueueCreate(f.env.context, f.env.device, &qdesc, &queue));
    ze_kernel_timestamp_result_t first, second;
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL));
    ZT_OK(zeEventHostSynchronize(ev, UINT64_MAX));
    ZT_OK(zeEventQueryKernelTimestamp(ev, &first));
    check_duration(&f, &first, 15.0 * MS);
    ZT_OK(zeEventHostReset(ev));
    ZT_RESULT(ZE_RESULT_NOT_READY, zeEventQueryKernelTimestamp(ev, &second));
    ZT_OK(zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL));
    ZT_OK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    ZT_OK(zeEventQueryKernelTimestamp(ev, &second));
    check_duration(&f, &second, 15.0 * MS);
    ck_assert_double_le(elapsed_ns(&f.clock, f.clock.kernel_mask, first.global.kernelEnd,
                                   second.global.kernelStart),
                        elapsed_ns(&f.clock, f.clock.kernel_mask, first.global.kernelStart,
                                   second.global.kernelEnd));
    ZT_OK(zeCommandQueueDestroy(queue));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeEventDestroy(ev));
    close_fixture(&f);
}
END_TEST

START_TEST(test_appended_timestamp_query)
{
    fixture_t f;
    open_fixture(&f);
    ze_event_handle_t ev[2] = {zt_event(f.pool, 0), zt_event(f.pool, 1)};
    ze_event_pool_handle_t plain = zt_event_pool(&f.env, 1, 0);
    ze_event_handle_t done = zt_event(plain, 0);
    ze_kernel_timestamp_result_t *results =
        zt_usm_alloc(&f.env, ZT_USM_SHARED, 2 * sizeof *results, 8);
    append_spin(&f, 10u * 1000, ev[0]);
    append_spin(&f, 20u * 1000, ev[1]);
    ZT_OK(zeCommandListAppendQueryKernelTimestamps(f.list, 2, ev, results, NULL, done, 2, ev));
    ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    for (int i = 0; i < 2; i++) {
        ze_kernel_timestamp_result_t host;
        ZT_OK(zeEventQueryKernelTimestamp(ev[i], &host));
        ck_assert_int_eq(memcmp(&host, &results[i], sizeof host), 0);
        check_duration(&f, &results[i], (i + 1) * 10.0 * MS);
    }
    ZT_OK(zeMemFree(f.env.context, results));
    ZT_OK(zeEventDestroy(ev[0]));
    ZT_OK(zeEventDestroy(ev[1]));
    ZT_OK(zeEventDestroy(done));
    ZT_OK(zeEventPoolDestroy(plain));
    close_fixture(&f);
}
END_TEST

START_TEST(test_global_timestamps)
{
    fixture_t f;
    open_fixture(&f);
    ze_event_pool_handle_t plain = zt_event_pool(&f.env, 1, 0);
    ze_event_handle_t done = zt_event(plain, 0);
    uint64_t *stamps = zt_usm_alloc(&f.env, ZT_USM_HOST, 2 * sizeof(uint64_t), 8);
    uint64_t host_before = 0, device_before = 0, host_after = 0, device_after = 0;
    ZT_OK(zeDeviceGetGlobalTimestamps(f.env.device, &host_before, &device_before));
    ZT_OK(zeCommandListAppendWriteGlobalTimestamp(f.list, &stamps[0], NULL, 0, NULL));
    append_spin(&f, 20u * 1000, NULL);
    ZT_OK(zeCommandListAppendWriteGlobalTimestamp(f.list, &stamps[1], done, 0, NULL));
    ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    ZT_OK(zeDeviceGetGlobalTimestamps(f.env.device, &host_after, &device_after));
    const uint64_t mask = f.clock.global_mask;
    double between = elapsed_ns(&f.clock, mask, stamps[0], stamps[1]);
    ck_assert_msg(between >= 19.0 * MS && between < 1e9, "%.0f ns around a 20 ms kernel", between);
    /* The list's timestamps lie between the host's two readings of the same
     * clock. */
    ck_assert_double_le(elapsed_ns(&f.clock, mask, device_before, stamps[0]),
                        elapsed_ns(&f.clock, mask, device_before, device_after));
    ck_assert_double_le(elapsed_ns(&f.clock, mask, stamps[1], device_after),
                        elapsed_ns(&f.clock, mask, device_before, device_after));
    ck_assert_uint_gt(host_after, host_before);
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeDeviceGetGlobalTimestamps(f.env.device, NULL, &device_after));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeCommandListAppendWriteGlobalTimestamp(f.list, NULL, NULL, 0, NULL));
    ZT_OK(zeMemFree(f.env.context, stamps));
    ZT_OK(zeEventDestroy(done));
    ZT_OK(zeEventPoolDestroy(plain));
    close_fixture(&f);
}
END_TEST

START_TEST(test_bad_arguments_refused)
{
    fixture_t f;
    open_fixture(&f);
    ze_event_handle_t ev = zt_event(f.pool, 0);
    ZT_OK(zeEventHostSignal(ev));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeEventQueryKernelTimestamp(ev, NULL));
    ze_kernel_timestamp_result_t r;
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeCommandListAppendQueryKernelTimestamps(f.list, 1, NULL, &r, NULL, NULL, 0, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeCommandListAppendQueryKernelTimestamps(f.list, 1, &ev, NULL, NULL, NULL, 0, NULL));
    ZT_RESULT(ZE_RESULT_ERROR_INVALID_SIZE,
              zeCommandListAppendQueryKernelTimestamps(f.list, 1, &ev, &r, NULL, NULL, 1, NULL));
    ZT_OK(zeEventDestroy(ev));
    close_fixture(&f);
}
END_TEST

static Suite *timestamp_suite(void)
{
    Suite *s = suite_create("driver_timestamp");
    TCase *tc = tcase_create("timestamp");
    tcase_add_test(tc, test_resolution_units_agree);
    tcase_add_test(tc, test_kernel_timestamp_covers_kernel);
    tcase_add_test(tc, test_kernel_timestamp_on_regular_list);
    tcase_add_test(tc, test_appended_timestamp_query);
    tcase_add_test(tc, test_global_timestamps);
    tcase_add_test(tc, test_bad_arguments_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return zt_run_suite(timestamp_suite());
}
