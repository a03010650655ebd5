/*
 * Submission records after a scripted sequence on two lists and two threads:
 * exact counts, order and contents (kernel, origin, geometry, events,
 * attribution, stream binding), per-stream iteration and the kernel counters,
 * also after a list is gone. Registered a second time with ZEIL_RECORDS=4 to
 * check the retained window and the folding beyond it.
 */
#include "zl.h"
#include "test_kernels.h"

#include <zeil/zeil.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS 32

typedef struct collected {
    zeil_record_t rec[MAX_ROWS];
    ze_event_handle_t waits[MAX_ROWS];
    size_t n;
} collected_t;

static int collect_record(const zeil_record_t *r, void *user)
{
    collected_t *c = user;
    if (c->n < MAX_ROWS) {
        c->waits[c->n] = r->num_wait_events ? r->wait_events[0] : NULL;
        c->rec[c->n++] = *r;
    }
    return 0;
}

typedef struct stats_rows {
    zeil_kernel_stats_t row[MAX_ROWS];
    size_t n;
} stats_rows_t;

static int collect_stats(const zeil_kernel_stats_t *s, void *user)
{
    stats_rows_t *c = user;
    if (c->n < MAX_ROWS)
        c->row[c->n++] = *s;
    return 0;
}

static const zeil_kernel_stats_t *find_row(const stats_rows_t *rows, ze_command_list_handle_t list,
                                           uint64_t stream, const char *primitive)
{
    for (size_t i = 0; i < rows->n; i++)
        if (rows->row[i].list == list && rows->row[i].stream_id == stream &&
            ((!primitive && !rows->row[i].primitive) ||
             (primitive && rows->row[i].primitive && !strcmp(primitive, rows->row[i].primitive))))
            return &rows->row[i];
    return NULL;
}

typedef struct script {
    zl_fixture_t f;
    ze_command_list_handle_t l1, l2;
    ze_kernel_handle_t stamp, geometry;
    uint64_t *stamps;
    tk_geometry_t *geo;
    char *copy_dst;
    uint32_t thread_a, thread_b;
} script_t;

static uint32_t thread_of_last(ze_command_list_handle_t list)
{
    collected_t c = {.n = 0};
    zeil_records_of_list(list, collect_record, &c);
    return c.n ? c.rec[c.n - 1].thread : 0;
}

static void *thread_a(void *arg)
{
    script_t *s = arg;
    const uint32_t size[3] = {1, 1, 1}, count[3] = {2, 1, 1};
    zt_launch(s->l1, s->stamp, size, count, NULL, 0, NULL);
    zeil_attribution_t attr = {55, "convolution", "jit:avx2", "src f32 2x3, dst f32 2x3"};
    zeil_attribution_push(&attr);
    zt_launch(s->l1, s->stamp, size, count, NULL, 0, NULL);
    zt_launch(s->l1, s->stamp, size, count, NULL, 0, NULL);
    zeil_attribution_pop();
    static char src[64] = "payload";
    ZT_OK(zeCommandListAppendMemoryCopy(s->l1, s->copy_dst, src, sizeof src, NULL, 0, NULL));
    s->thread_a = thread_of_last(s->l1);
    return NULL;
}

static void *thread_b(void *arg)
{
    script_t *s = arg;
    const uint32_t size[3] = {4, 1, 1}, count[3] = {1, 2, 3};
    zt_launch(s->l2, s->geometry, size, count, NULL, 0, NULL);
    zt_launch(s->l2, s->geometry, size, count, s->f.event[0], 1, &s->f.event[1]);
    ZT_OK(zeCommandListAppendBarrier(s->l2, s->f.event[2], 0, NULL));
    s->thread_b = thread_of_last(s->l2);
    return NULL;
}

static void run_script(script_t *s)
{
    zl_open(&s->f);
    s->l1 = zt_immediate_list(&s->f.env, 1);
    s->l2 = zt_immediate_list(&s->f.env, 1);
    ck_assert_int_eq(zeil_bind_list_to_stream(s->l2, 77, "stream 77"), 0);
    s->stamp = zt_kernel(s->f.module, TK_STAMP);
    s->geometry = zt_kernel(s->f.module, TK_RECORD_GEOMETRY);
    s->stamps = zt_usm_alloc(&s->f.env, ZT_USM_HOST, 64, 0);
    s->geo = zt_usm_alloc(&s->f.env, ZT_USM_SHARED, 16 * sizeof(tk_geometry_t), 0);
    memset(s->geo, 0, 16 * sizeof(tk_geometry_t));
    s->copy_dst = zt_usm_alloc(&s->f.env, ZT_USM_DEVICE, 64, 0);
    ZT_ARG(s->stamp, 0, s->stamps);
    ZT_ARG(s->geometry, 0, s->geo);
    ZT_OK(zeEventHostSignal(s->f.event[1]));
    pthread_t a, b;
    pthread_create(&a, NULL, thread_a, s);
    pthread_create(&b, NULL, thread_b, s);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
}

static void end_script(script_t *s)
{
    ZT_OK(zeMemFree(s->f.env.context, s->stamps));
    ZT_OK(zeMemFree(s->f.env.context, s->geo));
    ZT_OK(zeMemFree(s->f.env.context, s->copy_dst));
    ZT_OK(zeKernelDestroy(s->stamp));
    ZT_OK(zeKernelDestroy(s->geometry));
    ZT_OK(zeCommandListDestroy(s->l2));
    zl_close(&s->f);
}

START_TEST(test_records_of_lists)
{
    script_t s;
    run_script(&s);
    ck_assert_uint_ne(s.thread_a, s.thread_b);
    collected_t c1 = {.n = 0}, c2 = {.n = 0};
    ck_assert_uint_eq(zeil_records_of_list(s.l1, collect_record, &c1), 4);
    ck_assert_uint_eq(zeil_records_of_list(s.l2, collect_record, &c2), 3);
    ck_assert_uint_eq(zeil_submission_count(s.l1), 4);
    ck_assert_uint_eq(zeil_submission_count(s.l2), 3);
    for (size_t i = 0; i < 3; i++) {
        const zeil_record_t *r = &c1.rec[i];
        ck_assert_int_eq(r->kind, ZEIL_RECORD_LAUNCH);
        ck_assert_str_eq(r->call, "zeCommandListAppendLaunchKernel");
        ck_assert_ptr_eq(r->list, s.l1);
        ck_assert_str_eq(r->kernel, TK_STAMP);
        ck_assert_msg(r->module_origin && strstr(r->module_origin, "layer_records_test"),
                      "origin %s", r->module_origin);
        ck_assert_uint_eq(r->group_count[0], 2);
        ck_assert_uint_eq(r->group_count[1], 1);
        ck_assert_uint_eq(r->group_size[0], 1);
        ck_assert_ptr_null(r->signal_event);
        ck_assert_uint_eq(r->num_wait_events, 0);
        ck_assert_uint_eq(r->thread, s.thread_a);
        ck_assert_uint_gt(r->host_ns, 0);
        ck_assert_uint_eq(r->stream_id, i == 0 ? 0 : 55);
        if (i == 0) {
            ck_assert_ptr_null(r->primitive);
        } else {
            ck_assert_str_eq(r->primitive, "convolution");
            ck_assert_str_eq(r->impl, "jit:avx2");
            ck_assert_str_eq(r->memory_args, "src f32 2x3, dst f32 2x3");
        }
        ck_assert_uint_gt(c1.rec[i + 1].seq, r->seq);
    }
    ck_assert_int_eq(c1.rec[3].kind, ZEIL_RECORD_COPY);
    ck_assert_uint_eq(c1.rec[3].bytes, 64);
    ck_assert_ptr_null(c1.rec[3].kernel);
    ck_assert_uint_eq(c1.rec[3].stream_id, 0);

    for (size_t i = 0; i < 2; i++) {
        const zeil_record_t *r = &c2.rec[i];
        ck_assert_str_eq(r->kernel, TK_RECORD_GEOMETRY);
        ck_assert_uint_eq(r->group_count[0], 1);
        ck_assert_uint_eq(r->group_count[1], 2);
        ck_assert_uint_eq(r->group_count[2], 3);
        ck_assert_uint_eq(r->group_size[0], 4);
        ck_assert_uint_eq(r->stream_id, 77);
        ck_assert_uint_eq(r->thread, s.thread_b);
    }
    ck_assert_ptr_eq(c2.rec[1].signal_event, s.f.event[0]);
    ck_assert_uint_eq(c2.rec[1].num_wait_events, 1);
    ck_assert_ptr_eq(c2.waits[1], s.f.event[1]);
    ck_assert_int_eq(c2.rec[2].kind, ZEIL_RECORD_BARRIER);
    ck_assert_ptr_eq(c2.rec[2].signal_event, s.f.event[2]);
    /* The kernels ran as recorded. */
    ck_assert_uint_eq(s.geo[5].runs, 2);
    ck_assert_uint_ne(s.stamps[0], 0);
    ZT_OK(zeCommandListDestroy(s.l1));
    end_script(&s);
}
END_TEST

START_TEST(test_records_of_streams_and_counters)
{
    script_t s;
    run_script(&s);
    collected_t c = {.n = 0};
    ck_assert_uint_eq(zeil_records_of_stream(77, collect_record, &c), 3);
    ck_assert_uint_lt(c.rec[0].seq, c.rec[1].seq);
    ck_assert_uint_lt(c.rec[1].seq, c.rec[2].seq);
    c.n = 0;
    ck_assert_uint_eq(zeil_records_of_stream(55, collect_record, &c), 2);
    ck_assert_str_eq(c.rec[0].primitive, "convolution");
    ck_assert_uint_eq(zeil_records_of_stream(99, NULL, NULL), 0);

    stats_rows_t rows = {.n = 0};
    ck_assert_uint_eq(zeil_foreach_kernel_stats(collect_stats, &rows), 3);
    const zeil_kernel_stats_t *plain = find_row(&rows, s.l1, 0, NULL);
    const zeil_kernel_stats_t *conv = find_row(&rows, s.l1, 55, "convolution");
    const zeil_kernel_stats_t *geo = find_row(&rows, s.l2, 77, NULL);
    ck_assert(plain && conv && geo);
    ck_assert_uint_eq(plain->launches, 1);
    ck_assert_uint_eq(conv->launches, 2);
    ck_assert_str_eq(conv->impl, "jit:avx2");
    ck_assert_uint_eq(geo->launches, 2);
    ck_assert_str_eq(geo->kernel, TK_RECORD_GEOMETRY);

    /* Counters outlive their list. */
    ZT_OK(zeCommandListDestroy(s.l1));
    rows.n = 0;
    ck_assert_uint_eq(zeil_foreach_kernel_stats(collect_stats, &rows), 3);
    conv = find_row(&rows, s.l1, 55, "convolution");
    ck_assert(conv && conv->launches == 2);
    ck_assert_uint_eq(zeil_records_of_list(s.l1, NULL, NULL), 0);

    /* Unbound, the stream has no new records. */
    ck_assert_int_eq(zeil_unbind_stream(77), 0);
    ck_assert_int_eq(zeil_unbind_stream(77), -1);
    const uint32_t one[3] = {1, 1, 1};
    zt_launch(s.l2, s.geometry, one, one, NULL, 0, NULL);
    ck_assert_uint_eq(zeil_records_of_stream(77, NULL, NULL), 3);
    ck_assert_uint_eq(zeil_submission_count(s.l2), 4);
    end_script(&s);
}
END_TEST

START_TEST(test_cooperative_and_indirect_launches_recorded)
{
    zl_fixture_t f;
    zl_open(&f);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_STAMP);
    uint64_t *stamp = zt_usm_alloc(&f.env, ZT_USM_HOST, 8, 0);
    ZT_ARG(k, 0, stamp);
    ZT_OK(zeKernelSetGroupSize(k, 1, 1, 1));
    ze_group_count_t groups = {3, 1, 1};
    ZT_OK(zeCommandListAppendLaunchCooperativeKernel(f.list, k, &groups, NULL, 0, NULL));
    ze_group_count_t *indirect = zt_usm_alloc(&f.env, ZT_USM_SHARED, sizeof *indirect, 0);
    *indirect = (ze_group_count_t){2, 1, 1};
    ZT_OK(zeCommandListAppendLaunchKernelIndirect(f.list, k, indirect, f.event[0], 0, NULL));
    ck_assert(zl_signalled(f.event[0]));
    collected_t c = {.n = 0};
    ck_assert_uint_eq(zeil_records_of_list(f.list, collect_record, &c), 2);
    ck_assert_str_eq(c.rec[0].call, "zeCommandListAppendLaunchCooperativeKernel");
    ck_assert_uint_eq(c.rec[0].group_count[0], 3);
    ck_assert_str_eq(c.rec[1].call, "zeCommandListAppendLaunchKernelIndirect");
    ck_assert_int_eq(c.rec[1].kind, ZEIL_RECORD_LAUNCH);
    ck_assert_str_eq(c.rec[1].kernel, TK_STAMP);
    ck_assert_uint_eq(c.rec[1].group_count[0], 0); /* in device memory: unknown */
    ck_assert_ptr_eq(c.rec[1].signal_event, f.event[0]);
    ZT_OK(zeMemFree(f.env.context, indirect));
    ZT_OK(zeMemFree(f.env.context, stamp));
    ZT_OK(zeKernelDestroy(k));
    zl_close(&f);
}
END_TEST

START_TEST(test_window_folds_old_records)
{
    ck_assert_str_eq(getenv("ZEIL_RECORDS"), "4");
    zl_fixture_t f;
    zl_open(&f);
    ze_kernel_handle_t k = zt_kernel(f.module, TK_STAMP);
    uint64_t *stamp = zt_usm_alloc(&f.env, ZT_USM_HOST, 8, 0);
    ZT_ARG(k, 0, stamp);
    const uint32_t one[3] = {1, 1, 1};
    for (int i = 0; i < 10; i++)
        zt_launch(f.list, k, one, one, NULL, 0, NULL);
    collected_t c = {.n = 0};
    ck_assert_uint_eq(zeil_records_of_list(f.list, collect_record, &c), 4);
    ck_assert_uint_eq(zeil_submission_count(f.list), 10);
    for (size_t i = 1; i < 4; i++)
        ck_assert_uint_gt(c.rec[i].seq, c.rec[i - 1].seq);
    stats_rows_t rows = {.n = 0};
    zeil_foreach_kernel_stats(collect_stats, &rows);
    const zeil_kernel_stats_t *row = find_row(&rows, f.list, 0, NULL);
    ck_assert(row && row->launches == 10);
    ZT_OK(zeMemFree(f.env.context, stamp));
    ZT_OK(zeKernelDestroy(k));
    zl_close(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("layer_records");
    TCase *tc = tcase_create("records");
    if (getenv("ZEIL_RECORDS")) {
        tcase_add_test(tc, test_window_folds_old_records);
    } else {
        tcase_add_test(tc, test_records_of_lists);
        tcase_add_test(tc, test_records_of_streams_and_counters);
        tcase_add_test(tc, test_cooperative_and_indirect_launches_recorded);
    }
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
