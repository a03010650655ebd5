/*
 * rd_rt_printf.c: OpenCL C's printf for compiled kernels (part of rd_rt.bc).
 * A kernel's call to printf links to the printf defined here (hidden in the
 * module), so the compiler renames nothing. Each conversion is formatted
 * with the host's snprintf into a buffer written to stdout in one fwrite,
 * so that lines of concurrent work-items do not interleave.
 *
 * Arguments arrive as the kernel passes them: floats promoted to double,
 * char and short to int, strings as pointers. Vector conversions (%v4hlf)
 * print the vectors that travel in one SSE register (16 bytes or less of
 * float, double, int or long elements); others are refused (-1).
 */
#include "rd_rt.h"

typedef __builtin_va_list rd_va_list;
typedef unsigned long rd_size_t;

int snprintf(char *buf, rd_size_t size, const char *fmt, ...);
rd_size_t fwrite(const void *ptr, rd_size_t size, rd_size_t n, void *stream);
extern void *stdout;

int printf(const char *fmt, ...) __attribute__((visibility("hidden")));

#define RD_PF_BUF 4096

typedef struct rd_pf_out {
    char buf[RD_PF_BUF];
    rd_size_t len;
} rd_pf_out_t;

typedef float rd_pf_f4 __attribute__((ext_vector_type(4)));
typedef double rd_pf_d2 __attribute__((ext_vector_type(2)));
typedef int rd_pf_i4 __attribute__((ext_vector_type(4)));
typedef long rd_pf_l2 __attribute__((ext_vector_type(2)));

static void rd_pf_put(rd_pf_out_t *o, const char *s, rd_size_t n)
{
    for (rd_size_t i = 0; i < n && o->len < RD_PF_BUF - 1; i++)
        o->buf[o->len++] = s[i];
}

static int rd_pf_room(const rd_pf_out_t *o)
{
    return (int)(RD_PF_BUF - o->len);
}

static void rd_pf_advance(rd_pf_out_t *o, int n)
{
    if (n > 0)
        o->len += (rd_size_t)n < RD_PF_BUF - 1 - o->len ? (rd_size_t)n : RD_PF_BUF - 1 - o->len;
}

static int rd_pf_is_float(char c)
{
    return c == 'f' || c == 'F' || c == 'e' || c == 'E' || c == 'g' || c == 'G' || c == 'a' ||
           c == 'A';
}

/* One scalar conversion: spec is "%<flags,width,precision><host length><c>". */
static void rd_pf_scalar(rd_pf_out_t *o, const char *spec, char conv, int is_long, rd_va_list *ap)
{
    int n;
    if (rd_pf_is_float(conv))
        n = snprintf(o->buf + o->len, (rd_size_t)rd_pf_room(o), spec,
                     __builtin_va_arg(*ap, double));
    else if (conv == 's')
        n = snprintf(o->buf + o->len, (rd_size_t)rd_pf_room(o), spec,
                     __builtin_va_arg(*ap, const char *));
    else if (conv == 'p')
        n = snprintf(o->buf + o->len, (rd_size_t)rd_pf_room(o), spec,
                     __builtin_va_arg(*ap, void *));
    else if (is_long)
        n = snprintf(o->buf + o->len, (rd_size_t)rd_pf_room(o), spec, __builtin_va_arg(*ap, long));
    else
        n = snprintf(o->buf + o->len, (rd_size_t)rd_pf_room(o), spec, __builtin_va_arg(*ap, int));
    rd_pf_advance(o, n);
}

/* One element of a vector, formatted with spec (the host's length already in it). */
static void rd_pf_element(rd_pf_out_t *o, const char *spec, char conv, int lbytes, const void *v,
                          int i)
{
    int n;
    if (rd_pf_is_float(conv))
        n = lbytes == 8
                ? snprintf(o->buf + o->len, (rd_size_t)rd_pf_room(o), spec, ((const double *)v)[i])
                : snprintf(o->buf + o->len, (rd_size_t)rd_pf_room(o), spec,
                           (double)((const float *)v)[i]);
    else
        n = lbytes == 8
                ? snprintf(o->buf + o->len, (rd_size_t)rd_pf_room(o), spec, ((const long *)v)[i])
                : snprintf(o->buf + o->len, (rd_size_t)rd_pf_room(o), spec, ((const int *)v)[i]);
    rd_pf_advance(o, n);
}

/* A vector conversion of width elements of lbytes each (4 or 8). */
static int rd_pf_vector(rd_pf_out_t *o, const char *spec, char conv, int width, int lbytes,
                        rd_va_list *ap)
{
    union {
        rd_pf_f4 f;
        rd_pf_d2 d;
        rd_pf_i4 i;
        rd_pf_l2 l;
        char b[16];
    } v;
    if (width * lbytes > 16 || (lbytes != 4 && lbytes != 8))
        return -1;
    if (rd_pf_is_float(conv) && lbytes == 8)
        v.d = __builtin_va_arg(*ap, rd_pf_d2);
    else if (rd_pf_is_float(conv))
        v.f = __builtin_va_arg(*ap, rd_pf_f4);
    else if (lbytes == 8)
        v.l = __builtin_va_arg(*ap, rd_pf_l2);
    else
        v.i = __builtin_va_arg(*ap, rd_pf_i4);
    for (int i = 0; i < width; i++) {
        if (i)
            rd_pf_put(o, ",", 1);
        rd_pf_element(o, spec, conv, lbytes, v.b, i);
    }
    return 0;
}

/* Parses the conversion at f (just after '%'); returns the character after it, or 0 when bad. */
static const char *rd_pf_conversion(rd_pf_out_t *o, const char *f, rd_va_list *ap)
{
    char spec[64];
    int n = 0, width = 0, lbytes = 0;
    spec[n++] = '%';
    while (*f && __builtin_strchr("-+ #0123456789.*", *f) && n < 40)
        spec[n++] = *f++;
    if (*f == 'v') {
        f++;
        while (*f >= '0' && *f <= '9')
            width = width * 10 + (*f++ - '0');
    }
    if (f[0] == 'h' && f[1] == 'h') {
        lbytes = 1;
        f += 2;
    } else if (f[0] == 'h' && f[1] == 'l') {
        lbytes = 4;
        f += 2;
    } else if (f[0] == 'h') {
        lbytes = 2;
        f++;
    } else if (f[0] == 'l') {
        lbytes = 8;
        f++;
    }
    char conv = *f;
    if (!conv || !__builtin_strchr("diouxXfFeEgGaAcsp", conv))
        return 0;
    if (lbytes == 8 && !rd_pf_is_float(conv) && conv != 'c' && conv != 's' && conv != 'p')
        spec[n++] = 'l';
    spec[n++] = conv;
    spec[n] = 0;
    if (width) {
        if (rd_pf_vector(o, spec, conv, width, lbytes ? lbytes : 4, ap))
            return 0;
    } else {
        rd_pf_scalar(o, spec, conv, lbytes == 8, ap);
    }
    return f + 1;
}

int printf(const char *fmt, ...)
{
    rd_pf_out_t o;
    rd_va_list ap;
    int rc = 0;
    o.len = 0;
    __builtin_va_start(ap, fmt);
    for (const char *f = fmt; *f;) {
        if (f[0] != '%') {
            rd_pf_put(&o, f++, 1);
        } else if (f[1] == '%') {
            rd_pf_put(&o, "%", 1);
            f += 2;
        } else {
            const char *next = rd_pf_conversion(&o, f + 1, &ap);
            if (!next) {
                rc = -1;
                break;
            }
            f = next;
        }
    }
    __builtin_va_end(ap);
    fwrite(o.buf, 1, o.len, stdout);
    return rc;
}
