/*
 * zeil's launch path allocates nothing in steady state: with zeil
 * on, 10 000 launches on a warmed-up regular list make exactly the heap
 * calls that the same 10 000 launches make when given straight to the
 * reference driver (which copies each launch's arguments into a heap block
 * of its own), so zeil adds none.
 *
 * The same on an immediate list, where the reference driver hands each
 * command to the list's worker in a job it recycles (rd_immediate.h): warm
 * appends make no heap call at all, the driver's or zeil's.
 *
 * Counted by this program's own malloc family (counting_malloc.c), which
 * every library in the process calls. Registered twice: zeil with its
 * defaults, and zeil writing a trace.
 */
#include "counting_malloc.h"
#include "test_kernels.h"
#include "zt.h"

#include <zeil/zeil.h>

#include <dlfcn.h>
#include <level_zero/ze_ddi.h>
#include <stdio.h>
#include <stdlib.h>

#define LAUNCHES 10000u
/* More launches than a list's record window (ZEIL_RECORDS, 4096 by
 * default), so that the warm-up reaches the steady state in which records
 * are folded into counters. */
#define WARMUP_ROUNDS 3u

typedef struct launch_setup {
    zt_env_t env;
    ze_module_handle_t module;
    ze_kernel_handle_t kernel;
    ze_command_list_handle_t list;
    void *buffers[3];
} launch_setup_t;

static void set_up(launch_setup_t *s)
{
    zt_open(&s->env);
    ck_assert_msg(zeil_is_active(), "zeil is not active (ZE_ENABLE_LAYERS=zeil, libzeil.so "
                                    "preloaded?): this test would prove nothing");
    s->module = zt_load_test_module(&s->env);
    s->kernel = zt_kernel(s->module, TK_VECTOR_ADD);
    for (uint32_t i = 0; i < 3; i++) {
        s->buffers[i] = zt_usm_alloc(&s->env, ZT_USM_DEVICE, 64 * sizeof(float), 64);
        ZT_ARG(s->kernel, i, s->buffers[i]);
    }
    uint64_t n = 64;
    ZT_ARG(s->kernel, 3, n);
    ZT_OK(zeKernelSetGroupSize(s->kernel, 64, 1, 1));
    s->list = zt_regular_list(&s->env);
}

static void tear_down(launch_setup_t *s)
{
    ZT_OK(zeCommandListDestroy(s->list));
    ZT_OK(zeKernelDestroy(s->kernel));
    for (int i = 0; i < 3; i++)
        ZT_OK(zeMemFree(s->env.context, s->buffers[i]));
    ZT_OK(zeModuleDestroy(s->module));
    zt_close(&s->env);
}

/* The reference driver's own zeCommandListAppendLaunchKernel, past the
 * loader and zeil (with one driver, neither wraps the handles). */
static ze_pfnCommandListAppendLaunchKernel_t driver_append(void)
{
    const char *path = getenv("ZEIL_TEST_DRIVER");
    ck_assert_msg(path != NULL, "ZEIL_TEST_DRIVER is not set");
    void *driver = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    ck_assert_msg(driver != NULL, "the reference driver %s is not loaded: %s", path, dlerror());
    ze_pfnGetCommandListProcAddrTable_t get_table =
        (ze_pfnGetCommandListProcAddrTable_t)dlsym(driver, "zeGetCommandListProcAddrTable");
    ck_assert_ptr_nonnull(get_table);
    ze_command_list_dditable_t table;
    ZT_OK(get_table(ZE_API_VERSION_CURRENT, &table));
    ck_assert_ptr_nonnull(table.pfnAppendLaunchKernel);
    return table.pfnAppendLaunchKernel;
}

/* LAUNCHES appends with append, counted; the reset after is not counted. */
static counting_malloc_counts_t counted_launches(const launch_setup_t *s,
                                                 ze_pfnCommandListAppendLaunchKernel_t append)
{
    static const ze_group_count_t one_group = {1, 1, 1};
    ze_result_t failed = ZE_RESULT_SUCCESS;
    counting_malloc_start();
    for (unsigned i = 0; i < LAUNCHES; i++)
        failed |= append(s->list, s->kernel, &one_group, NULL, 0, NULL);
    counting_malloc_counts_t counts = counting_malloc_stop();
    ZT_OK(failed);
    ZT_OK(zeCommandListReset(s->list));
    return counts;
}

static const char *where(void *address)
{
    static char text[512];
    Dl_info info;
    if (!address)
        return "nowhere";
    if (!dladdr(address, &info) || !info.dli_fname)
        snprintf(text, sizeof text, "%p (unknown object)", address);
    else
        snprintf(text, sizeof text, "%p in %s (%s)", address, info.dli_sname ? info.dli_sname : "?",
                 info.dli_fname);
    return text;
}

/* LAUNCHES launches on `on` made the same heap calls with zeil as the
 * driver alone made, and none at all when none is set. */
static void expect_heap_calls(const char *on, counting_malloc_counts_t alone,
                              counting_malloc_counts_t with_zeil, int none)
{
    /* Only a failure message needs the callers' names. */
    char alone_first[512];
    snprintf(alone_first, sizeof alone_first, "%s", where(alone.first_caller));
    ck_assert_msg(with_zeil.allocations == alone.allocations && with_zeil.frees == alone.frees &&
                      (!none || alone.allocations + alone.frees == 0),
                  "%u launches on %s: the driver alone made %llu allocations and %llu frees "
                  "(first from %s), with zeil %llu and %llu (first from %s)",
                  LAUNCHES, on, (unsigned long long)alone.allocations,
                  (unsigned long long)alone.frees, alone_first,
                  (unsigned long long)with_zeil.allocations, (unsigned long long)with_zeil.frees,
                  where(with_zeil.first_caller));
}

START_TEST(zeil_adds_no_heap_call_to_a_warm_launch)
{
    launch_setup_t s;
    set_up(&s);
    ze_pfnCommandListAppendLaunchKernel_t driver = driver_append();
    for (unsigned w = 0; w < WARMUP_ROUNDS; w++) {
        counted_launches(&s, zeCommandListAppendLaunchKernel);
        counted_launches(&s, driver);
    }
    counting_malloc_counts_t alone = counted_launches(&s, driver);
    counting_malloc_counts_t with_zeil = counted_launches(&s, zeCommandListAppendLaunchKernel);
    expect_heap_calls("a regular list", alone, with_zeil, 0);
    ck_assert_uint_eq(zeil_submission_count(s.list), (WARMUP_ROUNDS + 1) * (uint64_t)LAUNCHES);
    tear_down(&s);
}
END_TEST

/* LAUNCHES appends to the immediate list, counted, with its worker held back
 * by gate until they are all made: every round has them all in flight at
 * once, so the first round made every job a later round needs (its
 * launches, the gate's barrier and the last barrier, of which only the last
 * may still be on its way back when the next round starts). */
static counting_malloc_counts_t counted_immediate_launches(
    const launch_setup_t *s, ze_command_list_handle_t list,
    ze_pfnCommandListAppendLaunchKernel_t append, ze_event_handle_t gate, ze_event_handle_t done)
{
    static const ze_group_count_t one_group = {1, 1, 1};
    ZT_OK(zeCommandListAppendBarrier(list, NULL, 1, &gate));
    ze_result_t failed = ZE_RESULT_SUCCESS;
    counting_malloc_start();
    for (unsigned i = 0; i < LAUNCHES; i++)
        failed |= append(list, s->kernel, &one_group, NULL, 0, NULL);
    counting_malloc_counts_t counts = counting_malloc_stop();
    ZT_OK(failed);
    ZT_OK(zeCommandListAppendBarrier(list, done, 0, NULL));
    ZT_OK(zeEventHostSignal(gate));
    ZT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    ZT_OK(zeEventHostReset(gate));
    ZT_OK(zeEventHostReset(done));
    return counts;
}

START_TEST(warm_immediate_launches_make_no_heap_call)
{
    launch_setup_t s;
    set_up(&s);
    ze_command_list_handle_t list = zt_immediate_list(&s.env, 0);
    ze_event_pool_handle_t pool = zt_event_pool(&s.env, 2, 0);
    ze_event_handle_t gate = zt_event(pool, 0), done = zt_event(pool, 1);
    ze_pfnCommandListAppendLaunchKernel_t driver = driver_append();
    for (unsigned w = 0; w < WARMUP_ROUNDS; w++) {
        counted_immediate_launches(&s, list, zeCommandListAppendLaunchKernel, gate, done);
        counted_immediate_launches(&s, list, driver, gate, done);
    }
    counting_malloc_counts_t alone = counted_immediate_launches(&s, list, driver, gate, done);
    counting_malloc_counts_t with_zeil =
        counted_immediate_launches(&s, list, zeCommandListAppendLaunchKernel, gate, done);
    expect_heap_calls("an immediate list", alone, with_zeil, 1);
    ZT_OK(zeEventDestroy(gate));
    ZT_OK(zeEventDestroy(done));
    ZT_OK(zeEventPoolDestroy(pool));
    ZT_OK(zeCommandListDestroy(list));
    tear_down(&s);
}
END_TEST

/* Without this the test above could pass with a counter that sees nothing:
 * allocations made inside the driver (a shared library) must be counted. */
START_TEST(counter_sees_allocations_inside_libraries)
{
    zt_env_t env;
    zt_open(&env);
    ze_host_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
    void *p = NULL;
    counting_malloc_start();
    ZT_OK(zeMemAllocHost(env.context, &desc, 4096, 64, &p));
    ZT_OK(zeMemFree(env.context, p));
    counting_malloc_counts_t counts = counting_malloc_stop();
    ck_assert_uint_ge(counts.allocations, 1);
    ck_assert_uint_ge(counts.frees, 1);
    zt_close(&env);
}
END_TEST

static Suite *launch_no_alloc_suite(void)
{
    Suite *suite = suite_create("launch_no_alloc");
    TCase *tc = tcase_create("steady_state");
    tcase_add_test(tc, counter_sees_allocations_inside_libraries);
    tcase_add_test(tc, zeil_adds_no_heap_call_to_a_warm_launch);
    tcase_add_test(tc, warm_immediate_launches_make_no_heap_call);
    suite_add_tcase(suite, tc);
    return suite;
}

int main(void)
{
    return zt_run_suite(launch_no_alloc_suite());
}
