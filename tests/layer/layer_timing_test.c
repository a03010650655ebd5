/*
 * ZEIL_TIMING=1 (set by CMake): launches on immediate lists get device
 * start/end from zeil's own timestamp events, and the application sees
 * nothing different: its signal event still signals after the kernel, its
 * pool never loses an event to zeil.
 */
#include "zl.h"
#include "test_kernels.h"

#include <zeil/zeil.h>

#include <stdlib.h>
#include <string.h>

typedef struct timed {
    uint64_t start[8], end[8];
    size_t n;
} timed_t;

static int collect_times(const zeil_record_t *r, void *user)
{
    timed_t *t = user;
    if (t->n < 8) {
        t->start[t->n] = r->device_start_ns;
        t->end[t->n] = r->device_end_ns;
        t->n++;
    }
    return 0;
}

static int stats_of_spin(const zeil_kernel_stats_t *s, void *user)
{
    if (s->kernel && strcmp(s->kernel, TK_SPIN) == 0)
        *(zeil_kernel_stats_t *)user = *s;
    return 0;
}

START_TEST(test_launches_get_device_times)
{
    ck_assert_str_eq(getenv("ZEIL_TIMING"), "1");
    zl_fixture_t f;
    zl_open(&f);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_SPIN);
    uint64_t micros = 2000, *finished = NULL;
    ZT_ARG(k, 0, micros);
    ZT_ARG(k, 1, finished);
    const uint32_t one[3] = {1, 1, 1};
    zt_launch(f.list, k, one, one, NULL, 0, NULL);       /* no event of its own */
    zt_launch(f.list, k, one, one, f.event[0], 0, NULL); /* with the application's event */
    ZT_OK(zeEventHostSynchronize(f.event[0], UINT64_MAX));
    ck_assert(zl_signalled(f.event[0]));
    zeil_flush();
    timed_t t = {.n = 0};
    ck_assert_uint_eq(zeil_records_of_list(f.list, collect_times, &t), 2);
    for (size_t i = 0; i < 2; i++) {
        ck_assert_uint_gt(t.start[i], 0);
        ck_assert_uint_ge(t.end[i] - t.start[i], micros * 1000 * 9 / 10);
    }
    ck_assert_uint_ge(t.start[1], t.end[0]);
    zeil_kernel_stats_t s = {0};
    zeil_foreach_kernel_stats(stats_of_spin, &s);
    ck_assert_uint_eq(s.launches, 2);
    ck_assert_uint_eq(s.timed_launches, 2);
    ck_assert_uint_ge(s.total_device_ns, 2 * micros * 1000 * 9 / 10);
    ck_assert_uint_ge(s.max_device_ns, micros * 1000 * 9 / 10);
    /* The application's pool is whole: all its 8 events are its own. */
    zeil_live_counts_t live;
    zeil_get_live_counts(&live);
    ck_assert_uint_eq(live.handles[ZEIL_KIND_EVENT], 8);
    ck_assert_uint_eq(live.handles[ZEIL_KIND_EVENT_POOL], 1);
    ZT_OK(zeKernelDestroy(k));
    zl_close(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("layer_timing");
    TCase *tc = tcase_create("timing");
    tcase_add_test(tc, test_launches_get_device_times);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
