/* fake_zeil_counters.c: test double of zeil.h's counters (see the header). */
#include "fake_zeil_counters.h"

#include <string.h>

static const zeil_kernel_stats_t *fake_kernels;
static size_t fake_num_kernels;
static const zeil_rule_stats_t *fake_rules;
static size_t fake_num_rules;
static zeil_live_counts_t fake_live;
static uint64_t fake_errors, fake_warnings;
static zeil_dropped_counts_t fake_dropped;

void fake_zeil_set_counters(const zeil_kernel_stats_t *kernels, size_t num_kernels,
                            const zeil_rule_stats_t *rules, size_t num_rules,
                            const zeil_live_counts_t *live, uint64_t errors, uint64_t warnings)
{
    fake_kernels = kernels;
    fake_num_kernels = num_kernels;
    fake_rules = rules;
    fake_num_rules = num_rules;
    if (live)
        fake_live = *live;
    else
        memset(&fake_live, 0, sizeof fake_live);
    fake_errors = errors;
    fake_warnings = warnings;
}

size_t zeil_foreach_kernel_stats(zeil_kernel_stats_fn fn, void *user)
{
    size_t i = 0;
    while (i < fake_num_kernels && fn(&fake_kernels[i], user) == 0)
        i++;
    return i < fake_num_kernels ? i + 1 : i;
}

size_t zeil_foreach_rule(zeil_rule_stats_fn fn, void *user)
{
    size_t i = 0;
    while (i < fake_num_rules && fn(&fake_rules[i], user) == 0)
        i++;
    return i < fake_num_rules ? i + 1 : i;
}

void zeil_get_live_counts(zeil_live_counts_t *counts)
{
    *counts = fake_live;
}

uint64_t zeil_error_count(void)
{
    return fake_errors;
}

uint64_t zeil_warning_count(void)
{
    return fake_warnings;
}

void fake_zeil_set_dropped(const zeil_dropped_counts_t *dropped)
{
    if (dropped)
        fake_dropped = *dropped;
    else
        memset(&fake_dropped, 0, sizeof fake_dropped);
}

void zeil_get_dropped_counts(zeil_dropped_counts_t *counts)
{
    *counts = fake_dropped;
}

/* No labels: the report names tracks by handle values alone. */
size_t zeil_track_label(uint64_t stream_id, ze_command_list_handle_t list, char *buf,
                        size_t size)
{
    (void)stream_id;
    (void)list;
    if (buf && size)
        buf[0] = 0;
    return 0;
}

void zeil_get_coverage(zeil_coverage_t *coverage)
{
    memset(coverage, 0, sizeof *coverage); /* no driver wrapped */
}
