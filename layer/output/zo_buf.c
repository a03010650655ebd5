/* zo_buf.c: bounded, async-signal-safe text building (see zo_buf.h). */
#include "zo_buf.h"

#include <string.h>

void zo_buf_init(zo_buf_t *b, char *data, size_t cap)
{
    b->data = data;
    b->len = 0;
    b->cap = cap;
    b->overflow = 0;
}

int zo_buf_ok(const zo_buf_t *b)
{
    return !b->overflow;
}

void zo_buf_mem_cut(zo_buf_t *b, const char *s, size_t n)
{
    size_t room = b->cap - b->len;
    if (n > room) {
        n = room;
        b->overflow = 1;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

static const char two_digits[] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/* The decimal digits of v, written backwards to end at end; returns where
 * they begin. Two digits per division, in 32 bits once v fits (cheaper). */
static char *digits_ending_at(char *end, uint64_t v)
{
    while (v > UINT32_MAX) {
        unsigned pair = (unsigned)(v % 100);
        v /= 100;
        end -= 2;
        memcpy(end, two_digits + 2 * pair, 2);
    }
    uint32_t w = (uint32_t)v;
    while (w >= 100) {
        uint32_t pair = w % 100;
        w /= 100;
        end -= 2;
        memcpy(end, two_digits + 2 * pair, 2);
    }
    if (w >= 10) {
        end -= 2;
        memcpy(end, two_digits + 2 * w, 2);
    } else {
        *--end = (char)('0' + w);
    }
    return end;
}

/* How many decimal digits v has: from its bit length, then one compare. */
static size_t decimal_length(uint64_t v)
{
    static const uint64_t powers[20] = {1u,
                                        10u,
                                        100u,
                                        1000u,
                                        10000u,
                                        100000u,
                                        1000000u,
                                        10000000u,
                                        100000000u,
                                        1000000000u,
                                        10000000000u,
                                        100000000000u,
                                        1000000000000u,
                                        10000000000000u,
                                        100000000000000u,
                                        1000000000000000u,
                                        10000000000000000u,
                                        100000000000000000u,
                                        1000000000000000000u,
                                        10000000000000000000u};
    uint64_t odd = v | 1; /* as many digits as v (powers of ten are even), and not 0 */
    unsigned bits = 64u - (unsigned)__builtin_clzll(odd);
    unsigned t = (bits * 1233u) >> 12; /* about bits * log10(2) */
    return t + (odd >= powers[t]);
}

char *zo_put_digits(char *p, uint64_t v)
{
    size_t n = decimal_length(v);
    digits_ending_at(p + n, v);
    return p + n;
}

void zo_buf_u64_digits(zo_buf_t *b, uint64_t v)
{
    char *p = zo_buf_room(b, ZO_U64_MAX_CHARS);
    if (__builtin_expect(p != 0, 1)) {
        zo_buf_commit(b, zo_put_digits(p, v));
        return;
    }
    char d[ZO_U64_MAX_CHARS];
    zo_buf_mem_cut(b, d, (size_t)(zo_put_digits(d, v) - d));
}

static char *put_thousandths(char *p, unsigned rest)
{
    p[0] = '.';
    p[1] = (char)('0' + rest / 100);
    memcpy(p + 2, two_digits + 2 * (rest % 100), 2);
    return p + 4;
}

char *zo_put_us(char *p, uint64_t ns)
{
    uint64_t whole = ns / 1000;
    return put_thousandths(zo_put_digits(p, whole), (unsigned)(ns - whole * 1000));
}

void zo_buf_us(zo_buf_t *b, uint64_t ns)
{
    char *p = zo_buf_room(b, ZO_US_MAX_CHARS);
    if (__builtin_expect(p != 0, 1)) {
        zo_buf_commit(b, zo_put_us(p, ns));
        return;
    }
    char d[ZO_US_MAX_CHARS];
    zo_buf_mem_cut(b, d, (size_t)(zo_put_us(d, ns) - d));
}

void zo_buf_padded(zo_buf_t *b, const char *s, int width)
{
    size_t n = strlen(s);
    size_t w = (size_t)(width < 0 ? -width : width);
    size_t pad = n < w ? w - n : 0;
    if (width < 0)
        zo_buf_mem(b, s, n);
    for (size_t i = 0; i < pad; i++)
        zo_buf_char(b, ' ');
    if (width >= 0)
        zo_buf_mem(b, s, n);
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
        size_t n = decimal_length(frac);
        zo_buf_char(b, '.');
        for (size_t i = n; i < (size_t)decimals; i++)
            zo_buf_char(b, '0');
        zo_buf_u64(b, frac);
    }
}

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 when s does not
 * start one (stray continuation bytes, overlongs, surrogates, truncation). */
static size_t utf8_sequence(const unsigned char *s, size_t avail)
{
    unsigned char c = s[0];
    size_t n;
    uint32_t cp;
    if (c < 0x80)
        return 1;
    if ((c & 0xe0) == 0xc0) {
        n = 2;
        cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
        n = 3;
        cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (n > avail)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    static const uint32_t min_for_len[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_for_len[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

static size_t bounded_length(const char *s, int *cut)
{
    size_t n = 0;
    while (n < ZO_MAX_FOREIGN_STRING && s[n])
        n++;
    *cut = s[n] != 0;
    return n;
}

void zo_buf_json_str(zo_buf_t *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    if (!s) {
        zo_buf_str(b, "null");
        return;
    }
    int cut;
    size_t n = bounded_length(s, &cut);
    const unsigned char *u = (const unsigned char *)s;
    zo_buf_char(b, '"');
    for (size_t i = 0; i < n;) {
        size_t plain = i;
        while (plain < n && u[plain] >= 0x20 && u[plain] < 0x7f && u[plain] != '"' &&
               u[plain] != '\\')
            plain++;
        if (plain > i) {
            zo_buf_mem(b, s + i, plain - i);
            i = plain;
            continue;
        }
        unsigned char c = u[i];
        if (c == '"' || c == '\\') {
            zo_buf_char(b, '\\');
            zo_buf_char(b, (char)c);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            zo_buf_mem(b, esc, sizeof esc);
            i++;
        } else {
            size_t seq = utf8_sequence(u + i, n - i);
            if (seq == 0) {
                zo_buf_str(b, "\\ufffd");
                i++;
            } else {
                zo_buf_mem(b, s + i, seq);
                i += seq;
            }
        }
    }
    if (cut)
        zo_buf_str(b, "...");
    zo_buf_char(b, '"');
}

void zo_buf_safe_text(zo_buf_t *b, const char *s)
{
    if (!s) {
        zo_buf_str(b, "(null)");
        return;
    }
    int cut;
    size_t n = bounded_length(s, &cut);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        zo_buf_char(b, c < 0x20 || c == 0x7f ? '?' : (char)c);
    }
    if (cut)
        zo_buf_str(b, "...");
}
