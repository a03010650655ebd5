/*
 * rd_command.h: one recorded command and how it runs.
 *
 * Appends build an rd_command_t (rd_append.c); a regular list keeps them
 * until it is executed on a queue, an immediate list hands each to its
 * worker. Running a command waits for its wait events, does the work, and
 * signals its event with the start and end time of that work.
 */
#ifndef ZEIL_RD_COMMAND_H
#define ZEIL_RD_COMMAND_H

#include "rd_cmd_arena.h"
#include "rd_event.h"

#include <stddef.h>

struct rd_launch;

typedef enum rd_command_kind {
    RD_CMD_BARRIER, /* waits and signals only: barriers, wait-on-events, signal-event, hints */
    RD_CMD_COPY,
    RD_CMD_COPY_REGION,
    RD_CMD_FILL,
    RD_CMD_EVENT_RESET,
    RD_CMD_WRITE_TIMESTAMP,
    RD_CMD_QUERY_TIMESTAMPS,
    RD_CMD_LAUNCH,
    RD_CMD_LAUNCH_MULTIPLE,
} rd_command_kind_t;

/* One side of a 3D region copy. */
typedef struct rd_region {
    char *base;
    ze_copy_region_t box;
    uint32_t pitch;       /* bytes per row */
    uint32_t slice_pitch; /* bytes per slice */
} rd_region_t;

typedef struct rd_command {
    rd_command_kind_t kind;
    int in_arena;       /* waits and launch live in the list's arena (regular
                            lists): released with it, not one by one */
    int holds_events;   /* its events' pools are held (rd_command_hold_events) */
    rd_event_t *signal; /* may be null */
    uint32_t num_waits;
    rd_event_t **waits; /* owned */
    union {
        struct {
            void *dst;
            const void *src;
            size_t size;
        } copy;
        struct {
            rd_region_t dst, src;
        } region;
        struct {
            void *dst;
            size_t size;
            size_t pattern_size;
            unsigned char pattern[RD_MAX_FILL_PATTERN];
        } fill;
        rd_event_t *reset;
        uint64_t *timestamp_dst;
        struct {
            uint32_t count;
            rd_event_t **events; /* owned */
            char *dst;
            size_t *offsets; /* owned, null: results one after the other */
        } query;
        struct rd_launch *launch; /* owned */
        struct {
            uint32_t max;
            const uint32_t *count;       /* read when the command runs */
            struct rd_launch **launches; /* owned, max of them */
        } multiple;
    } u;
} rd_command_t;

/* Once the command is the list's: the pools of every event it signals,
 * waits on, resets or queries stay until rd_command_release, whatever the
 * application destroys meanwhile. */
void rd_command_hold_events(rd_command_t *cmd);

/* Fills the common part: kind, signal event and wait list (checked). With
 * an arena (a regular list's) the wait list is taken from it, else from the
 * heap. */
ze_result_t rd_command_init(rd_command_t *cmd, rd_command_kind_t kind, rd_cmd_arena_t *arena,
                            ze_event_handle_t signal, uint32_t num_waits,
                            const ze_event_handle_t *waits);

/* Waits, does the work, signals: ZE_RESULT_SUCCESS, or
 * ZE_RESULT_ERROR_DEVICE_LOST when a kernel faulted (its event then reports
 * it too). */
ze_result_t rd_command_run(const rd_command_t *cmd);

/* Frees what the command owns (not the command itself). */
void rd_command_release(rd_command_t *cmd);

#endif
