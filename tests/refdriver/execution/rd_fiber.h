/*
 * rd_fiber.h: fibers for work-items: a stack with a guard page below it,
 * and the switch between two fibers of one thread (rd_fiber_x86_64.S),
 * told to the sanitizers (ASan: the stack in use; TSan: the fiber running)
 * so that both keep working across switches.
 */
#ifndef ZEIL_RD_FIBER_H
#define ZEIL_RD_FIBER_H

#include <stddef.h>

#if defined(__SANITIZE_ADDRESS__)
#define RD_FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RD_FIBER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define RD_FIBER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RD_FIBER_TSAN 1
#endif
#endif

#ifdef RD_FIBER_ASAN
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef RD_FIBER_TSAN
#include <sanitizer/tsan_interface.h>
#endif

typedef struct rd_fiber {
    void *sp;          /* saved stack pointer while switched out */
    void *stack;       /* lowest usable byte of the stack */
    size_t stack_size; /* usable bytes */
    void *map;         /* the mapping (guard page first), null for a thread's own stack */
    size_t map_size;
    void *tsan;      /* TSan's fiber */
    void *asan_fake; /* ASan's fake stack while switched out */
    size_t colour;   /* bytes left unused at the top (rd_fiber_create) */
} rd_fiber_t;

/* Bytes of a work-item's stack (pages are committed as they are touched). */
#ifdef RD_FIBER_ASAN
#define RD_FIBER_STACK (512u * 1024u)
#else
#define RD_FIBER_STACK (128u * 1024u)
#endif

/* Saves the callee-saved registers and the stack pointer in *save_sp, loads
 * to_sp's (rd_fiber_x86_64.S). */
void rd_fiber_switch(void **save_sp, void *to_sp);

/* The calling thread's own stack as a fiber to switch from and back to. */
void rd_fiber_init_thread(rd_fiber_t *f);
void rd_fiber_fini_thread(rd_fiber_t *f);

/* A fiber with its own stack (RD_FIBER_STACK bytes above a guard page):
 * 0, or -1 when the memory cannot be had. Fibers made one after the other
 * start their stacks at different offsets in a page (`index` tells which),
 * so that the hot top frames of many fibers do not all fall into the same
 * cache sets. */
int rd_fiber_create(rd_fiber_t *f, unsigned index);
void rd_fiber_destroy(rd_fiber_t *f);

/* Writes the first frame: the next switch to f calls entry(arg), which must
 * call rd_fiber_started first and never return. */
void rd_fiber_prepare(rd_fiber_t *f, void (*entry)(void *), void *arg);
void rd_fiber_started(void);

/* Switches from the running fiber `from` to `to`; returns when switched
 * back to. */
static inline void rd_fiber_jump(rd_fiber_t *from, rd_fiber_t *to)
{
#ifdef RD_FIBER_ASAN
    __sanitizer_start_switch_fiber(&from->asan_fake, to->stack, to->stack_size);
#endif
#ifdef RD_FIBER_TSAN
    __tsan_switch_to_fiber(to->tsan, 0);
#endif
    rd_fiber_switch(&from->sp, to->sp);
#ifdef RD_FIBER_ASAN
    __sanitizer_finish_switch_fiber(from->asan_fake, NULL, NULL);
#endif
}

/* A fiber left in the middle of its work (a fault) is made new for the
 * sanitizers before rd_fiber_prepare: no stale red zones, no stale frames. */
void rd_fiber_renew(rd_fiber_t *f);

#endif
