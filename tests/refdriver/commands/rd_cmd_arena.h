/*
 * rd_cmd_arena.h: a regular command list's memory for what its commands hold
 * (launch captures, wait lists). Appends take memory by moving a pointer;
 * a reset rewinds it and keeps every chunk, so a list that is filled and
 * reset over and over allocates nothing after its first filling, and no two
 * lists ever write the same memory (the C heap's arenas and trimming are
 * shared by threads: see tests/bench/README.md).
 */
#ifndef ZEIL_RD_CMD_ARENA_H
#define ZEIL_RD_CMD_ARENA_H

#include <stddef.h>

typedef struct rd_cmd_arena_chunk rd_cmd_arena_chunk_t;

typedef struct rd_cmd_arena {
    rd_cmd_arena_chunk_t *first;   /* every chunk, in order of use */
    rd_cmd_arena_chunk_t *current; /* the chunk being filled */
    char *next, *end;              /* free part of the current chunk */
} rd_cmd_arena_t;

/* size bytes aligned to 16 (max_align_t); null when out of memory. */
void *rd_cmd_arena_alloc_slow(rd_cmd_arena_t *arena, size_t size);
static inline void *rd_cmd_arena_alloc(rd_cmd_arena_t *arena, size_t size)
{
    size = (size + 15u) & ~(size_t)15u;
    if ((size_t)(arena->end - arena->next) >= size) {
        void *p = arena->next;
        arena->next += size;
        return p;
    }
    return rd_cmd_arena_alloc_slow(arena, size);
}

/* Everything allocated is free again; the chunks stay for the next fill. */
void rd_cmd_arena_rewind(rd_cmd_arena_t *arena);
/* Returns the chunks to the C heap. */
void rd_cmd_arena_free(rd_cmd_arena_t *arena);

#endif
