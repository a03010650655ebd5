/* Running one command: wait, work, signal. */
#include "rd_command.h"
#include "rd_driver.h"
#include "rd_launch.h"
#include "rd_sync.h"

#include <stdlib.h>
#include <string.h>

ze_result_t rd_command_init(rd_command_t *cmd, rd_command_kind_t kind, ze_event_handle_t signal,
                            uint32_t num_waits, const ze_event_handle_t *waits)
{
    memset(cmd, 0, sizeof *cmd);
    cmd->kind = kind;
    if (signal)
        RD_TRY(rd_event_from_handle(signal, &cmd->signal));
    RD_TRY(rd_event_list(num_waits, waits, &cmd->waits));
    cmd->num_waits = num_waits;
    return ZE_RESULT_SUCCESS;
}

static void fill(void *dst, size_t size, const unsigned char *pattern, size_t pattern_size)
{
    unsigned char *out = dst;
    if (pattern_size == 1) {
        memset(out, pattern[0], size);
        return;
    }
    /* One pattern, then keep doubling what is already written. */
    size_t done = size < pattern_size ? size : pattern_size;
    memcpy(out, pattern, done);
    while (done < size) {
        size_t n = done <= size - done ? done : size - done;
        memcpy(out + done, out, n);
        done += n;
    }
}

/* Large copies and fills are cut into pieces the work-group pool runs side
 * by side: one core cannot saturate memory bandwidth. A piece is a multiple
 * of every fill pattern size (powers of two up to 128), so each piece starts
 * at the beginning of the pattern. */
#define RD_PIECE_BYTES ((size_t)1 << 20)

static void copy_or_fill_piece(void *ctx, uint64_t index)
{
    const rd_command_t *cmd = ctx;
    size_t at = (size_t)index * RD_PIECE_BYTES;
    if (cmd->kind == RD_CMD_COPY) {
        size_t n = cmd->u.copy.size - at < RD_PIECE_BYTES ? cmd->u.copy.size - at : RD_PIECE_BYTES;
        memcpy((char *)cmd->u.copy.dst + at, (const char *)cmd->u.copy.src + at, n);
    } else {
        size_t n = cmd->u.fill.size - at < RD_PIECE_BYTES ? cmd->u.fill.size - at : RD_PIECE_BYTES;
        fill((char *)cmd->u.fill.dst + at, n, cmd->u.fill.pattern, cmd->u.fill.pattern_size);
    }
}

static int overlap(const void *a, const void *b, size_t size)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x < y + size && y < x + size;
}

static void copy_or_fill(const rd_command_t *cmd, size_t size)
{
    rd_driver_t *driver = rd_driver();
    if (size < 4 * RD_PIECE_BYTES || !driver ||
        (cmd->kind == RD_CMD_COPY && overlap(cmd->u.copy.dst, cmd->u.copy.src, size))) {
        if (cmd->kind == RD_CMD_COPY)
            memmove(cmd->u.copy.dst, cmd->u.copy.src, size);
        else
            fill(cmd->u.fill.dst, size, cmd->u.fill.pattern, cmd->u.fill.pattern_size);
        return;
    }
    size_t pieces = (size + RD_PIECE_BYTES - 1) / RD_PIECE_BYTES;
    rd_threadpool_run(rd_driver_threadpool(driver), pieces, copy_or_fill_piece, (void *)cmd);
}

static void copy_region(const rd_region_t *dst, const rd_region_t *src)
{
    uint32_t depth = src->box.depth ? src->box.depth : 1;
    for (uint32_t z = 0; z < depth; z++)
        for (uint32_t y = 0; y < src->box.height; y++) {
            char *d = dst->base + (size_t)(dst->box.originZ + z) * dst->slice_pitch +
                      (size_t)(dst->box.originY + y) * dst->pitch + dst->box.originX;
            const char *s = src->base + (size_t)(src->box.originZ + z) * src->slice_pitch +
                            (size_t)(src->box.originY + y) * src->pitch + src->box.originX;
            memmove(d, s, src->box.width);
        }
}

static void query_timestamps(const rd_command_t *cmd)
{
    size_t size = sizeof(ze_kernel_timestamp_result_t);
    for (uint32_t i = 0; i < cmd->u.query.count; i++) {
        ze_kernel_timestamp_result_t ts = rd_event_timestamp(cmd->u.query.events[i]);
        size_t offset = cmd->u.query.offsets ? cmd->u.query.offsets[i] : i * size;
        memcpy(cmd->u.query.dst + offset, &ts, size);
    }
}

static void do_work(const rd_command_t *cmd)
{
    switch (cmd->kind) {
    case RD_CMD_BARRIER:
        break;
    case RD_CMD_COPY:
        copy_or_fill(cmd, cmd->u.copy.size);
        break;
    case RD_CMD_COPY_REGION:
        copy_region(&cmd->u.region.dst, &cmd->u.region.src);
        break;
    case RD_CMD_FILL:
        copy_or_fill(cmd, cmd->u.fill.size);
        break;
    case RD_CMD_EVENT_RESET:
        rd_event_reset(cmd->u.reset);
        break;
    case RD_CMD_WRITE_TIMESTAMP: {
        uint64_t now = rd_now_ns();
        memcpy(cmd->u.timestamp_dst, &now, sizeof now);
        break;
    }
    case RD_CMD_QUERY_TIMESTAMPS:
        query_timestamps(cmd);
        break;
    case RD_CMD_LAUNCH:
        rd_launch_run(cmd->u.launch);
        break;
    case RD_CMD_LAUNCH_MULTIPLE: {
        uint32_t n = *cmd->u.multiple.count;
        for (uint32_t i = 0; i < n && i < cmd->u.multiple.max; i++)
            rd_launch_run(cmd->u.multiple.launches[i]);
        break;
    }
    }
}

void rd_command_run(const rd_command_t *cmd)
{
    for (uint32_t i = 0; i < cmd->num_waits; i++)
        rd_event_wait(cmd->waits[i], UINT64_MAX);
    uint64_t start = rd_now_ns();
    do_work(cmd);
    if (cmd->signal)
        rd_event_signal(cmd->signal, start, rd_now_ns());
}

void rd_command_release(rd_command_t *cmd)
{
    free(cmd->waits);
    cmd->waits = NULL;
    if (cmd->kind == RD_CMD_QUERY_TIMESTAMPS) {
        free(cmd->u.query.events);
        free(cmd->u.query.offsets);
    } else if (cmd->kind == RD_CMD_LAUNCH) {
        rd_launch_free(cmd->u.launch);
    } else if (cmd->kind == RD_CMD_LAUNCH_MULTIPLE && cmd->u.multiple.launches) {
        for (uint32_t i = 0; i < cmd->u.multiple.max; i++)
            rd_launch_free(cmd->u.multiple.launches[i]);
        free(cmd->u.multiple.launches);
    }
    cmd->kind = RD_CMD_BARRIER;
}
