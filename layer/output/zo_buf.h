/*
 * zo_buf.h: a bounded text builder over a caller's buffer.
 *
 * Everything here is async-signal-safe (no locks, no malloc, no stdio, no
 * locale) so the same code formats trace events on the flusher thread and
 * from a fatal-signal handler. Output that does not fit is cut and the buffer
 * remembers it overflowed; callers check zo_buf_ok before using the text.
 */
#ifndef ZO_BUF_H
#define ZO_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct zo_buf {
    char *data;
    size_t len;
    size_t cap;
    int overflow;
} zo_buf_t;

/* Longest string taken from a driver or an application (kernel names,
 * implementation strings); longer ones are cut and marked with "...". */
#define ZO_MAX_FOREIGN_STRING 256

void zo_buf_init(zo_buf_t *b, char *data, size_t cap);
int zo_buf_ok(const zo_buf_t *b);
void zo_buf_mem_cut(zo_buf_t *b, const char *s, size_t n);
/* Inline: the trace writer appends a few pieces per event, most of constant
 * size (literals then cost a few stores and their strlen folds away). */
static inline void zo_buf_mem(zo_buf_t *b, const char *s, size_t n)
{
    if (__builtin_expect(n > b->cap - b->len, 0)) {
        zo_buf_mem_cut(b, s, n);
        return;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
}
static inline void zo_buf_str(zo_buf_t *b, const char *s)
{
    zo_buf_mem(b, s, strlen(s));
}
/* A string literal (its size known at compile time; "" rejects a pointer). */
#define zo_buf_lit(b, literal) zo_buf_mem((b), "" literal, sizeof(literal) - 1)
static inline void zo_buf_char(zo_buf_t *b, char c)
{
    if (__builtin_expect(b->len < b->cap, 1))
        b->data[b->len++] = c;
    else
        b->overflow = 1;
}
void zo_buf_u64_digits(zo_buf_t *b, uint64_t v);
/* v in decimal; a digit inline (process ids, counts, group sizes). */
static inline void zo_buf_u64(zo_buf_t *b, uint64_t v)
{
    if (v < 10)
        zo_buf_char(b, (char)('0' + v));
    else
        zo_buf_u64_digits(b, v);
}
/* text, then v in decimal: a JSON key and its number, a label and its count. */
static inline void zo_buf_str_u64(zo_buf_t *b, const char *text, uint64_t v)
{
    zo_buf_str(b, text);
    zo_buf_u64(b, v);
}
/* Appending an event at once: zo_buf_room gives where n more bytes may be
 * written unchecked (null when fewer are left), the zo_put_* write there and
 * return the end, zo_buf_commit takes the bytes up to it. */
static inline char *zo_buf_room(zo_buf_t *b, size_t n)
{
    return b->cap - b->len >= n ? b->data + b->len : 0;
}
static inline void zo_buf_commit(zo_buf_t *b, char *end)
{
    b->len = (size_t)(end - b->data);
}
static inline char *zo_put_mem(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}
#define zo_put_lit(p, literal) zo_put_mem((p), "" literal, sizeof(literal) - 1)
#define ZO_U64_MAX_CHARS 20
#define ZO_US_MAX_CHARS 21
char *zo_put_digits(char *p, uint64_t v);
/* v in decimal, at most ZO_U64_MAX_CHARS; a digit inline. */
static inline char *zo_put_u64(char *p, uint64_t v)
{
    if (v >= 10)
        return zo_put_digits(p, v);
    *p = (char)('0' + v);
    return p + 1;
}
char *zo_put_us(char *p, uint64_t ns); /* zo_buf_us's text, at most ZO_US_MAX_CHARS */
/* Right-aligned (width > 0) or left-aligned (width < 0) in |width| columns. */
void zo_buf_padded(zo_buf_t *b, const char *s, int width);
void zo_buf_hex(zo_buf_t *b, uint64_t v); /* 0x1f */
/* ns as a decimal number of larger units: zo_buf_fixed(b, 1234567, 1000, 3)
 * writes "1234.567" (ns in microseconds with 3 decimals). */
void zo_buf_fixed(zo_buf_t *b, uint64_t value, uint64_t unit, int decimals);
/* zo_buf_fixed(b, ns, 1000, 3), the trace's times, without its divisions
 * by variables. */
void zo_buf_us(zo_buf_t *b, uint64_t ns);
/* A JSON string literal with quotes; s may be null (writes null). Control
 * characters, quotes, backslashes and bytes that are not valid UTF-8 are
 * escaped; at most ZO_MAX_FOREIGN_STRING bytes of s are used. */
void zo_buf_json_str(zo_buf_t *b, const char *s);
/* Like zo_buf_json_str without the quotes and JSON escaping: for log text,
 * control characters become '?', the length is bounded the same way. */
void zo_buf_safe_text(zo_buf_t *b, const char *s);

#endif
