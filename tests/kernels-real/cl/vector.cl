/* vector.cl: arithmetic of every scalar type at every vector width (the
 * buffers are arrays of the scalar type, read as vectors). Integers: ((x + y) * (x - y)) ^ (x >> 1); floating
 * point: (x + y) * (x - y). */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define IOP(x, y) (((x) + (y)) * ((x) - (y)) ^ ((x) >> 1))
#define FOP(x, y) (((x) + (y)) * ((x) - (y)))

#define SCALAR(T, OP)                                                                           \
    __kernel void vec_##T##1(__global const T *a, __global const T *b, __global T *c)        \
    {                                                                                           \
        size_t i = get_global_id(0);                                                            \
        c[i] = (T)OP(a[i], b[i]);                                                               \
    }
#define VECTOR(T, N, OP)                                                                        \
    __kernel void vec_##T##N(__global const T *a, __global const T *b, __global T *c)        \
    {                                                                                           \
        size_t i = get_global_id(0);                                                            \
        T##N x = ((__global const T##N *)a)[i], y = ((__global const T##N *)b)[i];              \
        ((__global T##N *)c)[i] = OP(x, y);                                                     \
    }
/* Three elements apart: a T3 in memory takes four. */
#define VECTOR3(T, OP)                                                                          \
    __kernel void vec_##T##3(__global const T *a, __global const T *b, __global T *c)        \
    {                                                                                           \
        size_t i = get_global_id(0);                                                            \
        T##3 x = (T##3)(a[3 * i], a[3 * i + 1], a[3 * i + 2]);                                  \
        T##3 y = (T##3)(b[3 * i], b[3 * i + 1], b[3 * i + 2]);                                  \
        T##3 r = OP(x, y);                                                                      \
        c[3 * i] = r.x;                                                                         \
        c[3 * i + 1] = r.y;                                                                     \
        c[3 * i + 2] = r.z;                                                                     \
    }
#define ALL(T, OP) SCALAR(T, OP) VECTOR(T, 2, OP) VECTOR3(T, OP) VECTOR(T, 4, OP) VECTOR(T, 8, OP) VECTOR(T, 16, OP)

ALL(char, IOP)
ALL(uchar, IOP)
ALL(short, IOP)
ALL(ushort, IOP)
ALL(int, IOP)
ALL(uint, IOP)
ALL(long, IOP)
ALL(ulong, IOP)
ALL(float, FOP)
ALL(double, FOP)
