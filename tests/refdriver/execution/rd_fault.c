/* Catching faults of kernel code (rd_fault.h): the handler, its chaining to
 * the previous one, the alternate stack of each thread. */
#include "rd_fault.h"

#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#define ALTSTACK_SIZE (64u * 1024u)

static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
#define NUM_SIGNALS (sizeof fault_signals / sizeof fault_signals[0])

static struct sigaction previous[NUM_SIGNALS];
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int installed;

/* Read by the handler: initial-exec, so that reading it never allocates. */
static __thread rd_fault_scope_t *current __attribute__((tls_model("initial-exec")));
static __thread void *altstack __attribute__((tls_model("initial-exec")));
static pthread_key_t altstack_key;

static int signal_index(int signo)
{
    for (unsigned i = 0; i < NUM_SIGNALS; i++)
        if (fault_signals[i] == signo)
            return (int)i;
    return -1;
}

/* A fault outside kernel code: what was there before us handles it. */
static void chain(int signo, siginfo_t *info, void *uc)
{
    int i = signal_index(signo);
    const struct sigaction *p = &previous[i < 0 ? 0 : i];
    if ((p->sa_flags & SA_SIGINFO) && p->sa_sigaction) {
        p->sa_sigaction(signo, info, uc);
        return;
    }
    if (!(p->sa_flags & SA_SIGINFO) && p->sa_handler != SIG_DFL && p->sa_handler != SIG_IGN) {
        p->sa_handler(signo);
        return;
    }
    /* The default action: restore it; a real fault happens again on
     * return, a signal someone sent is sent again. */
    signal(signo, SIG_DFL);
    if (info->si_code <= 0)
        raise(signo);
}

static void handler(int signo, siginfo_t *info, void *uc)
{
    rd_fault_scope_t *s = current;
    if (!s) {
        chain(signo, info, uc);
        return;
    }
    current = NULL;
    s->signo = signo;
    s->code = info->si_code;
    s->addr = info->si_addr;
    s->ip = (void *)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
    void *stack = s->resume_stack ? s->resume_stack(s->ctx) : NULL;
    if (!stack) {
        /* SA_NODEFER keeps the signal unblocked, unless a handler in front
         * of ours (a sanitizer's) blocked it: a jump out would leave it so. */
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, signo);
        pthread_sigmask(SIG_UNBLOCK, &set, NULL);
        siglongjmp(s->jmp, 1);
    }
    /* Return into resume(ctx) on that stack, as if it had been called. */
    greg_t *regs = ((ucontext_t *)uc)->uc_mcontext.gregs;
    uintptr_t sp = ((uintptr_t)stack & ~(uintptr_t)15) - 16;
    *(uintptr_t *)sp = 0; /* its return address: it never returns */
    regs[REG_RSP] = (greg_t)sp;
    regs[REG_RIP] = (greg_t)(uintptr_t)s->resume;
    regs[REG_RDI] = (greg_t)(uintptr_t)s->ctx;
}

static void free_altstack(void *stack)
{
    stack_t off = {.ss_flags = SS_DISABLE};
    sigaltstack(&off, NULL);
    free(stack);
}

static void install(void)
{
    pthread_key_create(&altstack_key, free_altstack);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (unsigned i = 0; i < NUM_SIGNALS; i++)
        if (sigaction(fault_signals[i], &sa, &previous[i]) != 0)
            return;
    installed = 1;
}

/* This thread's alternate stack, unless it has one already. */
static void prepare_thread(void)
{
    if (altstack)
        return;
    stack_t old;
    if (sigaltstack(NULL, &old) == 0 && !(old.ss_flags & SS_DISABLE)) {
        altstack = old.ss_sp; /* the thread's own: keep it */
        return;
    }
    void *stack = malloc(ALTSTACK_SIZE);
    if (!stack)
        return;
    stack_t ss = {.ss_sp = stack, .ss_size = ALTSTACK_SIZE, .ss_flags = 0};
    if (sigaltstack(&ss, NULL) != 0) {
        free(stack);
        return;
    }
    altstack = stack;
    pthread_setspecific(altstack_key, stack);
}

int rd_fault_prepare(void)
{
    pthread_once(&install_once, install);
    if (!installed)
        return -1;
    prepare_thread();
    return 0;
}

void rd_fault_enter(rd_fault_scope_t *scope)
{
    scope->signo = 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    current = scope;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

void rd_fault_leave(void)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    current = NULL;
}

static const char *signal_name(int signo)
{
    switch (signo) {
    case SIGSEGV:
        return "SIGSEGV";
    case SIGBUS:
        return "SIGBUS";
    case SIGFPE:
        return "SIGFPE";
    case SIGILL:
        return "SIGILL";
    default:
        return "a signal";
    }
}

void rd_fault_describe(const rd_fault_scope_t *s, char *buf, size_t size)
{
    if (s->signo == SIGSEGV || s->signo == SIGBUS)
        snprintf(buf, size, "%s at address 0x%" PRIxPTR " (instruction 0x%" PRIxPTR ")",
                 signal_name(s->signo), (uintptr_t)s->addr, (uintptr_t)s->ip);
    else
        snprintf(buf, size, "%s at instruction 0x%" PRIxPTR, signal_name(s->signo),
                 (uintptr_t)s->ip);
}
