/*
 * The part of the kernel runtime that zeil-cpu-kc's entries call (kc_wrap.c):
 * entering a work-item (the thread's current state, which the built-ins
 * read) and writing a work-item's ids in the direct loop. Compiled to host
 * bitcode at build time and linked into every module, then inlined.
 */
#include "rd_workitem.h"

/* The calling thread's current work-item state (weak: the built-in
 * library's runtime may define it). */
__attribute__((weak)) __thread rd_wi_state_t *rd_rt_state;

void rd_kc_enter(rd_wi_state_t *st);
void rd_kc_first(rd_wi_state_t *st, rd_u32 first);
void rd_kc_next(rd_wi_state_t *st);

void rd_kc_enter(rd_wi_state_t *st)
{
    rd_rt_state = st;
}

static void sub_group_of(rd_wi_state_t *st, rd_u32 lin)
{
    rd_u32 sg = st->max_sg_size ? st->max_sg_size : 1;
    st->sg_id = lin / sg;
    st->sg_local_id = lin % sg;
    rd_u32 rest = st->local_linear_size - st->sg_id * sg;
    st->sg_size = rest < sg ? rest : sg;
}

void rd_kc_first(rd_wi_state_t *st, rd_u32 first)
{
    rd_u32 lx = st->local_size[0], ly = st->local_size[1];
    st->local_linear_id = first;
    st->local_id[0] = first % lx;
    st->local_id[1] = first / lx % ly;
    st->local_id[2] = first / (lx * ly);
    sub_group_of(st, first);
}

/* The next work-item in linear order (x fastest). */
void rd_kc_next(rd_wi_state_t *st)
{
    rd_u32 lin = ++st->local_linear_id;
    if (++st->local_id[0] == st->local_size[0]) {
        st->local_id[0] = 0;
        if (++st->local_id[1] == st->local_size[1]) {
            st->local_id[1] = 0;
            st->local_id[2]++;
        }
    }
    if (++st->sg_local_id == st->sg_size)
        sub_group_of(st, lin);
}
