/* zo_trace_format.c: Trace Event JSON objects (see zo_trace_format.h). */
#include "zo_trace_format.h"

#include <string.h>
#include <zeil/zeil.h>

static void begin_event(zo_buf_t *b, const char *ph, int pid, uint64_t tid)
{
    zo_buf_str(b, ",\n{\"ph\":\"");
    zo_buf_str(b, ph);
    zo_buf_str_u64(b, "\",\"pid\":", (uint64_t)pid);
    zo_buf_str_u64(b, ",\"tid\":", tid);
}

static void field_ts(zo_buf_t *b, const char *key, uint64_t ns)
{
    zo_buf_str(b, ",\"");
    zo_buf_str(b, key);
    zo_buf_str(b, "\":");
    zo_buf_fixed(b, ns, 1000, 3);
}

static uint64_t since_base(const zo_trace_clock_t *c, uint64_t ns)
{
    return ns > c->base_ns ? ns - c->base_ns : 0;
}

static void metadata_name(zo_buf_t *b, int pid, uint64_t tid, const char *what)
{
    begin_event(b, "M", pid, tid);
    zo_buf_str(b, ",\"name\":\"");
    zo_buf_str(b, what);
    zo_buf_str(b, "\",\"args\":{\"name\":");
}

void zo_format_trace_header(zo_buf_t *b)
{
    zo_buf_str(b, "[{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"process_name\","
                  "\"args\":{\"name\":\"host\"}}");
    metadata_name(b, ZO_PID_DEVICE, 0, "process_name");
    zo_buf_str(b, "\"device\"}}");
    begin_event(b, "M", ZO_PID_HOST, 0);
    zo_buf_str(b, ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":1}}");
    begin_event(b, "M", ZO_PID_DEVICE, 0);
    zo_buf_str(b, ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":2}}");
}

void zo_format_process_info(zo_buf_t *b, uint64_t pid, int rank, uint64_t realtime_ns)
{
    begin_event(b, "M", ZO_PID_HOST, 0);
    zo_buf_str_u64(b, ",\"name\":\"zeil_process\",\"args\":{\"pid\":", pid);
    zo_buf_str(b, ",\"rank\":");
    if (rank >= 0)
        zo_buf_u64(b, (uint64_t)rank);
    else
        zo_buf_str(b, "null");
    zo_buf_str_u64(b, ",\"realtime_ns\":", realtime_ns);
    zo_buf_str(b, "}}");
}

void zo_format_host_thread_name(zo_buf_t *b, uint32_t thread)
{
    metadata_name(b, ZO_PID_HOST, thread, "thread_name");
    zo_buf_str_u64(b, "\"thread ", thread);
    zo_buf_str(b, "\"}}");
}

/* "LABEL (stream 0x1, list 0x2)", "LABEL (list 0x2)", or without a label
 * "stream 0x1 (list 0x2)", "list 0x2". */
static void track_label(zo_buf_t *t, uint64_t stream_id, uint64_t list, const char *label)
{
    int labelled = label && label[0];
    if (labelled) {
        zo_buf_mem(t, label, strnlen(label, ZO_MAX_FOREIGN_STRING));
        zo_buf_str(t, " (");
        if (stream_id) {
            zo_buf_str(t, "stream ");
            zo_buf_hex(t, stream_id);
            zo_buf_str(t, ", ");
        }
    } else if (stream_id) {
        zo_buf_str(t, "stream ");
        zo_buf_hex(t, stream_id);
        zo_buf_str(t, " (");
    }
    zo_buf_str(t, "list ");
    zo_buf_hex(t, list);
    if (labelled || stream_id)
        zo_buf_char(t, ')');
}

void zo_format_device_track_name(zo_buf_t *b, uint32_t tid, uint64_t stream_id, uint64_t list,
                                 const char *label)
{
    char text[ZO_MAX_FOREIGN_STRING + 64];
    zo_buf_t t;
    zo_buf_init(&t, text, sizeof text - 1);
    track_label(&t, stream_id, list, label);
    text[t.len] = 0;
    metadata_name(b, ZO_PID_DEVICE, tid, "thread_name");
    zo_buf_json_str(b, text);
    zo_buf_str(b, "}}");
}

void zo_format_device_track_order(zo_buf_t *b, uint32_t tid, uint64_t sort_key)
{
    begin_event(b, "M", ZO_PID_DEVICE, tid);
    zo_buf_str_u64(b, ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":", sort_key);
    zo_buf_str(b, "}}");
}

void zo_format_stream_bound(zo_buf_t *b, const zo_trace_clock_t *c, uint32_t tid, uint64_t ns)
{
    begin_event(b, "I", ZO_PID_DEVICE, tid); /* "I": the form DevTools reads */
    zo_buf_str(b, ",\"s\":\"t\",\"cat\":\"stream\",\"name\":\"stream bound\"");
    field_ts(b, "ts", since_base(c, ns));
    zo_buf_char(b, '}');
}

void zo_format_api_span(zo_buf_t *b, const zo_trace_clock_t *c, const zo_entry_t *e, int submission)
{
    begin_event(b, "X", ZO_PID_HOST, e->thread);
    zo_buf_str(b, submission ? ",\"cat\":\"" ZO_CAT_SUBMISSION "\",\"name\":"
                             : ",\"cat\":\"api\",\"name\":");
    zo_buf_json_str(b, e->call ? e->call : "");
    field_ts(b, "ts", since_base(c, e->start_ns));
    field_ts(b, "dur", e->end_ns > e->start_ns ? e->end_ns - e->start_ns : 0);
    if (e->seq) {
        zo_buf_str_u64(b, ",\"args\":{\"seq\":", e->seq);
        zo_buf_char(b, '}');
    }
    zo_buf_char(b, '}');
}

static const char *record_kind_name(uint8_t kind)
{
    switch (kind) {
    case ZEIL_RECORD_LAUNCH:
        return "launch";
    case ZEIL_RECORD_COPY:
        return "copy";
    case ZEIL_RECORD_FILL:
        return "fill";
    case ZEIL_RECORD_BARRIER:
        return "barrier";
    default:
        return "other";
    }
}

/* What ran: "convolution (x64:gemm:jit)" for a attributed launch, else the
 * kernel's name; "copy", "fill", "barrier"; nominal spans say so. */
static void span_name(zo_buf_t *b, const zo_entry_t *e, zo_span_timing_t timing)
{
    char text[2 * ZO_MAX_FOREIGN_STRING + 32];
    zo_buf_t t;
    zo_buf_init(&t, text, sizeof text - 1);
    if (e->record_kind == ZEIL_RECORD_LAUNCH && e->primitive && e->primitive[0]) {
        zo_buf_mem(&t, e->primitive, strnlen(e->primitive, ZO_MAX_FOREIGN_STRING));
        if (e->impl && e->impl[0]) {
            zo_buf_str(&t, " (");
            zo_buf_mem(&t, e->impl, strnlen(e->impl, ZO_MAX_FOREIGN_STRING));
            zo_buf_char(&t, ')');
        }
    } else if (e->record_kind == ZEIL_RECORD_LAUNCH) {
        const char *kernel = e->name && e->name[0] ? e->name : "kernel";
        zo_buf_mem(&t, kernel, strnlen(kernel, ZO_MAX_FOREIGN_STRING));
    } else if (e->record_kind == ZEIL_RECORD_OTHER) {
        const char *call = e->call && e->call[0] ? e->call : "other";
        zo_buf_mem(&t, call, strnlen(call, ZO_MAX_FOREIGN_STRING));
    } else {
        zo_buf_str(&t, record_kind_name(e->record_kind));
    }
    if (timing == ZO_TIMING_NOMINAL)
        zo_buf_str(&t, " [nominal]");
    text[t.len] = 0;
    zo_buf_json_str(b, text);
}

static void field_u32x3(zo_buf_t *b, const char *key, const uint32_t v[3])
{
    zo_buf_str(b, ",\"");
    zo_buf_str(b, key);
    zo_buf_str(b, "\":[");
    for (int i = 0; i < 3; i++) {
        if (i)
            zo_buf_char(b, ',');
        zo_buf_u64(b, v[i]);
    }
    zo_buf_char(b, ']');
}

void zo_format_device_span(zo_buf_t *b, const zo_trace_clock_t *c, const zo_entry_t *e,
                           uint32_t tid, uint64_t start_ns, uint64_t end_ns,
                           zo_span_timing_t timing, const uint64_t *waits_on, uint32_t num_waits_on)
{
    begin_event(b, "X", ZO_PID_DEVICE, tid);
    zo_buf_str(b, ",\"cat\":\"" ZO_CAT_SUBMISSION "\",\"name\":");
    span_name(b, e, timing);
    field_ts(b, "ts", since_base(c, start_ns));
    field_ts(b, "dur", end_ns > start_ns ? end_ns - start_ns : 0);
    zo_buf_str_u64(b, ",\"args\":{\"seq\":", e->seq);
    zo_buf_str(b, ",\"kind\":\"");
    zo_buf_str(b, record_kind_name(e->record_kind));
    zo_buf_str(b, "\",\"call\":");
    zo_buf_json_str(b, e->call ? e->call : "");
    if (e->record_kind == ZEIL_RECORD_LAUNCH) {
        zo_buf_str(b, ",\"kernel\":");
        zo_buf_json_str(b, e->name && e->name[0] ? e->name : 0);
        zo_buf_str(b, ",\"primitive\":");
        zo_buf_json_str(b, e->primitive && e->primitive[0] ? e->primitive : 0);
        zo_buf_str(b, ",\"impl\":");
        zo_buf_json_str(b, e->impl && e->impl[0] ? e->impl : 0);
        if (e->memory_args && e->memory_args[0]) {
            zo_buf_str(b, ",\"memory\":");
            zo_buf_json_str(b, e->memory_args);
        }
        field_u32x3(b, "group_count", e->group_count);
        field_u32x3(b, "group_size", e->group_size);
    } else if (e->record_kind == ZEIL_RECORD_COPY || e->record_kind == ZEIL_RECORD_FILL) {
        zo_buf_str_u64(b, ",\"bytes\":", e->bytes);
    }
    zo_buf_str_u64(b, ",\"thread\":", e->thread);
    zo_buf_str_u64(b, ",\"wait_events\":", e->num_waits);
    if (e->waits_cut)
        zo_buf_str(b, ",\"wait_events_cut\":true");
    if (num_waits_on) {
        zo_buf_str(b, ",\"waits_on\":[");
        for (uint32_t i = 0; i < num_waits_on; i++) {
            if (i)
                zo_buf_char(b, ',');
            zo_buf_u64(b, waits_on[i]);
        }
        zo_buf_char(b, ']');
    }
    zo_buf_str(b, ",\"host_ts\":");
    zo_buf_fixed(b, since_base(c, e->start_ns), 1000, 3);
    if (timing == ZO_TIMING_DEVICE)
        zo_buf_str(b, ",\"timing\":\"device\"}}");
    else
        zo_buf_str(b, ",\"timing\":\"nominal: submission order, 10 us each\"}}");
}

void zo_format_flow(zo_buf_t *b, const zo_trace_clock_t *c, char phase, const char *name,
                    uint64_t flow_id, int pid, uint32_t tid, uint64_t ns)
{
    char ph[2] = {phase, 0};
    begin_event(b, ph, pid, tid);
    zo_buf_str(b, ",\"cat\":\"" ZO_CAT_SUBMISSION "\",\"name\":\"");
    zo_buf_str(b, name);
    zo_buf_str_u64(b, "\",\"id\":", flow_id);
    /* At the span's start: DevTools binds by equal ts; "bp":"e" makes
     * Perfetto bind the end to the enclosing slice rather than the next. */
    field_ts(b, "ts", since_base(c, ns));
    if (phase == 'f')
        zo_buf_str(b, ",\"bp\":\"e\"");
    zo_buf_char(b, '}');
}

void zo_format_trace_end(zo_buf_t *b, const char *reason, int signo, uint64_t dropped)
{
    begin_event(b, "M", ZO_PID_HOST, 0);
    zo_buf_str(b, ",\"name\":\"zeil_trace_end\",\"args\":{\"reason\":\"");
    zo_buf_str(b, reason);
    zo_buf_str_u64(b, "\",\"signal\":", (uint64_t)(signo > 0 ? signo : 0));
    zo_buf_str_u64(b, ",\"dropped_records\":", dropped);
    zo_buf_str(b, "}}");
}

void zo_format_trace_close(zo_buf_t *b)
{
    zo_buf_str(b, "\n]\n");
}
