/* zo_buf_number.c: numbers in decimal and hex (see zo_buf.h): the trace
 * writes a dozen per launch, so digits go two at a time from a table,
 * without counting them first, in 32-bit arithmetic when the value fits. */
#include "zo_buf.h"

#include <string.h>

static const char two_digits[] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/* Two digits of v < 100, leading zero included. */
static char *put_pair(char *p, uint32_t v)
{
    memcpy(p, two_digits + 2 * v, 2);
    return p + 2;
}

/* v < 100 without a leading zero. */
static char *put_lead(char *p, uint32_t v)
{
    if (v < 10) {
        *p = (char)('0' + v);
        return p + 1;
    }
    return put_pair(p, v);
}

/* Exactly four digits of v < 10000. */
static char *put_four(char *p, uint32_t v)
{
    return put_pair(put_pair(p, v / 100), v % 100);
}

static char *put_u32(char *p, uint32_t v)
{
    if (v < 100)
        return put_lead(p, v);
    if (v < 10000)
        return put_pair(put_lead(p, v / 100), v % 100);
    if (v < 1000000)
        return put_four(put_lead(p, v / 10000), v % 10000);
    if (v < 100000000) {
        uint32_t low = v % 10000;
        return put_four(put_pair(put_lead(p, v / 1000000), v / 10000 % 100), low);
    }
    uint32_t low = v % 100000000;
    return put_four(put_four(put_lead(p, v / 100000000), low / 10000), low % 10000);
}

char *zo_put_digits(char *p, uint64_t v)
{
    if (v <= UINT32_MAX)
        return put_u32(p, (uint32_t)v);
    /* The last eight digits apart, the rest (up to twelve) before them. */
    uint32_t low = (uint32_t)(v % 100000000);
    p = zo_put_digits(p, v / 100000000);
    return put_four(put_four(p, low / 10000), low % 10000);
}

/* put's text of v (at most max bytes, max <= ZO_US_MAX_CHARS) appended to
 * b: in place when b has the room, else cut to what is left. */
static inline __attribute__((always_inline)) void buf_put(zo_buf_t *b, size_t max,
                                                          char *(*put)(char *, uint64_t),
                                                          uint64_t v)
{
    char *p = zo_buf_room(b, max);
    if (__builtin_expect(p != 0, 1)) {
        zo_buf_commit(b, put(p, v));
        return;
    }
    char d[ZO_US_MAX_CHARS];
    zo_buf_mem_cut(b, d, (size_t)(put(d, v) - d));
}

void zo_buf_u64_digits(zo_buf_t *b, uint64_t v)
{
    buf_put(b, ZO_U64_MAX_CHARS, zo_put_digits, v);
}

static char *put_thousandths(char *p, unsigned rest)
{
    p[0] = '.';
    p[1] = (char)('0' + rest / 100);
    return put_pair(p + 2, rest % 100);
}

char *zo_put_us(char *p, uint64_t ns)
{
    uint64_t whole = ns / 1000;
    return put_thousandths(zo_put_digits(p, whole), (unsigned)(ns - whole * 1000));
}

void zo_buf_us(zo_buf_t *b, uint64_t ns)
{
    buf_put(b, ZO_US_MAX_CHARS, zo_put_us, ns);
}

void zo_buf_hex(zo_buf_t *b, uint64_t v)
{
    static const char digits[] = "0123456789abcdef";
    char tmp[16];
    size_t n = 0;
    do {
        tmp[n++] = digits[v & 15];
        v >>= 4;
    } while (v);
    zo_buf_mem(b, "0x", 2);
    while (n)
        zo_buf_char(b, tmp[--n]);
}

void zo_buf_fixed(zo_buf_t *b, uint64_t value, uint64_t unit, int decimals)
{
    uint64_t scale = 1;
    for (int i = 0; i < decimals; i++)
        scale *= 10;
    /* Round to the last printed decimal without overflowing near UINT64_MAX. */
    uint64_t whole = value / unit;
    uint64_t rest = value % unit;
    uint64_t frac = unit <= UINT64_MAX / (scale + 1)
                        ? (rest * scale + unit / 2) / unit
                        : (uint64_t)(((unsigned __int128)rest * scale + unit / 2) / unit);
    if (frac >= scale) {
        whole++;
        frac -= scale;
    }
    zo_buf_u64(b, whole);
    if (decimals > 0) {
        char d[ZO_U64_MAX_CHARS];
        size_t n = (size_t)(zo_put_digits(d, frac) - d);
        zo_buf_char(b, '.');
        for (size_t i = n; i < (size_t)decimals; i++)
            zo_buf_char(b, '0');
        zo_buf_mem(b, d, n);
    }
}
