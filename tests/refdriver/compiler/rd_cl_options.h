/*
 * rd_cl_options.h: a module's build flags (OpenCL build options) as clang's
 * arguments. Honoured: -D, -I, -cl-std=, the math options (-cl-mad-enable,
 * -cl-fast-relaxed-math, -cl-fp32-correctly-rounded-divide-sqrt, ...), -w,
 * -Werror. Accepted and ignored, each listed in the build log: Intel's
 * (-cl-intel-*, -ze-*) and any other option.
 */
#ifndef ZEIL_RD_CL_OPTIONS_H
#define ZEIL_RD_CL_OPTIONS_H

#include "rd_strbuf.h"

#define RD_CL_MAX_ARGS 2048 /* oneDNN passes hundreds of -D */

typedef struct rd_cl_options {
    char *storage;                    /* the tokens, NUL-separated */
    const char *args[RD_CL_MAX_ARGS]; /* what clang gets */
    int num_args;
} rd_cl_options_t;

/* Splits flags (may be null) into clang arguments; ignored ones are listed
 * in log. 0 when out of memory or too many options (log says). */
int rd_cl_options_parse(const char *flags, rd_cl_options_t *o, rd_strbuf_t *log);
void rd_cl_options_free(rd_cl_options_t *o);

#endif
