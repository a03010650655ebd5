/*
 * A stand-in for the built-in library (builtins/) while that is not built:
 * the OpenCL C work-item functions and barrier, enough for kernels that use
 * nothing else. Host C with the OpenCL C mangled names, compiled to bitcode
 * at build time; used only when ZEIL_CL_BUILTINS_BC is not set.
 */
#include "rd_workitem.h"

#include <stddef.h>

static __thread rd_wi_state_t *rd_rt_state;

void rd_rt_set_state(rd_wi_state_t *st);
void rd_rt_set_state(rd_wi_state_t *st)
{
    rd_rt_state = st;
}

#define ST rd_rt_state

size_t _Z13get_global_idj(unsigned d);
size_t _Z12get_local_idj(unsigned d);
size_t _Z12get_group_idj(unsigned d);
size_t _Z14get_local_sizej(unsigned d);
size_t _Z23get_enqueued_local_sizej(unsigned d);
size_t _Z15get_global_sizej(unsigned d);
size_t _Z14get_num_groupsj(unsigned d);
size_t _Z17get_global_offsetj(unsigned d);
unsigned _Z12get_work_dimv(void);
size_t _Z20get_global_linear_idv(void);
size_t _Z19get_local_linear_idv(void);
void _Z7barrierj(unsigned flags);
void _Z18work_group_barrierj(unsigned flags);

size_t _Z13get_global_idj(unsigned d)
{
    return d < 3 ? ST->group_id[d] * ST->local_size[d] + ST->local_id[d] + ST->global_offset[d] : 0;
}

size_t _Z12get_local_idj(unsigned d)
{
    return d < 3 ? ST->local_id[d] : 0;
}
size_t _Z12get_group_idj(unsigned d)
{
    return d < 3 ? ST->group_id[d] : 0;
}
size_t _Z14get_local_sizej(unsigned d)
{
    return d < 3 ? ST->local_size[d] : 1;
}
size_t _Z23get_enqueued_local_sizej(unsigned d)
{
    return d < 3 ? ST->local_size[d] : 1;
}
size_t _Z15get_global_sizej(unsigned d)
{
    return d < 3 ? ST->global_size[d] : 1;
}
size_t _Z14get_num_groupsj(unsigned d)
{
    return d < 3 ? ST->num_groups[d] : 1;
}
size_t _Z17get_global_offsetj(unsigned d)
{
    return d < 3 ? ST->global_offset[d] : 0;
}
unsigned _Z12get_work_dimv(void)
{
    return ST->work_dim;
}
size_t _Z19get_local_linear_idv(void)
{
    return ST->local_linear_id;
}

size_t _Z20get_global_linear_idv(void)
{
    return (_Z13get_global_idj(2) - ST->global_offset[2]) * ST->global_size[1] *
               ST->global_size[0] +
           (_Z13get_global_idj(1) - ST->global_offset[1]) * ST->global_size[0] +
           _Z13get_global_idj(0) - ST->global_offset[0];
}

void _Z7barrierj(unsigned flags)
{
    typedef void (*barrier_fn)(rd_wi_state_t *, rd_u32);
    barrier_fn fn = (barrier_fn)(size_t)ST->wg_barrier;
    if (fn)
        fn(ST, flags);
}

void _Z18work_group_barrierj(unsigned flags)
{
    _Z7barrierj(flags);
}

float _Z3madfff(float a, float b, float c);
float _Z3fmafff(float a, float b, float c);
double _Z3madddd(double a, double b, double c);
double _Z3fmaddd(double a, double b, double c);

float _Z3madfff(float a, float b, float c)
{
    return __builtin_fmaf(a, b, c);
}
float _Z3fmafff(float a, float b, float c)
{
    return __builtin_fmaf(a, b, c);
}
double _Z3madddd(double a, double b, double c)
{
    return __builtin_fma(a, b, c);
}
double _Z3fmaddd(double a, double b, double c)
{
    return __builtin_fma(a, b, c);
}
