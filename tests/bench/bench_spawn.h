/*
 * bench_spawn.h: running one child process in a configuration's
 * environment and taking its result lines.
 */
#ifndef ZEIL_BENCH_SPAWN_H
#define ZEIL_BENCH_SPAWN_H

#include "bench_configs.h"
#include "bench_results.h"

/* Runs argv (argv[0] an absolute path) with the configuration's environment,
 * its stderr to TMPDIR/TAG.log, killed after timeout_s seconds. On exit
 * status 0 with only well-formed result lines, adds them to results, removes
 * the log and returns 0; otherwise prints why and the end of the log to
 * stderr and returns -1 (adding nothing). */
int bench_run_child(const bench_paths_t *paths, const bench_config_t *config, const char *tag,
                    char *const argv[], unsigned timeout_s, bench_results_t *results);

#endif
