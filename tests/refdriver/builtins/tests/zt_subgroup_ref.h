/*
 * zt_subgroup_ref.h: the expected results of k_subgroup.cl (zt_subgroup_ref.c).
 */
#ifndef ZEIL_ZT_SUBGROUP_REF_H
#define ZEIL_ZT_SUBGROUP_REF_H

#include <stdint.h>

#define ZT_SUBGROUP_FIELDS 24

/* Checks the outputs of total work-items in groups of local, sub-groups of
 * sgs: o (ZT_SUBGROUP_FIELDS ints each), the block-write area wo written from
 * blk. Failures go to zcl_fail. */
void zt_subgroup_check(const int *o, const uint32_t *blk, const uint32_t *wo, uint32_t total,
                       uint32_t local, uint32_t sgs);

#endif
