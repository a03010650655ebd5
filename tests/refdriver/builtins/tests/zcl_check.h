/*
 * zcl_check.h: checks of the built-in library's tests: print a message
 * naming what failed and count it; zcl_report gives the exit status.
 */
#ifndef ZEIL_ZCL_CHECK_H
#define ZEIL_ZCL_CHECK_H

extern int zcl_failures;
void zcl_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int zcl_report(const char *test);

#endif
