/*
 * The transparency suite: zeil must never change a correct program's
 * outcome. Each workload (transparency.h) runs from TP_THREADS threads in a
 * child process twice, without zeil and with it, with the reference driver
 * reusing freed handles and addresses first (ZEIL_CPU_REUSE=1, set by the
 * CMake). The suite passes when
 *   - every thread's transcript (each call's result, in order) is the same
 *     in both runs and every call succeeded,
 *   - zeil reported no error and no warning,
 *   - zeil's registry holds exactly the objects and allocations it held
 *     before the threads started.
 * The children are this executable run as `transparency_test --run NAME`,
 * which is also how the workloads are repeated by hand:
 *   ZE_ENABLE_LAYERS=zeil ZE_ENABLE_ALT_DRIVERS=... transparency_test --run events
 * exits 0 when the run was clean.
 *
 * ZEIL_TRANSPARENCY_REPS (default 2) runs each pair that many times;
 * ZEIL_TRANSPARENCY_ROUNDS sets each thread's rounds (default per workload,
 * lower under the sanitizers). ZEIL_TRANSPARENCY_SOAK=1 multiplies both by
 * ten: the long soak.
 */
#include "transparency.h"

#include "zt.h"

#include <zeil/zeil.h>

#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

typedef struct workload {
    const char *name;
    void (*run)(tp_thread_t *t);
    uint32_t rounds; /* per thread, by default */
    int needs_module;
} workload_t;

#ifndef TP_DEFAULT_SCALE
#define TP_DEFAULT_SCALE 1
#endif

static const workload_t workloads[] = {
    {"events", tp_events_workload, 400 / TP_DEFAULT_SCALE, 0},
    {"usm", tp_usm_workload, 400 / TP_DEFAULT_SCALE, 0},
    {"all", tp_all_kinds_workload, 40 / TP_DEFAULT_SCALE, 1},
};
#define WORKLOADS (sizeof workloads / sizeof workloads[0])

static unsigned long env_number(const char *name, unsigned long fallback)
{
    const char *value = getenv(name);
    char *end = NULL;
    unsigned long n = value ? strtoul(value, &end, 10) : 0;
    return value && *value && !*end && n ? n : fallback;
}

static int soak(void)
{
    return env_number("ZEIL_TRANSPARENCY_SOAK", 0) != 0;
}

/* ---- the child: one run of one workload ---- */

static const workload_t *running; /* set before the threads start */

static void *thread_main(void *arg)
{
    tp_thread_t *t = arg;
    t->rng = 0x9e3779b97f4a7c15ull * (uint64_t)(t->index + 1);
    t->hash = 0xcbf29ce484222325ull;
    running->run(t);
    return NULL;
}

static uint64_t live_difference(const zeil_live_counts_t *a, const zeil_live_counts_t *b)
{
    uint64_t d = 0;
    for (int k = 0; k < ZEIL_KIND_COUNT; k++)
        d += a->handles[k] > b->handles[k] ? a->handles[k] - b->handles[k]
                                           : b->handles[k] - a->handles[k];
    d += a->allocations > b->allocations ? a->allocations - b->allocations
                                         : b->allocations - a->allocations;
    return d;
}

/* Prints the transcript; 0 when every call succeeded, zeil said nothing and
 * its registry is back where it started. */
static int run_child(const char *name)
{
    const workload_t *w = NULL;
    for (size_t i = 0; i < WORKLOADS; i++)
        if (!strcmp(workloads[i].name, name))
            w = &workloads[i];
    if (!w) {
        fprintf(stderr, "transparency_test: no workload '%s'\n", name);
        return 2;
    }
    uint32_t rounds = (uint32_t)env_number("ZEIL_TRANSPARENCY_ROUNDS", w->rounds);
    if (soak())
        rounds *= 10;
    ze_driver_handle_t driver = NULL;
    ze_device_handle_t device = NULL;
    ze_context_handle_t context = NULL;
    ze_module_handle_t module = NULL;
    static uint8_t bytes[1 << 20];
    size_t size = 0;
    uint32_t n = 1;
    ze_context_desc_t context_desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    if (zeInit(0) || zeDriverGet(&n, &driver) || !n || (n = 1, zeDeviceGet(driver, &n, &device)) ||
        !n || zeContextCreate(driver, &context_desc, &context)) {
        fprintf(stderr, "transparency_test: no Level Zero device\n");
        return 2;
    }
    if (w->needs_module) {
        const char *path = getenv("ZEIL_TEST_KERNELS");
        FILE *f = path ? fopen(path, "rb") : NULL;
        size = f ? fread(bytes, 1, sizeof bytes, f) : 0;
        if (f)
            fclose(f);
        ze_module_desc_t desc = {
            ZE_STRUCTURE_TYPE_MODULE_DESC, NULL, ZE_MODULE_FORMAT_NATIVE, size, bytes, NULL, NULL};
        if (!size || zeModuleCreate(context, device, &desc, &module, NULL)) {
            fprintf(stderr, "transparency_test: cannot load ZEIL_TEST_KERNELS\n");
            return 2;
        }
    }
    zeil_live_counts_t before, after;
    zeil_get_live_counts(&before);
    running = w;
    static tp_thread_t threads[TP_THREADS];
    pthread_t ids[TP_THREADS];
    for (int i = 0; i < TP_THREADS; i++) {
        threads[i] = (tp_thread_t){.index = i,
                                   .driver = driver,
                                   .device = device,
                                   .context = context,
                                   .module = module,
                                   .module_bytes = bytes,
                                   .module_size = size,
                                   .iterations = rounds};
        if (pthread_create(&ids[i], NULL, thread_main, &threads[i]) != 0)
            return 2;
    }
    uint64_t failures = 0;
    for (int i = 0; i < TP_THREADS; i++) {
        pthread_join(ids[i], NULL);
        const tp_thread_t *t = &threads[i];
        failures += t->failures;
        printf("thread %d: %llu calls, %llu failed, transcript %016llx\n", i,
               (unsigned long long)t->calls, (unsigned long long)t->failures,
               (unsigned long long)t->hash);
        if (t->failures)
            fprintf(stderr, "transparency_test: %s thread %d: %s\n", name, i, t->first_failure);
    }
    zeil_get_live_counts(&after);
    uint64_t leftover = live_difference(&before, &after);
    if (module && zeModuleDestroy(module))
        failures++;
    if (zeContextDestroy(context))
        failures++;
    uint64_t errors = zeil_error_count(), warnings = zeil_warning_count();
    /* zeil's line: compared separately (it differs with zeil off). */
    printf("zeil: active %d, %llu errors, %llu warnings, %llu objects or allocations not as "
           "before\n",
           zeil_is_active(), (unsigned long long)errors, (unsigned long long)warnings,
           (unsigned long long)leftover);
    fflush(stdout);
    return failures || errors || warnings || leftover ? 1 : 0;
}

/* ---- the parent: pairs of children ---- */

/* Runs `self --run name` with ZE_ENABLE_LAYERS=zeil or without it; returns
 * its exit status (-1 when it died) and its output in out. */
static int spawn_child(const char *name, int with_zeil, char *out, size_t out_size)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 2, sizeof *env);
    ck_assert_ptr_nonnull(env);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "ZE_ENABLE_LAYERS=", 17) != 0)
            env[m++] = environ[i];
    if (with_zeil)
        env[m++] = "ZE_ENABLE_LAYERS=zeil";
    env[m] = NULL;
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    ck_assert_int_gt(len, 0);
    self[len] = 0;
    char *argv[] = {self, "--run", (char *)name, NULL};
    pid_t pid;
    ck_assert_int_eq(posix_spawn(&pid, self, &actions, NULL, argv, env), 0);
    posix_spawn_file_actions_destroy(&actions);
    free(env);
    close(fds[1]);
    size_t used = 0;
    ssize_t got;
    while ((got = read(fds[0], out + used, out_size - 1 - used)) > 0)
        used += (size_t)got;
    out[used] = 0;
    close(fds[0]);
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The thread lines of a transcript (everything before zeil's line). */
static size_t transcript_length(const char *out)
{
    const char *zeil = strstr(out, "zeil: ");
    return zeil ? (size_t)(zeil - out) : strlen(out);
}

static void compare_with_and_without_zeil(const char *name)
{
    unsigned long reps = env_number("ZEIL_TRANSPARENCY_REPS", 2) * (soak() ? 10 : 1);
    static char without[1 << 14], with[1 << 14];
    for (unsigned long rep = 0; rep < reps; rep++) {
        int plain = spawn_child(name, 0, without, sizeof without);
        ck_assert_msg(plain == 0, "%s without zeil, repetition %lu: exit %d\n%s", name, rep, plain,
                      without);
        int layered = spawn_child(name, 1, with, sizeof with);
        ck_assert_msg(layered == 0, "%s with zeil, repetition %lu: exit %d (-1: killed)\n%s", name,
                      rep, layered, with);
        ck_assert_msg(strstr(with, "zeil: active 1, 0 errors, 0 warnings, 0 objects") != NULL,
                      "%s: zeil was not active or not clean:\n%s", name, with);
        size_t a = transcript_length(without), b = transcript_length(with);
        ck_assert_msg(a == b && memcmp(without, with, a) == 0,
                      "%s, repetition %lu: transcripts differ\nwithout zeil:\n%s\nwith zeil:\n%s",
                      name, rep, without, with);
    }
}

START_TEST(events_created_and_destroyed_at_once)
{
    compare_with_and_without_zeil("events");
}
END_TEST

START_TEST(usm_allocated_used_and_freed_at_once)
{
    compare_with_and_without_zeil("usm");
}
END_TEST

START_TEST(every_object_kind_created_and_destroyed_at_once)
{
    compare_with_and_without_zeil("all");
}
END_TEST

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--run"))
        return run_child(argv[2]);
    Suite *suite = suite_create("transparency");
    TCase *tc = tcase_create("threads");
    tcase_set_timeout(tc, soak() ? 3600 : 240);
    tcase_add_test(tc, events_created_and_destroyed_at_once);
    tcase_add_test(tc, usm_allocated_used_and_freed_at_once);
    tcase_add_test(tc, every_object_kind_created_and_destroyed_at_once);
    suite_add_tcase(suite, tc);
    return zt_run_suite(suite);
}
