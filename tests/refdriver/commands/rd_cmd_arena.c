/* A command list's bump allocator, rewound by reset. */
#include "rd_cmd_arena.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>

/* 64 KiB holds about 300 launches of a four-argument kernel: a list of a
 * thousand takes four chunks, once. */
#define RD_ARENA_CHUNK (64u * 1024u)

_Static_assert(_Alignof(max_align_t) >= 16, "malloc gives 16-byte aligned chunks");

struct rd_cmd_arena_chunk {
    rd_cmd_arena_chunk_t *next;
    size_t size; /* usable bytes after the header */
    alignas(16) char bytes[];
};

static void use(rd_cmd_arena_t *arena, rd_cmd_arena_chunk_t *chunk)
{
    arena->current = chunk;
    arena->next = chunk->bytes;
    arena->end = chunk->bytes + chunk->size;
}

void *rd_cmd_arena_alloc_slow(rd_cmd_arena_t *arena, size_t size)
{
    /* The next kept chunk that is large enough (after a rewind), else a new
     * one at the end. A chunk too small for this request is skipped this
     * fill, not freed: the next fill may use it. */
    rd_cmd_arena_chunk_t *chunk = arena->current ? arena->current->next : arena->first;
    while (chunk && chunk->size < size)
        chunk = chunk->next;
    if (!chunk) {
        size_t bytes = size > RD_ARENA_CHUNK ? size : RD_ARENA_CHUNK;
        chunk = malloc(sizeof *chunk + bytes); /* malloc aligns to 16 on 64-bit glibc */
        if (!chunk)
            return NULL;
        chunk->size = bytes;
        chunk->next = NULL;
        rd_cmd_arena_chunk_t **tail = &arena->first;
        while (*tail)
            tail = &(*tail)->next;
        *tail = chunk;
    }
    use(arena, chunk);
    void *p = arena->next;
    arena->next += size;
    return p;
}

void rd_cmd_arena_rewind(rd_cmd_arena_t *arena)
{
    if (arena->first)
        use(arena, arena->first);
}

void rd_cmd_arena_free(rd_cmd_arena_t *arena)
{
    for (rd_cmd_arena_chunk_t *c = arena->first, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    *arena = (rd_cmd_arena_t){0};
}
