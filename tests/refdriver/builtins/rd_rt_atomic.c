/*
 * rd_rt_atomic.c: the atomic operations of the OpenCL C built-ins (part of
 * rd_rt.bc). The spir64 target has no lock-free atomics (clang would call
 * __atomic_* library functions), so the library's atomics call these,
 * compiled for x86_64: each is one LLVM atomic instruction (a
 * compare-exchange loop for floating-point min and max) and inlines into
 * the kernel. Addresses travel as integers; orders are C11's (OpenCL's
 * memory_order has the same values); scopes do not matter on one coherent
 * host.
 */
#include "rd_rt.h"

#define RD_AT_PTR(T, a) ((volatile T *)(unsigned long)(a))

/* load, store, exchange, compare-exchange and the integer operations of T,
 * named by suffix S. */
#define RD_AT_COMMON(T, S) \
    T __zeil_atomic_load_##S(rd_u64 a, int o) \
    { \
        T r; \
        __atomic_load(RD_AT_PTR(T, a), &r, o == 3 || o == 4 ? 5 : o); \
        return r; \
    } \
    void __zeil_atomic_store_##S(rd_u64 a, T v, int o) \
    { \
        __atomic_store(RD_AT_PTR(T, a), &v, o == 2 || o == 4 ? 5 : o); \
    } \
    T __zeil_atomic_xchg_##S(rd_u64 a, T v, int o) \
    { \
        T r; \
        __atomic_exchange(RD_AT_PTR(T, a), &v, &r, o); \
        return r; \
    } \
    /* expected: the caller's private copy; failure orders weaker than release */ \
    int __zeil_atomic_cmpxchg_##S(rd_u64 a, rd_u64 expected, T desired, int weak, int os, int of) \
    { \
        of = of == 3 ? 0 : of == 4 ? 2 : of; \
        if (weak) \
            return __atomic_compare_exchange(RD_AT_PTR(T, a), (T *)(unsigned long)expected, \
                                             &desired, 1, os, of); \
        return __atomic_compare_exchange(RD_AT_PTR(T, a), (T *)(unsigned long)expected, &desired, \
                                         0, os, of); \
    }

/* The fetch-and-op of T named by suffix S: one atomic read-modify-write. */
#define RD_AT_FETCH(T, S, OP) \
    T __zeil_atomic_##OP##_##S(rd_u64 a, T v, int o) \
    { \
        return __atomic_fetch_##OP(RD_AT_PTR(T, a), v, o); \
    }

#define RD_AT_INT(T, S) \
    RD_AT_COMMON(T, S) \
    RD_AT_FETCH(T, S, add) \
    RD_AT_FETCH(T, S, sub) \
    RD_AT_FETCH(T, S, and) \
    RD_AT_FETCH(T, S, or) \
    RD_AT_FETCH(T, S, xor) \
    RD_AT_FETCH(T, S, min) \
    RD_AT_FETCH(T, S, max)

/* Floating-point min (KEEP <=) or max (KEEP >=) by compare-exchange on the
 * value, fmin/fmax's rule for NaN: the old value stays when it already
 * KEEPs against v, or v is NaN. */
#define RD_AT_FLOAT_EXTREME(T, S, OP, KEEP) \
    T __zeil_atomic_##OP##_##S(rd_u64 a, T v, int o) \
    { \
        T old = __zeil_atomic_load_##S(a, 0); \
        while (!(old KEEP v || v != v) && \
               !__atomic_compare_exchange(RD_AT_PTR(T, a), &old, &v, 1, o, 0)) \
            ; \
        return old; \
    }

/* Floating point: add and sub as atomic fadd and fsub, min and max as above. */
#define RD_AT_FLOAT(T, S) \
    RD_AT_COMMON(T, S) \
    RD_AT_FETCH(T, S, add) \
    RD_AT_FETCH(T, S, sub) \
    RD_AT_FLOAT_EXTREME(T, S, min, <=) \
    RD_AT_FLOAT_EXTREME(T, S, max, >=)

RD_AT_INT(int, i32)
RD_AT_INT(unsigned int, u32)
RD_AT_INT(long, i64)
RD_AT_INT(unsigned long, u64)
RD_AT_FLOAT(float, f32)
RD_AT_FLOAT(double, f64)

void __zeil_atomic_fence(int o)
{
    __atomic_thread_fence(o);
}
