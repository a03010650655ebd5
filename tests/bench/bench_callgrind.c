/* The callgrind runs and their totals. */
#include "bench_callgrind.h"

#include "bench_spawn.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CALLGRIND_TIMEOUT_S 300u

static const uint64_t launch_counts[2] = {10000, 40000};

static int find_valgrind(char *path, size_t cap)
{
    const char *dirs = getenv("PATH");
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", dirs ? dirs : "/usr/bin");
    for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir;
         dir = strtok_r(NULL, ":", &save)) {
        snprintf(path, cap, "%s/valgrind", dir);
        if (access(path, X_OK) == 0)
            return 1;
    }
    return 0;
}

/* The "totals:" (or, from older valgrinds, "summary:") line of the output. */
static int read_totals(const char *file, uint64_t *total)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return 0;
    char line[512];
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = sscanf(line, "totals: %" SCNu64, total) == 1 ||
                sscanf(line, "summary: %" SCNu64, total) == 1;
    fclose(f);
    return found;
}

/* mode: the child's ("launches", "alloc_frees" or "events"), count its --launches. */
static int run_one(const bench_paths_t *paths, const char *valgrind, const char *mode,
                   const bench_config_t *config, uint64_t launches, uint64_t *total)
{
    char tag[64], out_file[4200], out_arg[4300], count[24];
    snprintf(tag, sizeof tag, "callgrind-%s-%s-%" PRIu64, mode, config->name, launches);
    snprintf(out_file, sizeof out_file, "%s/%s.out", paths->tmpdir, tag);
    snprintf(out_arg, sizeof out_arg, "--callgrind-out-file=%s", out_file);
    snprintf(count, sizeof count, "%" PRIu64, launches);
    char *argv[] = {(char *)valgrind,
                    "--tool=callgrind",
                    out_arg,
                    (char *)paths->self,
                    "--child",
                    (char *)mode,
                    "--config",
                    (char *)config->name,
                    "--launches",
                    count,
                    NULL};
    static bench_results_t scratch;
    memset(&scratch, 0, sizeof scratch);
    if (bench_run_child(paths, config, tag, argv, CALLGRIND_TIMEOUT_S, &scratch) != 0)
        return 0;
    if (!read_totals(out_file, total)) {
        fprintf(stderr, "zeil_bench: %s has no totals line\n", out_file);
        return 0;
    }
    return 1;
}

/* Driver and zeil, mode's pairs at both counts: instructions per pair. */
static int measure_pairs(const bench_paths_t *paths, const char *valgrind, const char *mode,
                         uint64_t totals[2][2], double per_pair[2], double *added)
{
    const bench_config_t *sides[2] = {&bench_config_driver, &bench_config_zeil};
    for (int i = 0; i < 2; i++)
        for (int c = 0; c < 2; c++)
            if (!run_one(paths, valgrind, mode, sides[c], launch_counts[i], &totals[c][i]))
                return 0;
    double extra = (double)(launch_counts[1] - launch_counts[0]);
    for (int c = 0; c < 2; c++)
        per_pair[c] = ((double)totals[c][1] - (double)totals[c][0]) / extra;
    *added = per_pair[1] - per_pair[0];
    return 1;
}

void bench_callgrind_measure(const bench_paths_t *paths, bench_callgrind_t *out)
{
    memset(out, 0, sizeof *out);
    char valgrind[4200];
    if (!find_valgrind(valgrind, sizeof valgrind)) {
        fprintf(stderr, "zeil_bench: valgrind not found, no instruction counts\n");
        return;
    }
    for (int i = 0; i < 2; i++) {
        out->launches[i] = launch_counts[i];
        for (int c = 0; c < BENCH_CALL_CONFIGS; c++)
            if (!run_one(paths, valgrind, "launches", &bench_call_configs[c], launch_counts[i],
                         &out->totals[c][i]))
                return;
    }
    double extra = (double)(launch_counts[1] - launch_counts[0]);
    for (int c = 0; c < BENCH_CALL_CONFIGS; c++)
        out->per_launch[c] = ((double)out->totals[c][1] - (double)out->totals[c][0]) / extra;
    /* bench_call_configs: driver first, zeil second. */
    out->added_per_launch = out->per_launch[1] - out->per_launch[0];
    out->measured = 1;
    for (int i = 0; i < 2; i++)
        out->pairs[i] = launch_counts[i];
    out->alloc_free_measured = measure_pairs(paths, valgrind, "alloc_frees", out->alloc_free_totals,
                                             out->per_alloc_free, &out->added_per_alloc_free);
    out->events_measured = measure_pairs(paths, valgrind, "events", out->event_totals,
                                         out->per_event_pair, &out->added_per_event_pair);
}
