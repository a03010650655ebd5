/*
 * zo_crash.h: completing the output when the application dies of a signal.
 *
 * Handlers for SIGSEGV, SIGBUS, SIGABRT, SIGFPE and SIGILL call
 * zo_finish_from_signal, put back the disposition that was there before, and
 * let the signal take its course: a fault re-executes and faults into the
 * previous handler (with its original siginfo); a sent signal is raised again.
 */
#ifndef ZO_CRASH_H
#define ZO_CRASH_H

void zo_crash_handlers_install(void);

#endif
