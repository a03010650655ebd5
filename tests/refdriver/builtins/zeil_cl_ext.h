/*
 * zeil_cl_ext.h: declarations of built-ins that the reference driver's
 * OpenCL C library implements and clang-15's opencl-c.h lacks:
 * cl_intel_subgroups_char and cl_intel_subgroups_long (shuffles, broadcasts,
 * block reads and writes of uchar and ulong) and the block reads and writes
 * of local memory (cl_intel_subgroup_local_block_io). The compiler
 * -includes it after the default header for OpenCL C and SPIR-V-derived
 * code; the library includes it too, and its generator defines every
 * overload declared here.
 */
#ifndef ZEIL_CL_EXT_H
#define ZEIL_CL_EXT_H

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#ifndef cl_intel_subgroups_char
#define cl_intel_subgroups_char 1
#endif
#ifndef cl_intel_subgroups_long
#define cl_intel_subgroups_long 1
#endif
#ifndef cl_intel_subgroup_local_block_io
#define cl_intel_subgroup_local_block_io 1
#endif

#define ZEIL_CL_DECL __attribute__((overloadable)) __attribute__((convergent))

/* Shuffles and broadcast of one type T. */
#define ZEIL_CL_SHUFFLES(T) \
    T ZEIL_CL_DECL intel_sub_group_shuffle(T, uint); \
    T ZEIL_CL_DECL intel_sub_group_shuffle_xor(T, uint); \
    T ZEIL_CL_DECL intel_sub_group_shuffle_down(T, T, uint); \
    T ZEIL_CL_DECL intel_sub_group_shuffle_up(T, T, uint); \
    T ZEIL_CL_DECL intel_sub_group_broadcast(T, uint)
#define ZEIL_CL_SHUFFLES_V(T) \
    ZEIL_CL_SHUFFLES(T); \
    ZEIL_CL_SHUFFLES(T##2); \
    ZEIL_CL_SHUFFLES(T##3); \
    ZEIL_CL_SHUFFLES(T##4); \
    ZEIL_CL_SHUFFLES(T##8); \
    ZEIL_CL_SHUFFLES(T##16)

/* Block reads and writes of T, suffix S, at address space AS. */
#define ZEIL_CL_BLOCK(T, S, AS) \
    T ZEIL_CL_DECL intel_sub_group_block_read##S(const AS T *); \
    T##2 ZEIL_CL_DECL intel_sub_group_block_read##S##2(const AS T *); \
    T##4 ZEIL_CL_DECL intel_sub_group_block_read##S##4(const AS T *); \
    T##8 ZEIL_CL_DECL intel_sub_group_block_read##S##8(const AS T *); \
    void ZEIL_CL_DECL intel_sub_group_block_write##S(AS T *, T); \
    void ZEIL_CL_DECL intel_sub_group_block_write##S##2(AS T *, T##2); \
    void ZEIL_CL_DECL intel_sub_group_block_write##S##4(AS T *, T##4); \
    void ZEIL_CL_DECL intel_sub_group_block_write##S##8(AS T *, T##8)
#define ZEIL_CL_BLOCK16(T, S, AS) \
    T##16 ZEIL_CL_DECL intel_sub_group_block_read##S##16(const AS T *); \
    void ZEIL_CL_DECL intel_sub_group_block_write##S##16(AS T *, T##16)

/* cl_intel_subgroups_char */
ZEIL_CL_SHUFFLES_V(char);
ZEIL_CL_SHUFFLES_V(uchar);
ZEIL_CL_BLOCK(uchar, _uc, __global);
ZEIL_CL_BLOCK16(uchar, _uc, __global);
ZEIL_CL_BLOCK(uchar, _uc, __local);
ZEIL_CL_BLOCK16(uchar, _uc, __local);

/* cl_intel_subgroups_long: vectors of long (the scalars are in opencl-c.h) */
ZEIL_CL_SHUFFLES(long2);
ZEIL_CL_SHUFFLES(long3);
ZEIL_CL_SHUFFLES(long4);
ZEIL_CL_SHUFFLES(long8);
ZEIL_CL_SHUFFLES(long16);
ZEIL_CL_SHUFFLES(ulong2);
ZEIL_CL_SHUFFLES(ulong3);
ZEIL_CL_SHUFFLES(ulong4);
ZEIL_CL_SHUFFLES(ulong8);
ZEIL_CL_SHUFFLES(ulong16);
long ZEIL_CL_DECL intel_sub_group_broadcast(long, uint);
ulong ZEIL_CL_DECL intel_sub_group_broadcast(ulong, uint);
ZEIL_CL_BLOCK(ulong, _ul, __global);
ZEIL_CL_BLOCK(ulong, _ul, __local);

/* 16-wide block reads of ushort; local block reads of uint and ushort */
ZEIL_CL_BLOCK16(ushort, _us, __global);
ZEIL_CL_BLOCK(uint, , __local);
ZEIL_CL_BLOCK(uint, _ui, __local);
ZEIL_CL_BLOCK(ushort, _us, __local);
ZEIL_CL_BLOCK16(ushort, _us, __local);

#undef ZEIL_CL_SHUFFLES
#undef ZEIL_CL_SHUFFLES_V
#undef ZEIL_CL_BLOCK
#undef ZEIL_CL_BLOCK16
#undef ZEIL_CL_DECL

#endif
