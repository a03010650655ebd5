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
