/*
 * test_kernels.h: what the test kernel library (zeil_test_kernels) promises
 * its callers: kernel names, argument order and the layout of the records the
 * kernels write. Suites and kernels include this one header so they cannot
 * drift apart.
 *
 * All kernels index work-items linearly in dimension 0 (global id =
 * group_id[0] * group_size[0] + local id) unless said otherwise, and ignore
 * work-items at or beyond n, so a launch may cover more than n items.
 */
#ifndef ZEIL_TEST_KERNELS_H
#define ZEIL_TEST_KERNELS_H

#include <stdint.h>

/* vector_add(const float *a, const float *b, float *c, uint64_t n):
 * c[i] = a[i] + b[i]. */
#define TK_VECTOR_ADD "vector_add"

/* reduce_sum(const float *in, float *partials, uint64_t n): every group
 * writes the sum of its elements of in to partials[group_id[0]]. */
#define TK_REDUCE_SUM "reduce_sum"

/* scale(double *out, const float *in, uint64_t n, uint8_t a8, uint16_t a16,
 *       uint32_t a32, uint64_t a64, float f32, double f64, tk_blob24_t blob,
 *       tk_scale_echo_t *echo):
 * out[i] = in[i] * f64, and the first work-item of group 0 copies every scalar
 * argument into *echo, so a test sees each value exactly as it arrived. The
 * sizes alternate so that a driver packing arguments wrongly garbles them. */
#define TK_SCALE "scale"
#define TK_SCALE_NUM_ARGS 11u

typedef struct tk_blob24 {
    uint32_t words[6];
} tk_blob24_t;

typedef struct tk_scale_echo {
    uint64_t a64;
    double f64;
    uint32_t a32;
    float f32;
    uint16_t a16;
    uint8_t a8;
    uint8_t written; /* set to 1 by the kernel */
    tk_blob24_t blob;
} tk_scale_echo_t;

/* record_geometry(tk_geometry_t *records): every group writes its record at
 * index group_id[0] + group_count[0] * (group_id[1] + group_count[1] *
 * group_id[2]) and atomically counts how often it ran. */
#define TK_RECORD_GEOMETRY "record_geometry"

typedef struct tk_geometry {
    uint32_t group_id[3];
    uint32_t group_size[3];
    uint32_t group_count[3];
    uint32_t runs; /* incremented atomically by each call for this group */
    uint64_t global_size[3];
} tk_geometry_t;

/* spin(uint64_t microseconds, uint64_t *finished_ns): every group busy-waits
 * the given time, then (when finished_ns is not null) writes
 * CLOCK_MONOTONIC in nanoseconds to finished_ns[group_id[0]]. */
#define TK_SPIN "spin"

/* stamp(uint64_t *started_ns): group 0 writes CLOCK_MONOTONIC in nanoseconds
 * to *started_ns when it starts. */
#define TK_STAMP "stamp"

/* null_probe(uint32_t *out, <any 8-byte argument>): out[0] = 1 when the
 * second argument was set with a null pArgValue (the ABI then passes a null
 * args[1]), 0 otherwise. */
#define TK_NULL_PROBE "null_probe"

/* The number of kernels in zeil_test_kernels. */
#define TK_NUM_KERNELS 7u

/* The second module (zeil_test_kernels_other). */
/* negate(float *x, uint64_t n): x[i] = -x[i]. */
#define TK_OTHER_NEGATE "negate"
/* iota(uint32_t *out, uint64_t n): out[i] = i. */
#define TK_OTHER_IOTA "iota"

#endif
