/*
 * Loading: the bootstrap pointed the loader at the shim and remembered the
 * reference driver; zeil is active and its registry sees what the
 * application creates; a child process derives the same next drivers
 * (idempotence); ZE_ENABLE_LAYERS by path; the calls log; leaks at exit
 * (W052); a loader that never opens the shim (W060); ZEIL_ON_ERROR=abort and
 * ZEIL_CHECKS. Children are this binary run again in a named mode.
 */
#include "zl.h"

#include <zeil/zeil.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* ---- child modes ---- */

static int child_status(void)
{
    ze_result_t r = zeInit(0);
    printf("init=%d active=%d enabled=%d alt=%s next=%s\n", r == ZE_RESULT_SUCCESS,
           zeil_is_active(), zeil_is_enabled(), getenv("ZE_ENABLE_ALT_DRIVERS"),
           getenv("ZEIL_BOOTSTRAP_NEXT"));
    return 0;
}

static void open_env(zt_env_t *env)
{
    uint32_t n = 1;
    if (zeInit(0) || zeDriverGet(&n, &env->driver) || zeDeviceGet(env->driver, &n, &env->device))
        exit(3);
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    if (zeContextCreate(env->driver, &desc, &env->context))
        exit(3);
}

static int child_leak(void)
{
    zt_env_t env;
    open_env(&env);
    ze_host_mem_alloc_desc_t host = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
    void *a, *b;
    zeMemAllocHost(env.context, &host, 1000, 0, &a);
    zeMemAllocHost(env.context, &host, 24, 0, &b);
    ze_event_pool_desc_t pd = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                               ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    ze_event_pool_handle_t pool;
    zeEventPoolCreate(env.context, &pd, 0, NULL, &pool);
    return 0; /* exit with everything alive */
}

static int child_overwrite_alt_drivers(void)
{
    /* What an application that sets its own driver list does. */
    setenv("ZE_ENABLE_ALT_DRIVERS", getenv("ZEIL_BOOTSTRAP_NEXT"), 1);
    zeInit(0);
    printf("active=%d\n", zeil_is_active());
    return 0;
}

static int child_double_free(void)
{
    zt_env_t env;
    open_env(&env);
    ze_host_mem_alloc_desc_t host = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
    void *a;
    zeMemAllocHost(env.context, &host, 64, 0, &a);
    zeMemFree(env.context, a);
    printf("second free -> 0x%x\n", (unsigned)zeMemFree(env.context, a));
    fflush(stdout);
    return 0;
}

static int child_execute_immediate(void)
{
    zt_env_t env;
    open_env(&env);
    ze_command_queue_desc_t qd = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_queue_handle_t queue;
    ze_command_list_handle_t list;
    zeCommandQueueCreate(env.context, env.device, &qd, &queue);
    zeCommandListCreateImmediate(env.context, env.device, &qd, &list);
    ze_result_t r = zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL);
    printf("result=0x%x E022=%llu errors=%llu\n", (unsigned)r,
           (unsigned long long)zeil_rule_count("ZEIL-E022"),
           (unsigned long long)zeil_error_count());
    return 0;
}

static const zl_child_mode_t child_modes[] = {
    {"status", child_status},
    {"leak", child_leak},
    {"overwrite-alt-drivers", child_overwrite_alt_drivers},
    {"double-free", child_double_free},
    {"execute-immediate", child_execute_immediate},
    {NULL, NULL},
};

/* ---- tests ---- */

static int ends_with(const char *s, const char *tail)
{
    size_t a = s ? strlen(s) : 0, b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

START_TEST(test_bootstrap_points_loader_at_shim)
{
    ck_assert(zeil_is_enabled());
    const char *alt = getenv("ZE_ENABLE_ALT_DRIVERS");
    ck_assert_msg(ends_with(alt, "/libzeil_layer.so") && !strchr(alt, ','),
                  "ZE_ENABLE_ALT_DRIVERS=%s", alt);
    ck_assert_str_eq(getenv("ZEIL_BOOTSTRAP_NEXT"), getenv("ZEIL_TEST_REFERENCE_DRIVER"));
    ck_assert_str_eq(getenv("ZEIL_BOOTSTRAP_SHIMS"), alt);
    ck_assert(!zeil_is_active()); /* nothing wrapped before zeInit */
    zt_env_t env;
    zt_open(&env);
    ck_assert(zeil_is_active());
    zt_close(&env);
}
END_TEST

START_TEST(test_registry_sees_objects)
{
    zt_env_t env;
    zt_open(&env);
    zeil_handle_info_t info;
    ck_assert(zeil_lookup_handle(env.driver, &info));
    ck_assert_int_eq(info.kind, ZEIL_KIND_DRIVER);
    ck_assert(zeil_lookup_handle(env.device, &info));
    ck_assert_int_eq(info.kind, ZEIL_KIND_DEVICE);
    ck_assert_ptr_eq(info.driver, env.driver);
    ck_assert(zeil_lookup_handle(env.context, &info));
    ck_assert_int_eq(info.kind, ZEIL_KIND_CONTEXT);
    ck_assert(info.alive);

    ze_command_queue_desc_t qd = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t imm = NULL;
    ZT_OK(zeCommandListCreateImmediate(env.context, env.device, &qd, &imm));
    ck_assert(zeil_lookup_handle(imm, &info));
    ck_assert_int_eq(info.kind, ZEIL_KIND_COMMAND_LIST);
    ck_assert(info.is_immediate);
    ck_assert(!info.is_in_order);
    ck_assert_ptr_eq(info.context, env.context);
    ck_assert_ptr_eq(info.device, env.device);
    ze_command_list_handle_t regular = zt_regular_list(&env);
    ck_assert(zeil_lookup_handle(regular, &info));
    ck_assert(!info.is_immediate && !info.is_closed && !info.is_in_order);
    ZT_OK(zeCommandListClose(regular));
    ck_assert(zeil_lookup_handle(regular, &info) && info.is_closed);

    char *p = zt_usm_alloc(&env, ZT_USM_DEVICE, 4096, 0);
    zeil_alloc_info_t ai;
    ck_assert_int_eq(zeil_lookup_pointer(p + 4095, &ai), 1);
    ck_assert_ptr_eq(ai.base, p);
    ck_assert_uint_eq(ai.size, 4096);
    ck_assert_int_eq(ai.type, ZE_MEMORY_TYPE_DEVICE);
    ck_assert_ptr_eq(ai.context, env.context);
    ck_assert_ptr_eq(ai.device, env.device);
    ck_assert_int_eq(zeil_lookup_pointer(p + 4096, NULL), 0);
    zeil_live_counts_t live;
    zeil_get_live_counts(&live);
    ck_assert_uint_eq(live.handles[ZEIL_KIND_COMMAND_LIST], 2);
    ck_assert_uint_eq(live.allocations, 1);
    ck_assert_uint_eq(live.allocation_bytes, 4096);

    uint64_t created = info.created_call;
    ZT_OK(zeCommandListDestroy(regular));
    ck_assert(zeil_lookup_handle(regular, &info));
    ck_assert(!info.alive);
    ck_assert_uint_eq(info.created_call, created);
    ck_assert_uint_gt(info.destroyed_call, created);
    ck_assert_uint_eq(info.destroyed_thread, 1);
    ZT_OK(zeMemFree(env.context, p));
    ck_assert_int_eq(zeil_lookup_pointer(p + 10, &ai), 2);
    ck_assert(!ai.alive);
    ZT_OK(zeCommandListDestroy(imm));
    zt_close(&env);
}
END_TEST

START_TEST(test_child_process_wraps_the_same_driver)
{
    char out[1024];
    int status = zl_run_child("status", NULL, out, sizeof out);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    char expected[1024];
    snprintf(expected, sizeof expected, "init=1 active=1 enabled=1 alt=%s next=%s\n",
             getenv("ZE_ENABLE_ALT_DRIVERS"), getenv("ZEIL_TEST_REFERENCE_DRIVER"));
    ck_assert_str_eq(out, expected);
}
END_TEST

START_TEST(test_layers_named_by_path)
{
    char path[1024];
    snprintf(path, sizeof path, "ZE_ENABLE_LAYERS=other, %s/libzeil_layer.so",
             getenv("ZEIL_TEST_LAYER_DIR"));
    const char *on[] = {path, NULL};
    char out[1024];
    zl_run_child("status", on, out, sizeof out);
    ck_assert_msg(strstr(out, "active=1 enabled=1"), "%s", out);
    const char *off[] = {"ZE_ENABLE_LAYERS=other,zeilx", NULL};
    zl_run_child("status", off, out, sizeof out);
    ck_assert_msg(strstr(out, "active=0 enabled=0"), "%s", out);
}
END_TEST

START_TEST(test_next_drivers_chosen)
{
    char drivers[1100], out[2048], expected[2048];
    snprintf(drivers, sizeof drivers, "ZEIL_DRIVERS=%s", getenv("ZEIL_TEST_REFERENCE_DRIVER"));
    /* ZEIL_DRIVERS wins over whatever ZE_ENABLE_ALT_DRIVERS says. */
    const char *chosen[] = {drivers, "ZE_ENABLE_ALT_DRIVERS=/nowhere/libze_nothing.so.1",
                            "ZEIL_BOOTSTRAP_SHIMS=", "ZEIL_BOOTSTRAP_NEXT=", NULL};
    zl_run_child("status", chosen, out, sizeof out);
    snprintf(expected, sizeof expected, "init=1 active=1 enabled=1 alt=%s next=%s\n",
             getenv("ZE_ENABLE_ALT_DRIVERS"), getenv("ZEIL_TEST_REFERENCE_DRIVER"));
    ck_assert_str_eq(out, expected);
    /* Neither set: the standard driver names, none of which this machine has,
     * so nothing changes and nothing is wrapped. */
    const char *none[] = {
        "ZE_ENABLE_ALT_DRIVERS=", "ZEIL_BOOTSTRAP_SHIMS=", "ZEIL_BOOTSTRAP_NEXT=", NULL};
    zl_run_child("status", none, out, sizeof out);
    ck_assert_str_eq(out, "init=0 active=0 enabled=1 alt=(null) next=(null)\n");
}
END_TEST

START_TEST(test_calls_log)
{
    char file[1024], var[1100];
    snprintf(file, sizeof file, "%s.calls", getenv("ZEIL_LOG_FILE"));
    remove(file);
    snprintf(var, sizeof var, "ZEIL_LOG_FILE=%s", file);
    const char *env[] = {"ZEIL_LOG=calls", var, NULL};
    char out[1024];
    int status = zl_run_child("leak", env, out, sizeof out);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    size_t size;
    char *text = zt_read_file(file, &size);
    text = realloc(text, size + 1);
    text[size] = 0;
    ck_assert_msg(strstr(text, " T1 zeMemAllocHost(hContext=context:0x") &&
                      strstr(text, "size=1000 alignment=") && strstr(text, "pptr=0x") &&
                      strstr(text, "->0x"),
                  "%s", text);
    ck_assert_msg(strstr(text, "-> ZE_RESULT_SUCCESS ("), "%s", text);
    free(text);
}
END_TEST

START_TEST(test_leaks_reported_at_exit)
{
    size_t mark = zl_log_mark();
    char out[256];
    int status = zl_run_child("leak", NULL, out, sizeof out);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    zl_assert_one_finding(mark, "ZEIL-W052", "exit",
                          "leaked 2 allocations (1024 bytes), 1 context, 1 event pool", NULL);
}
END_TEST

START_TEST(test_unwrapped_driver_reported_at_exit)
{
    size_t mark = zl_log_mark();
    char out[256];
    int status = zl_run_child("overwrite-alt-drivers", NULL, out, sizeof out);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ck_assert_str_eq(out, "active=0\n");
    zl_assert_one_finding(mark, "ZEIL-W060", "exit", "zeil was enabled but wrapped no driver",
                          NULL);
}
END_TEST

START_TEST(test_abort_on_error)
{
    size_t mark = zl_log_mark();
    const char *env[] = {"ZEIL_ON_ERROR=abort", NULL};
    char out[256];
    int status = zl_run_child("double-free", env, out, sizeof out);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, "status 0x%x", status);
    ck_assert_str_eq(out, ""); /* it never returned from the second free */
    zl_assert_one_finding(mark, "ZEIL-E012", "zeMemFree", "was already freed", NULL);
}
END_TEST

START_TEST(test_checks_switch_groups_off)
{
    char out[256];
    const char *off[] = {"ZEIL_CHECKS=-lists", NULL};
    size_t mark = zl_log_mark();
    zl_run_child("execute-immediate", off, out, sizeof out);
    /* The driver answers for itself, zeil counts nothing. */
    ck_assert_msg(strstr(out, "E022=0 errors=0"), "%s", out);
    ck_assert_msg(!strstr(out, "result=0x0 "), "%s", out);
    zl_assert_no_error(mark);
    const char *on[] = {"ZEIL_CHECKS=none,+lists", NULL};
    zl_run_child("execute-immediate", on, out, sizeof out);
    ck_assert_msg(strstr(out, "result=0x78000004 E022=1 errors=1"), "%s", out);
}
END_TEST

/* An unknown group is named in one warning, its control bytes escaped, so a
 * value from the environment cannot forge a log line. */
START_TEST(test_checks_unknown_group_cannot_forge_log_lines)
{
    char out[256];
    const char *env[] = {"ZEIL_CHECKS=-bogus\nzeil: error [ZEIL-E001] forged", NULL};
    size_t mark = zl_log_mark();
    zl_run_child("execute-immediate", env, out, sizeof out);
    char *text = zl_log_since(mark);
    ck_assert_msg(strstr(text, "unknown rule group 'bogus\\x0azeil: error [ZEIL-E001] forged'"),
                  "%s", text);
    ck_assert_msg(!strstr(text, "\nzeil: error [ZEIL-E001] forged"), "%s", text);
    free(text);
}
END_TEST

typedef struct rule_rows {
    zeil_rule_stats_t rows[64];
    size_t n;
} rule_rows_t;

static int collect_rule(const zeil_rule_stats_t *stats, void *user)
{
    rule_rows_t *c = user;
    if (c->n < 64)
        c->rows[c->n++] = *stats;
    return 0;
}

START_TEST(test_rule_table)
{
    size_t n = zeil_foreach_rule(NULL, NULL);
    ck_assert_uint_ge(n, 20);
    ck_assert_uint_le(n, 64);
    rule_rows_t c = {.n = 0};
    ck_assert_uint_eq(zeil_foreach_rule(collect_rule, &c), n);
    for (size_t i = 0; i < c.n; i++) {
        if (i)
            ck_assert_msg(strcmp(c.rows[i - 1].rule, c.rows[i].rule) < 0, "%s before %s",
                          c.rows[i - 1].rule, c.rows[i].rule);
        ck_assert_ptr_nonnull(c.rows[i].summary);
    }
    ck_assert_str_eq(c.rows[0].rule, "ZEIL-E001");
    /* the layer's rules only, sorted: the last is a layer warning (W0xx) */
    ck_assert_msg(strncmp(c.rows[c.n - 1].rule, "ZEIL-W0", 7) == 0, "last rule %s",
                  c.rows[c.n - 1].rule);
    zeil_register_rule("ZEIL-E150", ZEIL_SEVERITY_ERROR, "an interop rule");
    ck_assert_uint_eq(zeil_foreach_rule(NULL, NULL), n + 1);
    size_t mark = zl_log_mark();
    zeil_diagnostic(ZEIL_SEVERITY_ERROR, "ZEIL-E150", "dnnl_ze_interop_stream_create",
                    "list %p is not immediate", (void *)0x10);
    zl_assert_one_finding(mark, "ZEIL-E150", "dnnl_ze_interop_stream_create",
                          "zeil: error [ZEIL-E150]", "is not immediate", NULL);
    ck_assert_uint_eq(zeil_rule_count("ZEIL-E150"), 1);
}
END_TEST

int main(int argc, char **argv)
{
    zl_child_main(argc, argv, child_modes);
    Suite *s = suite_create("layer_loading");
    TCase *tc = tcase_create("loading");
    tcase_add_test(tc, test_bootstrap_points_loader_at_shim);
    tcase_add_test(tc, test_registry_sees_objects);
    tcase_add_test(tc, test_child_process_wraps_the_same_driver);
    tcase_add_test(tc, test_layers_named_by_path);
    tcase_add_test(tc, test_next_drivers_chosen);
    tcase_add_test(tc, test_calls_log);
    tcase_add_test(tc, test_leaks_reported_at_exit);
    tcase_add_test(tc, test_unwrapped_driver_reported_at_exit);
    tcase_add_test(tc, test_abort_on_error);
    tcase_add_test(tc, test_checks_switch_groups_off);
    tcase_add_test(tc, test_checks_unknown_group_cannot_forge_log_lines);
    tcase_add_test(tc, test_rule_table);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
