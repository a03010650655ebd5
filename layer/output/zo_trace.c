/* zo_trace.c: the launch-path side of the trace (zeil_output.h "trace"):
 * put what the layer hands over into this thread's ring, nothing more. */
#include "zeil_output.h"
#include "zo_flusher.h"
#include "zo_ring.h"
#include "zo_trace_internal.h"
#include "zo_trace_launch.h"
#include "zo_trace_writer.h"

#include <stdatomic.h>
#include <string.h>

_Atomic int zo_tracing;

int zo_trace_start(const char *path, uint64_t base_ns, int timing, int rank)
{
    if (zo_writer_open(path, base_ns, timing, rank) != 0)
        return -1;
    atomic_store(&zo_tracing, 1);
    return 0;
}

void zo_trace_stop(void)
{
    atomic_store(&zo_tracing, 0);
}

static zo_entry_t *begin_entry(zo_ring_t **ring)
{
    if (!zo_trace_enabled())
        return 0;
    *ring = zo_ring_mine();
    return *ring ? zo_ring_reserve(*ring) : 0;
}

static void end_entry(zo_ring_t *ring)
{
    if (zo_ring_publish(ring))
        zo_flusher_wake();
}

void zo_trace_api_call(uint32_t thread, const char *call, uint64_t number, uint64_t start_ns,
                       uint64_t end_ns)
{
    zo_ring_t *ring;
    zo_entry_t *e = begin_entry(&ring);
    if (!e)
        return;
    e->kind = ZO_ENTRY_API_CALL;
    e->thread = thread;
    e->seq = number;
    e->start_ns = start_ns;
    e->end_ns = end_ns;
    e->call = call;
    end_entry(ring);
}

void zo_trace_submission(const zeil_record_t *r)
{
    zo_ring_t *ring;
    zo_entry_t *e = begin_entry(&ring);
    if (!e)
        return;
    e->kind = ZO_ENTRY_SUBMISSION;
    e->record_kind = (uint8_t)r->kind;
    e->thread = r->thread;
    e->seq = zo_trace_seq(r->seq);
    e->start_ns = r->host_ns;
    e->end_ns = 0;
    e->device_start_ns = r->device_start_ns;
    e->device_end_ns = r->device_end_ns;
    e->list = (uint64_t)(uintptr_t)r->list;
    e->stream_id = r->stream_id;
    e->signal_event = (uint64_t)(uintptr_t)r->signal_event;
    e->bytes = r->bytes;
    memcpy(e->group_count, r->group_count, sizeof e->group_count);
    memcpy(e->group_size, r->group_size, sizeof e->group_size);
    uint32_t waits = r->wait_events ? r->num_wait_events : 0;
    e->num_waits = (uint8_t)(waits < ZO_ENTRY_MAX_WAITS ? waits : ZO_ENTRY_MAX_WAITS);
    e->waits_cut = waits > ZO_ENTRY_MAX_WAITS;
    for (uint32_t i = 0; i < e->num_waits; i++)
        e->waits[i] = (uint64_t)(uintptr_t)r->wait_events[i];
    e->call = r->call;
    e->name = r->kernel;
    e->primitive = r->primitive;
    e->impl = r->impl;
    e->memory_args = r->memory_args;
    e->shared = 0; /* no launch text: the slot may hold a launch's pointer */
    end_entry(ring);
}

void zo_trace_device_times(uint64_t seq, uint64_t start_ns, uint64_t end_ns)
{
    zo_ring_t *ring;
    zo_entry_t *e = begin_entry(&ring);
    if (!e)
        return;
    e->kind = ZO_ENTRY_DEVICE_TIMES;
    e->seq = zo_trace_seq(seq);
    e->device_start_ns = start_ns;
    e->device_end_ns = end_ns;
    end_entry(ring);
}

void zo_trace_track_name(ze_command_list_handle_t list, uint64_t stream_id, const char *name,
                         uint64_t sort_key)
{
    zo_ring_t *ring;
    zo_entry_t *e = begin_entry(&ring);
    if (!e)
        return;
    e->kind = ZO_ENTRY_TRACK_NAME;
    e->list = (uint64_t)(uintptr_t)list;
    e->stream_id = stream_id;
    e->name = name;
    e->seq = sort_key;
    e->start_ns = zo_now_ns();
    end_entry(ring);
}
