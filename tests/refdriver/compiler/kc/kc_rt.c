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
