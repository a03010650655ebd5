/*
 * The part of the kernel runtime that zeil-cpu-kc's entries call (kc_wrap.c):
 * entering a work-item (the thread's current state, which the built-ins
 * read, held by the built-in library's runtime: rd_rt_set_state) and
 * writing a work-item's ids in the direct loop (rd_workitem.h's seek and
 * step). Compiled to host bitcode at build time, linked into every module,
 * then inlined.
 */
#include "rd_workitem.h"

void rd_rt_set_state(rd_wi_state_t *st);

void rd_kc_enter(rd_wi_state_t *st);
void rd_kc_first(rd_wi_state_t *st, rd_u32 first);
void rd_kc_next(rd_wi_state_t *st);

void rd_kc_enter(rd_wi_state_t *st)
{
    rd_rt_set_state(st);
}

void rd_kc_first(rd_wi_state_t *st, rd_u32 first)
{
    rd_wi_seek(st, first);
}

/* The next work-item in linear order (x fastest). */
void rd_kc_next(rd_wi_state_t *st)
{
    rd_wi_step(st);
}

/* The 1-D direct loop (kc_wrap.c): the group has one row of work-items. */
rd_u32 rd_kc_is_1d(const rd_wi_state_t *st);
void rd_kc_d1_enter(rd_wi_state_t *priv, rd_wi_state_t *st);
void rd_kc_seek1(rd_wi_state_t *st, rd_u32 linear);

rd_u32 rd_kc_is_1d(const rd_wi_state_t *st)
{
    return st->local_size[1] == 1 && st->local_size[2] == 1;
}

/* The loop's own copy of the state, made the thread's state; st's ids say
 * that the running work-item is not known (the fault report's). */
void rd_kc_d1_enter(rd_wi_state_t *priv, rd_wi_state_t *st)
{
    *priv = *st;
    st->local_id[0] = st->local_id[1] = st->local_id[2] = RD_WI_ID_UNKNOWN;
    rd_rt_set_state(priv);
}

/* rd_wi_seek for a group of one row: no division but the sub-group's. */
void rd_kc_seek1(rd_wi_state_t *st, rd_u32 linear)
{
    st->local_id[0] = linear;
    st->local_id[1] = 0;
    st->local_id[2] = 0;
    st->local_linear_id = linear;
    st->sg_id = linear / st->max_sg_size;
    st->sg_local_id = linear - st->sg_id * st->max_sg_size;
    st->sg_size = rd_wi_sg_size(st, st->sg_id);
    st->xchg_parity = 0;
    st->sg_xchg = st->sg_xchg_base + (rd_u64)st->sg_id * RD_XCHG_BYTES;
}
