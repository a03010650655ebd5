/* zo_test_snapshot.c: a test's counters as the report's snapshot (see the
 * header). */
#include "zo_test_snapshot.h"

#include "zo_report_format.h"

#include <stdlib.h>
#include <string.h>

static const zeil_kernel_stats_t *test_kernels;
static size_t test_num_kernels;
static const zeil_rule_stats_t *test_rules;
static size_t test_num_rules;
static zeil_live_counts_t test_live;
static uint64_t test_errors, test_warnings;
static zeil_dropped_counts_t test_dropped;

void zo_test_set_counters(const zeil_kernel_stats_t *kernels, size_t num_kernels,
                          const zeil_rule_stats_t *rules, size_t num_rules,
                          const zeil_live_counts_t *live, uint64_t errors, uint64_t warnings)
{
    test_kernels = kernels;
    test_num_kernels = num_kernels;
    test_rules = rules;
    test_num_rules = num_rules;
    if (live)
        test_live = *live;
    else
        memset(&test_live, 0, sizeof test_live);
    test_errors = errors;
    test_warnings = warnings;
}

void zo_test_set_dropped(const zeil_dropped_counts_t *dropped)
{
    if (dropped)
        test_dropped = *dropped;
    else
        memset(&test_dropped, 0, sizeof test_dropped);
}

static int fill(zo_report_data_t *d)
{
    d->kernels = test_kernels;
    d->num_kernels = test_num_kernels;
    /* No labels: the report names tracks by handle values alone. */
    d->labels = test_num_kernels ? calloc(test_num_kernels, sizeof *d->labels) : NULL;
    zeil_rule_stats_t *fired = test_num_rules ? calloc(test_num_rules, sizeof *fired) : NULL;
    for (size_t i = 0; i < test_num_rules; i++)
        if (test_rules[i].count)
            fired[d->num_rules++] = test_rules[i];
    d->rules = fired;
    d->live = test_live;
    d->errors = test_errors;
    d->warnings = test_warnings;
    d->out_of_memory = test_dropped;
    /* coverage: zeros, no driver wrapped */
    return (test_num_kernels && !d->labels) || (test_num_rules && !fired) ? -1 : 0;
}

static void release(zo_report_data_t *d)
{
    free((void *)d->labels);
    free((void *)d->rules);
}

const zo_snapshot_source_t zo_test_snapshot = {.fill = fill, .release = release};
