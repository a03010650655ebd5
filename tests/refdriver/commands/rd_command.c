/* Running one command: wait, work, signal. */
#include "rd_command.h"
#include "rd_launch.h"
#include "rd_sync.h"

#include <stdlib.h>
#include <string.h>

ze_result_t rd_command_init(rd_command_t *cmd, rd_command_kind_t kind, rd_cmd_arena_t *arena,
                            ze_event_handle_t signal, uint32_t num_waits,
                            const ze_event_handle_t *waits)
{
    memset(cmd, 0, sizeof *cmd);
    cmd->kind = kind;
    cmd->in_arena = arena != NULL;
    if (signal)
        RD_TRY(rd_event_from_handle(signal, &cmd->signal));
    if (!arena || num_waits == 0) {
        RD_TRY(rd_event_list(num_waits, waits, &cmd->waits));
    } else {
        if (!waits)
            return ZE_RESULT_ERROR_INVALID_SIZE;
        cmd->waits = rd_cmd_arena_alloc(arena, num_waits * sizeof *cmd->waits);
        if (!cmd->waits)
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        for (uint32_t i = 0; i < num_waits; i++) {
            ze_result_t r = rd_event_from_handle(waits[i], &cmd->waits[i]);
            if (r != ZE_RESULT_SUCCESS)
                return r == ZE_RESULT_ERROR_INVALID_NULL_HANDLE
                           ? ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT
                           : r;
        }
    }
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

static ze_result_t do_work(const rd_command_t *cmd)
{
    switch (cmd->kind) {
    case RD_CMD_BARRIER:
        break;
    case RD_CMD_COPY:
        if (cmd->u.copy.size)
            memmove(cmd->u.copy.dst, cmd->u.copy.src, cmd->u.copy.size);
        break;
    case RD_CMD_COPY_REGION:
        copy_region(&cmd->u.region.dst, &cmd->u.region.src);
        break;
    case RD_CMD_FILL:
        fill(cmd->u.fill.dst, cmd->u.fill.size, cmd->u.fill.pattern, cmd->u.fill.pattern_size);
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
        return rd_launch_run(cmd->u.launch);
    case RD_CMD_LAUNCH_MULTIPLE: {
        ze_result_t first = ZE_RESULT_SUCCESS;
        uint32_t n = *cmd->u.multiple.count;
        for (uint32_t i = 0; i < n && i < cmd->u.multiple.max; i++) {
            ze_result_t r = rd_launch_run(cmd->u.multiple.launches[i]);
            if (first == ZE_RESULT_SUCCESS)
                first = r;
        }
        return first;
    }
    }
    return ZE_RESULT_SUCCESS;
}

ze_result_t rd_command_run(const rd_command_t *cmd)
{
    for (uint32_t i = 0; i < cmd->num_waits; i++)
        rd_event_wait(cmd->waits[i], UINT64_MAX);
    uint64_t start = rd_now_ns();
    ze_result_t r = do_work(cmd);
    if (cmd->signal)
        rd_event_signal_result(cmd->signal, start, rd_now_ns(), r);
    return r;
}

/* Every event the command uses, to hold or release (fn). */
static void each_event(const rd_command_t *cmd, void (*fn)(rd_event_t *))
{
    fn(cmd->signal);
    for (uint32_t i = 0; cmd->waits && i < cmd->num_waits; i++)
        fn(cmd->waits[i]);
    if (cmd->kind == RD_CMD_EVENT_RESET)
        fn(cmd->u.reset);
    for (uint32_t i = 0;
         cmd->kind == RD_CMD_QUERY_TIMESTAMPS && cmd->u.query.events && i < cmd->u.query.count; i++)
        fn(cmd->u.query.events[i]);
}

void rd_command_hold_events(rd_command_t *cmd)
{
    each_event(cmd, rd_event_hold);
    cmd->holds_events = 1;
}

void rd_command_release(rd_command_t *cmd)
{
    if (cmd->holds_events)
        each_event(cmd, rd_event_release);
    cmd->holds_events = 0;
    if (!cmd->in_arena)
        free(cmd->waits);
    cmd->waits = NULL;
    if (cmd->kind == RD_CMD_QUERY_TIMESTAMPS) {
        free(cmd->u.query.events);
        free(cmd->u.query.offsets);
    } else if (cmd->kind == RD_CMD_LAUNCH) {
        if (!cmd->in_arena)
            rd_launch_free(cmd->u.launch);
    } else if (cmd->kind == RD_CMD_LAUNCH_MULTIPLE && cmd->u.multiple.launches) {
        for (uint32_t i = 0; i < cmd->u.multiple.max; i++)
            rd_launch_free(cmd->u.multiple.launches[i]);
        free(cmd->u.multiple.launches);
    }
    cmd->kind = RD_CMD_BARRIER;
}
