/*
 * Every entry of every table zeil knows a function type of, called through
 * zeil's generated (or hand-tuned) intercept, from a table generated with
 * them (zeil_entry_cases.h):
 *  - an entry taking a handle of a kind zeil tracks is called with such a
 *    handle already destroyed: zeil refuses it with E002 before the driver
 *    (the next driver's tables are left empty for these calls: reaching
 *    them would crash the test);
 *  - every other entry (drivers, devices, sysman, tools, none) is called
 *    with a live driver or device and zeros elsewhere through the reference
 *    driver's own tables, when the driver implements it (an entry it
 *    leaves null is never installed by the shim: the loader answers
 *    unsupported without zeil);
 *  - either way, ZEIL_LOG=calls shows exactly one line for the call, with
 *    every parameter by name.
 */
#include "zl.h"
#include "zt.h"

#include "zeil_entry_cases.h"

#include <check.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static zeil_next_t empty_next; /* never reached: zeil refuses first */
static zeil_next_t driver_next;
static unsigned char scratch[4096];

/* The reference driver's own tables, as the shim keeps them. */
static void open_driver_tables(void)
{
    const char *path = zeil_shim_next_driver(0);
    ck_assert_ptr_nonnull(path);
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    ck_assert_msg(lib != NULL, "dlopen %s: %s", path, dlerror());
#define GET_TABLE(getter, table, prefix) \
    { \
        typedef ze_result_t (*getter_fn)(ze_api_version_t, table *); \
        getter_fn get; \
        void *sym = dlsym(lib, #getter); \
        memcpy(&get, &sym, sizeof get); \
        if (get) \
            (void)get(ZEIL_INSTALLED_API_VERSION, (table *)(void *)&driver_next.ddi_##table); \
    }
    ZEIL_DDI_TABLES(GET_TABLE)
#undef GET_TABLE
}

/* The reference driver implements the entry (the shim installs zeil's
 * intercept only then). */
static int driver_has(const char *api)
{
#define DRIVER_HAS(table, member, pfn, name, params, args) \
    if (strcmp(api, #name) == 0) \
        return driver_next.ddi_##table.member != NULL;
    ZEIL_DDI_ENTRIES(DRIVER_HAS)
#undef DRIVER_HAS
    return 0;
}

/* A handle of each kind, destroyed. */
static const void *destroyed[ZEIL_KIND_COUNT];

static void make_destroyed(const zt_env_t *env)
{
    ze_command_queue_desc_t qd = {.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    ze_command_queue_handle_t queue;
    ZT_OK(zeCommandQueueCreate(env->context, env->device, &qd, &queue));
    ze_command_list_desc_t ld = {.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    ze_command_list_handle_t list;
    ZT_OK(zeCommandListCreate(env->context, env->device, &ld, &list));
    ze_fence_desc_t fd = {.stype = ZE_STRUCTURE_TYPE_FENCE_DESC};
    ze_fence_handle_t fence;
    ZT_OK(zeFenceCreate(queue, &fd, &fence));
    ze_event_pool_handle_t pool = zt_event_pool(env, 1, 0);
    ze_event_handle_t event = zt_event(pool, 0);
    ze_module_handle_t module = zt_load_test_module(env);
    uint32_t count = 1;
    const char *name = NULL;
    ZT_OK(zeModuleGetKernelNames(module, &count, &name));
    ze_kernel_desc_t kd = {.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC, .pKernelName = name};
    ze_kernel_handle_t kernel;
    ZT_OK(zeKernelCreate(module, &kd, &kernel));
    ze_context_desc_t cd = {.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    ze_context_handle_t context;
    ZT_OK(zeContextCreate(env->driver, &cd, &context));

    ZT_OK(zeKernelDestroy(kernel));
    ZT_OK(zeModuleDestroy(module));
    ZT_OK(zeEventDestroy(event));
    ZT_OK(zeEventPoolDestroy(pool));
    ZT_OK(zeFenceDestroy(fence));
    ZT_OK(zeCommandListDestroy(list));
    ZT_OK(zeCommandQueueDestroy(queue));
    ZT_OK(zeContextDestroy(context));
    destroyed[ZEIL_KIND_CONTEXT] = context;
    destroyed[ZEIL_KIND_COMMAND_QUEUE] = queue;
    destroyed[ZEIL_KIND_COMMAND_LIST] = list;
    destroyed[ZEIL_KIND_EVENT_POOL] = pool;
    destroyed[ZEIL_KIND_EVENT] = event;
    destroyed[ZEIL_KIND_FENCE] = fence;
    destroyed[ZEIL_KIND_MODULE] = module;
    destroyed[ZEIL_KIND_KERNEL] = kernel;
}

/* The lines of log containing needle. */
static unsigned count_lines_with(const char *log, const char *needle, const char **line_out)
{
    unsigned n = 0;
    for (const char *p = strstr(log, needle); p; p = strstr(p + 1, needle)) {
        n++;
        const char *start = p;
        while (start > log && start[-1] != '\n')
            start--;
        *line_out = start;
    }
    return n;
}

/* Exactly one calls-log line for the entry, naming every parameter. */
static void assert_one_call_line(const char *log, const zeil_entry_case_t *c)
{
    char needle[160];
    snprintf(needle, sizeof needle, " %s(", c->api);
    const char *line = NULL;
    unsigned lines = count_lines_with(log, needle, &line);
    ck_assert_msg(lines == 1, "%s: %u calls lines in: %s", c->api, lines, log);
    size_t len = strcspn(line, "\n");
    char params[512];
    snprintf(params, sizeof params, "%s", c->params);
    for (char *save, *p = strtok_r(params, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
        char arg[96];
        snprintf(arg, sizeof arg, "%s=", p);
        const char *found = strstr(line, arg);
        ck_assert_msg(found && found < line + len, "%s: no %s in its calls line: %.*s", c->api, arg,
                      (int)len, line);
    }
}

/* A finding names the argument by the entry's own parameter name ("hKernel",
 * "phWaitEvents[2]"), whatever the entry calls it. */
static void assert_names_a_parameter(const char *text, const zeil_entry_case_t *c)
{
    char name[64];
    ck_assert_msg(sscanf(text, " %63[A-Za-z0-9_]", name) == 1, "%s: no argument named in%s", c->api,
                  text);
    size_t n = strlen(name);
    const char *p = c->params;
    int found = 0;
    while (!found && (p = strstr(p, name)) != NULL) {
        found = (p == c->params || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0);
        p += n;
    }
    ck_assert_msg(found, "%s: the finding names '%s', not one of its parameters (%s):%s", c->api,
                  name, c->params, text);
}

START_TEST(every_entry_refuses_a_destroyed_handle_with_one_call_line)
{
    zt_env_t env;
    zt_open(&env);
    make_destroyed(&env);
    const zeil_intercepts_t *t = zeil_shim_intercepts();
    unsigned cases = 0;
    for (size_t i = 0; i < sizeof zeil_entry_cases / sizeof zeil_entry_cases[0]; i++) {
        const zeil_entry_case_t *c = &zeil_entry_cases[i];
        if (c->kind == ZEIL_KIND_UNKNOWN)
            continue;
        memset(scratch, 0, sizeof scratch);
        size_t mark = zl_log_mark();
        ze_result_t r = c->call(t, &empty_next, destroyed[c->kind], scratch);
        ck_assert_msg(r != ZE_RESULT_SUCCESS, "%s took a destroyed %s", c->api,
                      zeil_kind_name(c->kind));
        char *log = zl_log_since(mark);
        char finding[160];
        snprintf(finding, sizeof finding, "[ZEIL-E002] %s:", c->api);
        const char *at = strstr(log, finding);
        ck_assert_msg(at, "%s: no E002 for a destroyed %s: %s", c->api, zeil_kind_name(c->kind),
                      log);
        assert_names_a_parameter(at + strlen(finding), c);
        assert_one_call_line(log, c);
        free(log);
        cases++;
    }
    printf("every_entry: %u entries refused a destroyed handle with E002\n", cases);
    ck_assert_uint_ge(cases, 100);
}
END_TEST

START_TEST(every_other_entry_logs_one_call_line)
{
    zt_env_t env;
    zt_open(&env);
    open_driver_tables();
    const zeil_intercepts_t *t = zeil_shim_intercepts();
    unsigned called = 0, absent = 0;
    for (size_t i = 0; i < sizeof zeil_entry_cases / sizeof zeil_entry_cases[0]; i++) {
        const zeil_entry_case_t *c = &zeil_entry_cases[i];
        if (c->kind != ZEIL_KIND_UNKNOWN)
            continue;
        const void *h =
            c->live == ZEIL_KIND_DEVICE ? (const void *)env.device : (const void *)env.driver;
        if (!driver_has(c->api)) {
            absent++;
            continue;
        }
        memset(scratch, 0, sizeof scratch);
        size_t mark = zl_log_mark();
        ze_result_t r = c->call(t, &driver_next, h, scratch);
        /* The one entry here that creates something: a link log, written to
         * scratch like every other output. */
        ze_module_build_log_handle_t link_log;
        memcpy(&link_log, scratch, sizeof link_log);
        if (strcmp(c->api, "zeModuleDynamicLink") == 0 && r == ZE_RESULT_SUCCESS && link_log)
            ZT_OK(zeModuleBuildLogDestroy(link_log));
        char *log = zl_log_since(mark);
        assert_one_call_line(log, c);
        free(log);
        called++;
    }
    printf("every_entry: %u other entries logged, %u left null by the driver\n", called, absent);
    ck_assert_uint_gt(called, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("every_entry");
    TCase *tc = tcase_create("entries");
    tcase_add_test(tc, every_entry_refuses_a_destroyed_handle_with_one_call_line);
    tcase_add_test(tc, every_other_entry_logs_one_call_line);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
