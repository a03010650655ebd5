/* zo_crash.c: fatal-signal handlers (see zo_crash.h). */
#include "zo_crash.h"
#include "zeil_output.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
#define NUM_FATAL (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction previous[NUM_FATAL];

/* A stack overflow leaves no stack to handle SIGSEGV on: give the installing
 * thread (normally the main thread) an alternate one unless it has one. */
#define ALT_STACK_BYTES (64 * 1024)

static void ensure_alternate_stack(void)
{
    stack_t current;
    if (sigaltstack(0, &current) == 0 && !(current.ss_flags & SS_DISABLE))
        return;
    stack_t alt = {.ss_sp = malloc(ALT_STACK_BYTES), .ss_size = ALT_STACK_BYTES};
    if (alt.ss_sp && sigaltstack(&alt, 0) != 0)
        free(alt.ss_sp);
}

static void on_fatal_signal(int signo, siginfo_t *info, void *context)
{
    (void)context;
    int saved_errno = errno;
    zo_finish_from_signal(signo);
    for (unsigned i = 0; i < NUM_FATAL; i++)
        if (fatal_signals[i] == signo)
            sigaction(signo, &previous[i], 0);
    /* si_code > 0: the kernel reports a fault, which happens again on return;
     * otherwise it was sent (kill, raise, abort) and must be sent again. */
    if (info->si_code <= 0 || signo == SIGABRT)
        raise(signo);
    errno = saved_errno;
}

void zo_crash_handlers_install(void)
{
    ensure_alternate_stack();
    struct sigaction sa = {0};
    sa.sa_sigaction = on_fatal_signal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigfillset(&sa.sa_mask);
    for (unsigned i = 0; i < NUM_FATAL; i++)
        sigaction(fatal_signals[i], &sa, &previous[i]);
}
