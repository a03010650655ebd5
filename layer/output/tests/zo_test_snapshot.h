/*
 * zo_test_snapshot.h: the snapshot a test hands to the output side
 * (zo_config_t.snapshot) in place of the runtime's: the rows and counts the
 * test set, copied into the report as the runtime's would be.
 */
#ifndef ZO_TEST_SNAPSHOT_H
#define ZO_TEST_SNAPSHOT_H

#include "zeil_output.h"

#include <zeil/zeil.h>

void zo_test_set_counters(const zeil_kernel_stats_t *kernels, size_t num_kernels,
                          const zeil_rule_stats_t *rules, size_t num_rules,
                          const zeil_live_counts_t *live, uint64_t errors, uint64_t warnings);
/* What zeil lost to failed allocations (zeros until set; null: zeros). */
void zo_test_set_dropped(const zeil_dropped_counts_t *dropped);

/* Fills the report from what the test set (rules that never fired left out,
 * as the runtime's snapshot does). */
extern const zo_snapshot_source_t zo_test_snapshot;

#endif
