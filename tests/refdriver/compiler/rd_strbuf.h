/* rd_strbuf.h: a growing string (build logs, command lines). */
#ifndef ZEIL_RD_STRBUF_H
#define ZEIL_RD_STRBUF_H

#include <stddef.h>

typedef struct rd_strbuf {
    char *text; /* NUL-terminated, or null while empty */
    size_t len, cap;
    int oom; /* an append failed for lack of memory */
} rd_strbuf_t;

void rd_strbuf_add(rd_strbuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rd_strbuf_add_bytes(rd_strbuf_t *b, const void *bytes, size_t n);
/* The text ("" while empty). */
const char *rd_strbuf_str(const rd_strbuf_t *b);
void rd_strbuf_free(rd_strbuf_t *b);

#endif
