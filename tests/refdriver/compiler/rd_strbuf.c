/* A growing string. */
#include "rd_strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reserve(rd_strbuf_t *b, size_t more)
{
    if (b->oom)
        return 0;
    if (b->len + more + 1 <= b->cap)
        return 1;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + more + 1)
        cap *= 2;
    char *t = realloc(b->text, cap);
    if (!t) {
        b->oom = 1;
        return 0;
    }
    b->text = t;
    b->cap = cap;
    return 1;
}

void rd_strbuf_add_bytes(rd_strbuf_t *b, const void *bytes, size_t n)
{
    if (!reserve(b, n))
        return;
    memcpy(b->text + b->len, bytes, n);
    b->len += n;
    b->text[b->len] = 0;
}

void rd_strbuf_add(rd_strbuf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->text + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

const char *rd_strbuf_str(const rd_strbuf_t *b)
{
    return b->text ? b->text : "";
}

void rd_strbuf_free(rd_strbuf_t *b)
{
    free(b->text);
    b->text = NULL;
    b->len = b->cap = 0;
    b->oom = 0;
}
