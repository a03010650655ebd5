/*
 * zeil_bench: zeil's cost against the reference driver alone and against
 * the loader's stock validation and tracing layers.
 *
 *   zeil_bench [--quick] [--rounds N] [--callgrind] [--json FILE] [--only interop|scaling]
 *
 * --only interop runs the execute_overhead_us and matmul_ratio children alone
 * (about 10 s a round instead of 90 s for the whole run), for work on the
 * interop path that needs many rounds on a shared machine. --only scaling runs
 * the launch_scaling children alone (a few seconds a round), for anyone who
 * wants the figure on a machine with more cores.
 *
 * The parent never initialises Level Zero: it starts one child process per
 * configuration and round, interleaved (driver zeil zeil_trace
 * stock_validation stock_tracing, then the pointer lookup, the scaling
 * children (driver and zeil at each thread count) and the interop figures,
 * then the next round), so that a change in the machine's load
 * spreads over all configurations instead of favouring one. The children
 * are this program again with --child (bench_child.h).
 */
#include "bench_callgrind.h"
#include "bench_child.h"
#include "bench_configs.h"
#include "bench_report.h"
#include "bench_spawn.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define CHILD_TIMEOUT_S 120u
#define FULL_ROUNDS 7
#define QUICK_ROUNDS 3
#define QUICK_SCALE 0.01

typedef struct options {
    int quick, callgrind, rounds, only_interop, only_hazards, only_scaling;
    const char *json;
    bench_child_args_t child;
    int is_child;
} options_t;

void bench_emit(const char *figure, const char *column, double value)
{
    printf("%s %s %.6g\n", figure, column, value);
}

static void usage(void) __attribute__((noreturn));
static void usage(void)
{
    fprintf(stderr, "usage: zeil_bench [--quick] [--rounds N] [--callgrind] [--json FILE] "
                    "[--only interop|hazards|scaling]\n");
    exit(2);
}

static const char *value_of(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc)
        usage();
    return argv[++*i];
}

static options_t parse(int argc, char **argv)
{
    options_t o = {.json = "bench.json", .child = {.scale = 1.0}};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--quick") == 0)
            o.quick = 1;
        else if (strcmp(a, "--callgrind") == 0)
            o.callgrind = 1;
        else if (strcmp(a, "--rounds") == 0)
            o.rounds = atoi(value_of(argc, argv, &i));
        else if (strcmp(a, "--json") == 0)
            o.json = value_of(argc, argv, &i);
        else if (strcmp(a, "--only") == 0) {
            const char *what = value_of(argc, argv, &i);
            if (strcmp(what, "interop") == 0)
                o.only_interop = 1;
            else if (strcmp(what, "hazards") == 0)
                o.only_hazards = 1;
            else if (strcmp(what, "scaling") == 0)
                o.only_scaling = 1;
            else
                usage();
        } else if (strcmp(a, "--child") == 0)
            o.is_child = 1, o.child.mode = value_of(argc, argv, &i);
        else if (strcmp(a, "--config") == 0)
            o.child.config = value_of(argc, argv, &i);
        else if (strcmp(a, "--scale") == 0)
            o.child.scale = atof(value_of(argc, argv, &i));
        else if (strcmp(a, "--launches") == 0)
            o.child.launches = strtoull(value_of(argc, argv, &i), NULL, 10);
        else if (strcmp(a, "--threads") == 0)
            o.child.threads = (unsigned)atoi(value_of(argc, argv, &i));
        else if (strcmp(a, "--rss-after") == 0)
            o.child.rss_after = strtoull(value_of(argc, argv, &i), NULL, 10);
        else
            usage();
    }
    if (o.rounds == 0)
        o.rounds = o.quick ? QUICK_ROUNDS : FULL_ROUNDS;
    if (o.rounds < 1 || o.rounds > BENCH_MAX_ROUNDS)
        usage();
    if (o.only_interop + o.only_hazards + o.only_scaling > 1)
        usage();
    if (o.only_interop || o.only_hazards || o.only_scaling)
        o.callgrind = 0; /* scripts/bench asks for it by default; it counts launches only */
    return o;
}

static int run_child(const bench_child_args_t *args)
{
    if (!args->config)
        usage();
    if (strcmp(args->mode, "calls") == 0)
        return bench_child_calls(args);
    if (strcmp(args->mode, "lookup") == 0)
        return bench_child_lookup(args);
    if (strcmp(args->mode, "rss") == 0)
        return bench_child_rss(args);
    if (strcmp(args->mode, "launches") == 0)
        return bench_child_launches(args);
    if (strcmp(args->mode, "alloc_frees") == 0)
        return bench_child_alloc_frees(args);
    if (strcmp(args->mode, "events") == 0)
        return bench_child_events(args);
    if (strcmp(args->mode, "hazards") == 0)
        return bench_child_hazards(args);
    if (strcmp(args->mode, "hazard_scaling") == 0)
        return bench_child_hazard_scaling(args);
    if (strcmp(args->mode, "scaling") == 0)
        return bench_child_scaling(args);
    if (strcmp(args->mode, "kernels") == 0)
        return bench_child_kernels(args);
    if (strcmp(args->mode, "compile") == 0)
        return bench_child_compile(args);
    usage();
}

/* ---- the parent ---------------------------------------------------------- */

static void describe_machine(char *out, size_t cap)
{
    struct utsname u;
    uname(&u);
    char model[128] = "unknown CPU";
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
            snprintf(model, sizeof model, "%s", strchr(line, ':') + 2);
            model[strcspn(model, "\n")] = '\0';
            break;
        }
    if (f)
        fclose(f);
    snprintf(out, cap, "%s, %ld CPUs, %s %s %s", model, sysconf(_SC_NPROCESSORS_ONLN), u.sysname,
             u.release, u.machine);
}

static double load_now(void)
{
    double load[1] = {-1};
    return getloadavg(load, 1) == 1 ? load[0] : -1;
}

typedef struct parent {
    bench_paths_t paths;
    bench_run_t *run;
    char scale[32];
} parent_t;

static void child(parent_t *p, const bench_config_t *config, const char *tag, char *const argv[])
{
    if (bench_run_child(&p->paths, config, tag, argv, CHILD_TIMEOUT_S, &p->run->results) != 0)
        p->run->failed_children++;
}

static void hazard_children(parent_t *p, int round)
{
    const bench_config_t *hazards[] = {&bench_config_zeil, &bench_config_zeil_hazards};
    static const char *const modes[] = {"hazards", "hazard_scaling"};
    for (int m = 0; m < 2; m++)
        for (int h = 0; h < 2; h++) {
            char tag[64];
            snprintf(tag, sizeof tag, "%s-%s-r%d", modes[m], hazards[h]->name, round);
            char *argv[] = {(char *)p->paths.self,    "--child", (char *)modes[m], "--config",
                            (char *)hazards[h]->name, "--scale", p->scale,         NULL};
            child(p, hazards[h], tag, argv);
        }
}

/* The driver at each thread count, then zeil at each: a configuration's
 * children run back to back, so that the driver's ratio of 2 threads to 1
 * compares two processes a moment apart (bench_targets.c takes it round by
 * round); zeil's added figure is paired inside each child. */
static void scaling_children(parent_t *p, int round)
{
    const bench_config_t *configs[] = {&bench_config_driver, &bench_config_zeil};
    for (int c = 0; c < 2; c++) {
        for (unsigned i = 0; i < p->run->scaling_counts; i++) {
            char threads[16];
            snprintf(threads, sizeof threads, "%u", p->run->scaling_threads[i]);
            char tag[64];
            snprintf(tag, sizeof tag, "scaling-%s-%s-r%d", configs[c]->name, threads, round);
            char *argv[] = {
                (char *)p->paths.self, "--child", "scaling", "--config", (char *)configs[c]->name,
                "--threads",           threads,   "--scale", p->scale,   NULL};
            child(p, configs[c], tag, argv);
        }
    }
}

static void round_of_children(parent_t *p, int round, int only_interop, int only_scaling)
{
    char tag[64];
    if (p->run->only_hazards) {
        hazard_children(p, round);
        return;
    }
    if (only_scaling) {
        scaling_children(p, round);
        return;
    }
    for (int c = 0; c < BENCH_CALL_CONFIGS && !only_interop; c++) {
        const bench_config_t *config = &bench_call_configs[c];
        snprintf(tag, sizeof tag, "calls-%s-r%d", config->name, round);
        char *argv[] = {(char *)p->paths.self, "--child", "calls",  "--config",
                        (char *)config->name,  "--scale", p->scale, NULL};
        child(p, config, tag, argv);
    }
    if (!only_interop) {
        snprintf(tag, sizeof tag, "lookup-r%d", round);
        char *lookup[] = {(char *)p->paths.self,
                          "--child",
                          "lookup",
                          "--config",
                          "zeil",
                          "--scale",
                          p->scale,
                          NULL};
        child(p, &bench_config_zeil, tag, lookup);
        hazard_children(p, round);
        scaling_children(p, round);
        snprintf(tag, sizeof tag, "kernels-r%d", round);
        char *kernels[] = {(char *)p->paths.self,
                           "--child",
                           "kernels",
                           "--config",
                           "driver",
                           "--scale",
                           p->scale,
                           NULL};
        child(p, &bench_config_driver, tag, kernels);
        snprintf(tag, sizeof tag, "compile-r%d", round);
        char *compile[] = {(char *)p->paths.self, "--child", "compile", "--config", "driver", NULL};
        child(p, &bench_config_driver, tag, compile);
    }
    if (!p->paths.interop_exe)
        return;
    static const char *const sides[] = {"direct", "interop"};
    for (int s = 0; s < 2; s++) {
        snprintf(tag, sizeof tag, "execute-%s-r%d", sides[s], round);
        char *argv[] = {
            (char *)p->paths.interop_exe, "--mode", (char *)sides[s], "--scale", p->scale, NULL};
        child(p, s ? &bench_config_zeil : &bench_config_driver, tag, argv);
    }
}

static void rss_children(parent_t *p, int quick)
{
    char launches[24], after[24];
    snprintf(launches, sizeof launches, "%d", quick ? 200000 : 10000000);
    snprintf(after, sizeof after, "%d", quick ? 20000 : 100000);
    const bench_config_t *configs[] = {&bench_config_zeil, &bench_config_driver};
    for (int i = 0; i < 2; i++) {
        char tag[64];
        snprintf(tag, sizeof tag, "rss-%s", configs[i]->name);
        char *argv[] = {
            (char *)p->paths.self, "--child", "rss",         "--config", (char *)configs[i]->name,
            "--launches",          launches,  "--rss-after", after,      NULL};
        child(p, configs[i], tag, argv);
    }
}

/* matmul_ratio per round (the rounds pair the two sides in time), so that its
 * median and spread are reported like every other figure. */
static void matmul_ratios(bench_results_t *r)
{
    const bench_series_t *direct = bench_results_find(r, "matmul_us", "direct");
    const bench_series_t *interop = bench_results_find(r, "matmul_us", "interop");
    if (!direct || !interop)
        return;
    size_t n = direct->n < interop->n ? direct->n : interop->n;
    for (size_t i = 0; i < n; i++)
        if (direct->samples[i] > 0)
            bench_results_add(r, "matmul_ratio", "interop_over_direct",
                              interop->samples[i] / direct->samples[i]);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static int run_parent(const options_t *o)
{
    static bench_run_t run;
    static char self[4096], tmpdir[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return fprintf(stderr, "zeil_bench: cannot find my own executable\n"), 2;
    self[n] = '\0';
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/zeil-bench-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmpdir))
        return fprintf(stderr, "zeil_bench: cannot create %s\n", tmpdir), 2;
    parent_t p = {{self, BENCH_DRIVER_FILE, BENCH_ZEIL_FILE, BENCH_KERNELS_FILE,
                   access(BENCH_INTEROP_EXE, X_OK) == 0 ? BENCH_INTEROP_EXE : NULL, tmpdir},
                  &run,
                  ""};
    snprintf(p.scale, sizeof p.scale, "%g", o->quick ? QUICK_SCALE : 1.0);
    run.rounds = o->rounds;
    run.quick = o->quick;
    run.interop_built = p.paths.interop_exe != NULL;
    run.only_interop = o->only_interop;
    run.only_hazards = o->only_hazards;
    run.only_scaling = o->only_scaling;
    run.cores = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    run.scaling_counts =
        bench_scaling_thread_counts(run.cores, run.scaling_threads, BENCH_MAX_THREAD_COUNTS);
    if (o->only_interop && !run.interop_built)
        return fprintf(stderr, "zeil_bench: --only interop: zeil_bench_interop is missing\n"), 2;
    describe_machine(run.machine, sizeof run.machine);
    run.load_before = load_now();
    for (int r = 0; r < o->rounds; r++) {
        fprintf(stderr, "zeil_bench: round %d of %d\n", r + 1, o->rounds);
        round_of_children(&p, r, o->only_interop, o->only_scaling);
    }
    if (!o->only_interop && !o->only_hazards && !o->only_scaling) {
        fprintf(stderr, "zeil_bench: resident memory over %s launches\n",
                o->quick ? "200 000" : "10 000 000");
        rss_children(&p, o->quick);
    }
    if (o->callgrind) {
        fprintf(stderr, "zeil_bench: instruction counts (valgrind --tool=callgrind)\n");
        bench_callgrind_measure(&p.paths, &run.callgrind);
        if (!run.callgrind.measured)
            run.failed_children++;
    }
    run.load_after = load_now();
    matmul_ratios(&run.results);
    bench_report_print(&run, stdout);
    if (bench_report_write_json(&run, o->json) != 0)
        return fprintf(stderr, "zeil_bench: cannot write %s\n", o->json), 2;
    printf("\nwrote %s\n", o->json);
    if (run.failed_children)
        fprintf(stderr, "zeil_bench: logs of the failed processes are in %s\n", tmpdir);
    else
        nftw(tmpdir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
    return run.failed_children ? 1 : 0;
}

int main(int argc, char **argv)
{
    options_t o = parse(argc, argv);
    if (o.is_child)
        return run_child(&o.child);
    return run_parent(&o);
}
