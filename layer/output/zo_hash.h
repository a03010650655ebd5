/* zo_hash.h: the hash the output side's fixed-size tables place keys with
 * (event handles in zo_trace_flows.c, stream/list pairs in zo_trace_writer.c). */
#ifndef ZO_HASH_H
#define ZO_HASH_H

#include <stdint.h>

/* The first half of MurmurHash3's 64-bit finalizer: handles and small
 * numbers differ in few (and low or aligned) bits; this spreads them over
 * the whole word before a modulo picks a slot. */
static inline uint64_t zo_hash_mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

#endif
