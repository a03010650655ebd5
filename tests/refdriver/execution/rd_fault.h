/*
 * rd_fault.h: a kernel that faults does not take the process down.
 *
 * A thread about to run kernel code enters a fault scope (a sigjmp_buf set
 * with sigsetjmp(jmp, 0)); a SIGSEGV, SIGBUS, SIGFPE or SIGILL raised while
 * it is inside records what happened and jumps back out (siglongjmp). When
 * the fault is on a fiber, the scope may instead name a stack and a
 * function: the handler returns into that function on that stack, which
 * switches back to the thread's own stack as a fiber switch does (no jump
 * across stacks, which the sanitizers cannot follow). Faults outside a
 * scope go to the handler that was
 * there before (or the default action). The handler runs on an alternate
 * stack, so that a work-item that overflows its stack is caught too, and
 * with SA_NODEFER, so that leaving it by a jump leaves no signal blocked.
 */
#ifndef ZEIL_RD_FAULT_H
#define ZEIL_RD_FAULT_H

#include <setjmp.h>
#include <stddef.h>

typedef struct rd_fault_scope {
    sigjmp_buf jmp;
    int signo;
    int code;   /* si_code */
    void *addr; /* si_addr: the address touched (SIGSEGV, SIGBUS) or the instruction */
    void *ip;   /* the faulting instruction */
    /* Called in the handler: null to leave by siglongjmp, or the top of a
     * stack on which the handler's return calls resume(ctx) instead. */
    void *(*resume_stack)(void *ctx);
    void (*resume)(void *ctx);
    void *ctx;
} rd_fault_scope_t;

/* Installs the handler (once per process) and this thread's alternate
 * signal stack (once per thread): 0, or -1 when neither could be. */
int rd_fault_prepare(void);

/* Usage: if (sigsetjmp(s->jmp, 0) == 0) { rd_fault_enter(s); ...;
 * rd_fault_leave(); } else { the fault: s->signo ... }. */
void rd_fault_enter(rd_fault_scope_t *scope);
void rd_fault_leave(void);

/* "SIGSEGV at address 0x0 (instruction 0x...)" into buf. */
void rd_fault_describe(const rd_fault_scope_t *scope, char *buf, size_t size);

#endif
