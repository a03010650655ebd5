/*
 * fault_alloc.h: a fault-injecting allocator, the one stand-in of the
 * out-of-memory tests. The test executable defines the malloc family, so the
 * dynamic linker binds every library's calls here (zeil's, the loader's, the
 * driver's, oneDNN's, glibc's own); each call whose caller (its return
 * address) lies in the target library fails by the policy, every other one
 * is served by the real allocator (glibc's, or AddressSanitizer's in an ASan
 * build).
 *
 * The policy comes from ZEIL_TEST_FAULT_ALLOC, read before any library's
 * constructor runs (so a policy can fail the target's first allocation):
 *   unset            nothing is attributed or failed
 *   LIB:count        count LIB's allocations, fail none
 *   LIB:after:N      fail each of LIB's allocations after its first N
 *   LIB:every:K      fail every K-th of LIB's allocations
 *   LIB:nth:N        fail LIB's N-th allocation only (from 1)
 *   LIB:later        fail none until fault_alloc_fail_from_now(), then all
 * LIB is the start of the library's file name ("libzeil.so" is libzeil.so.*
 * only, not libzeil_layer.so or libzeil_interop.so).
 */
#ifndef ZEIL_TESTS_FAULT_ALLOC_H
#define ZEIL_TESTS_FAULT_ALLOC_H

#include <stdint.h>

typedef struct fault_alloc_counts {
    uint64_t seen;    /* allocations by the target library */
    uint64_t failed;  /* of which failed */
    int target_found; /* the target library is loaded */
} fault_alloc_counts_t;

/* The "later" policy: every allocation of the target fails from now on. */
void fault_alloc_fail_from_now(void);
fault_alloc_counts_t fault_alloc_counts(void);

#endif
