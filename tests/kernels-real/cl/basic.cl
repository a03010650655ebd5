/* basic.cl: the first kernels of the end-to-end suite: arithmetic on
 * buffers, arguments of every kind, program-scope variables. */
__global int counter_base = 7;
__constant float scale_table[4] = {1.0f, 2.0f, 4.0f, 8.0f};

typedef struct pair {
    int a;
    float b;
} pair_t;

__kernel void saxpy(__global float *y, __global const float *x, float a)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

/* Every kind of argument: value, struct by value, constant pointer, a null
 * global pointer, a vector. */
__kernel void args_mix(__global int *out, pair_t p, __constant float *table, __global int *maybe_null, int4 v)
{
    size_t i = get_global_id(0);
    int extra = maybe_null ? maybe_null[i] : -1;
    out[i] = p.a + (int)(p.b * table[i & 3]) + extra + v.x + v.y * 10 + v.z * 100 + v.w * 1000 + counter_base;
}

__kernel void ids(__global uint *out)
{
    size_t gx = get_global_id(0), gy = get_global_id(1);
    size_t w = get_global_size(0);
    out[gy * w + gx] = (uint)(get_group_id(0) | get_group_id(1) << 8 | get_local_id(0) << 16 | get_local_id(1) << 24);
}

__kernel __attribute__((reqd_work_group_size(8, 2, 1))) void fixed_size(__global int *out)
{
    out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = (int)(get_local_size(0) * 100 + get_local_size(1));
}

__kernel void scale_by_table(__global float *out)
{
    size_t i = get_global_id(0);
    out[i] *= scale_table[i & 3];
}

/* Writes through whatever pointer it is given (a bad one faults). */
__kernel void write_through(__global int *p)
{
    p[get_global_id(0) * 1024] = 1;
}
