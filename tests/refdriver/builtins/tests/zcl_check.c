/*
 * zcl_check.c: the failure counter of the built-in library's tests
 * (zcl_check.h): each failure printed with what failed, a summary at the end.
 */
#include "zcl_check.h"

#include <stdarg.h>
#include <stdio.h>

int zcl_failures;

void zcl_fail(const char *fmt, ...)
{
    va_list ap;
    if (zcl_failures++ > 20)
        return;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int zcl_report(const char *test)
{
    if (zcl_failures)
        fprintf(stderr, "%s: %d failures\n", test, zcl_failures);
    else
        printf("%s: passed\n", test);
    return zcl_failures ? 1 : 0;
}
