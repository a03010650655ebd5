/*
 * fake_zeil_counters.h: a test double of the zeil.h counter functions that
 * layer/output calls (libzeil.so defines the real ones). Tests set the rows
 * the fake then reports.
 */
#ifndef FAKE_ZEIL_COUNTERS_H
#define FAKE_ZEIL_COUNTERS_H

#include <zeil/zeil.h>

void fake_zeil_set_counters(const zeil_kernel_stats_t *kernels, size_t num_kernels,
                            const zeil_rule_stats_t *rules, size_t num_rules,
                            const zeil_live_counts_t *live, uint64_t errors, uint64_t warnings);
/* What zeil_get_dropped_counts reports (zeros until set; null: zeros). */
void fake_zeil_set_dropped(const zeil_dropped_counts_t *dropped);

#endif
