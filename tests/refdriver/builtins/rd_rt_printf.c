/*
 * rd_rt_printf.c: OpenCL C's printf for compiled kernels (part of rd_rt.bc).
 * A kernel's call to printf links to the printf defined here (hidden in the
 * module), so the compiler renames nothing. Each conversion is formatted
 * with the host's snprintf into a buffer written to stdout in one fwrite,
 * so that lines of concurrent work-items do not interleave.
 *
 * Arguments arrive as the kernel passes them: floats promoted to double,
 * char and short to int, strings as pointers, vectors (%v4hlf, %v8hd, ...)
 * as LLVM passes them on x86-64 (see rd_pf_vector). A conversion it cannot
 * print (a vector without its length modifier, an unknown one) ends the
 * output there and printf returns -1.
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

typedef int rd_pf_i4 __attribute__((ext_vector_type(4)));

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

/* One element of a vector (bytes at v), formatted with spec (the host's
 * length already in it). */
static void rd_pf_element(rd_pf_out_t *o, const char *spec, char conv, int lbytes,
                          const unsigned char *v, int i)
{
    int n;
    const unsigned char *e = v + i * lbytes;
    if (rd_pf_is_float(conv)) {
        double d;
        if (lbytes == 8)
            d = *(const double *)e;
        else if (lbytes == 4)
            d = *(const float *)e;
        else
            d = (double)*(const _Float16 *)e;
        n = snprintf(o->buf + o->len, (rd_size_t)rd_pf_room(o), spec, d);
    } else {
        long x;
        int sgn = conv == 'd' || conv == 'i';
        if (lbytes == 8)
            x = *(const long *)e;
        else if (lbytes == 4)
            x = sgn ? (long)*(const int *)e : (long)*(const unsigned int *)e;
        else if (lbytes == 2)
            x = sgn ? (long)*(const short *)e : (long)*(const unsigned short *)e;
        else
            x = sgn ? (long)*(const signed char *)e : (long)*(const unsigned char *)e;
        n = snprintf(o->buf + o->len, (rd_size_t)rd_pf_room(o), spec, x);
    }
    rd_pf_advance(o, n);
}

/* A vector conversion of width elements of lbytes each. The kernel passes
 * the vector as LLVM does on x86-64: widened to whole 16-byte SSE
 * registers, one after another (a 3-element vector takes the room of 4). */
static int rd_pf_vector(rd_pf_out_t *o, const char *spec, char conv, int width, int lbytes,
                        rd_va_list *ap)
{
    union {
        rd_pf_i4 q[8];
        unsigned char b[128];
    } v;
    int room = (width == 3 ? 4 : width) * lbytes;
    if (room > 128 || (width != 2 && width != 3 && width != 4 && width != 8 && width != 16))
        return -1;
    for (int k = 0; k * 16 < room; k++)
        v.q[k] = __builtin_va_arg(*ap, rd_pf_i4);
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
    if ((lbytes == 8 || (width && !rd_pf_is_float(conv))) && !rd_pf_is_float(conv) && conv != 'c' &&
        conv != 's' && conv != 'p')
        spec[n++] = 'l'; /* vector elements are formatted as long */
    spec[n++] = conv;
    spec[n] = 0;
    if (width) {
        if (!lbytes || rd_pf_vector(o, spec, conv, width, lbytes, ap))
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
