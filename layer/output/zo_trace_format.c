/* zo_trace_format.c: Trace Event JSON objects (see zo_trace_format.h). */
#include "zo_trace_format.h"

#include <string.h>
#include <zeil/zeil.h>

static void begin_event(zo_buf_t *b, char ph, int pid, uint64_t tid)
{
    zo_buf_lit(b, ",\n{\"ph\":\"");
    zo_buf_char(b, ph);
    zo_buf_lit(b, "\",\"pid\":");
    zo_buf_u64(b, (uint64_t)pid);
    zo_buf_lit(b, ",\"tid\":");
    zo_buf_u64(b, tid);
}

static uint64_t since_base(const zo_trace_clock_t *c, uint64_t ns)
{
    return ns > c->base_ns ? ns - c->base_ns : 0;
}

/* A time since the base at a cursor. */
static char *put_time(char *p, const zo_trace_clock_t *c, uint64_t ns)
{
    return zo_put_us(p, since_base(c, ns));
}

/* begin_event at a cursor (room for EVENT_HEAD_BYTES). */
#define EVENT_HEAD_BYTES (9 + 1 + 8 + ZO_U64_MAX_CHARS + 7 + ZO_U64_MAX_CHARS)
static char *put_event_head(char *p, char ph, int pid, uint64_t tid)
{
    p = zo_put_lit(p, ",\n{\"ph\":\"");
    *p++ = ph;
    p = zo_put_lit(p, "\",\"pid\":");
    p = zo_put_u64(p, (uint64_t)pid);
    p = zo_put_lit(p, ",\"tid\":");
    return zo_put_u64(p, tid);
}

/* An event is written at a cursor into room reserved once (event_room);
 * when the buffer has less room, into the scratch, whose bytes then go in
 * cut where the buffer ends, as any text (event_done). Pieces a span does
 * not have kept (zo_launch_text.c) are made in made_store first. Both are
 * static: the trace is formatted under the writer's drain lock, one event
 * at a time (a fatal signal's drain on the same thread drops the event it
 * cut short: zo_trace_writer.c). */
#define EVENT_MAX_BYTES (16 * 1024)
static char scratch[EVENT_MAX_BYTES];
static char made_store[EVENT_MAX_BYTES];

static char *event_room(zo_buf_t *b, size_t n)
{
    char *p = zo_buf_room(b, n);
    return p ? p : scratch;
}

static void event_done(zo_buf_t *b, char *start, char *end)
{
    if (start == scratch)
        zo_buf_mem(b, scratch, (size_t)(end - scratch));
    else
        zo_buf_commit(b, end);
}

static void field_ts(zo_buf_t *b, uint64_t ns)
{
    zo_buf_lit(b, ",\"ts\":");
    zo_buf_us(b, ns);
}

static void metadata_name(zo_buf_t *b, int pid, uint64_t tid, const char *what)
{
    begin_event(b, 'M', pid, tid);
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
    begin_event(b, 'M', ZO_PID_HOST, 0);
    zo_buf_str(b, ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":1}}");
    begin_event(b, 'M', ZO_PID_DEVICE, 0);
    zo_buf_str(b, ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":2}}");
}

void zo_format_process_info(zo_buf_t *b, uint64_t pid, int rank, uint64_t realtime_ns)
{
    begin_event(b, 'M', ZO_PID_HOST, 0);
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
    begin_event(b, 'M', ZO_PID_DEVICE, tid);
    zo_buf_str_u64(b, ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":", sort_key);
    zo_buf_str(b, "}}");
}

void zo_format_stream_bound(zo_buf_t *b, const zo_trace_clock_t *c, uint32_t tid, uint64_t ns)
{
    begin_event(b, 'I', ZO_PID_DEVICE, tid); /* "I": the form DevTools reads */
    zo_buf_str(b, ",\"s\":\"t\",\"cat\":\"stream\",\"name\":\"stream bound\"");
    field_ts(b, since_base(c, ns));
    zo_buf_char(b, '}');
}

/* The API span's bytes besides its call's name, at most. */
#define API_SPAN_BYTES \
    (EVENT_HEAD_BYTES + 40 + 2 * (7 + ZO_US_MAX_CHARS) + 16 + ZO_U64_MAX_CHARS + 2)

/* zo_format_api_span at a cursor, with the call's name as JSON. */
static char *put_api_span(char *p, const zo_trace_clock_t *c, const zo_entry_t *e, uint64_t number,
                          int submission, const zo_text_piece_t *call)
{
    p = put_event_head(p, 'X', ZO_PID_HOST, e->thread);
    if (submission)
        p = zo_put_lit(p, ",\"cat\":\"" ZO_CAT_SUBMISSION "\",\"name\":");
    else
        p = zo_put_lit(p, ",\"cat\":\"api\",\"name\":");
    p = zo_put_mem(p, call->data, call->len);
    p = zo_put_lit(p, ",\"ts\":");
    p = put_time(p, c, e->start_ns);
    p = zo_put_lit(p, ",\"dur\":");
    p = zo_put_us(p, e->end_ns > e->start_ns ? e->end_ns - e->start_ns : 0);
    if (number) {
        p = zo_put_lit(p, ",\"args\":{\"seq\":");
        p = zo_put_u64(p, number);
        *p++ = '}';
    }
    *p++ = '}';
    return p;
}

void zo_format_api_span(zo_buf_t *b, const zo_trace_clock_t *c, const zo_entry_t *e,
                        uint64_t number, int submission, const zo_text_piece_t *call)
{
    zo_text_piece_t made;
    if (!call) {
        zo_buf_t store;
        zo_buf_init(&store, made_store, sizeof made_store);
        zo_buf_json_str(&store, e->call ? e->call : "");
        made.data = made_store;
        made.len = store.len;
        call = &made;
    }
    char *start = event_room(b, API_SPAN_BYTES + call->len);
    event_done(b, start, put_api_span(start, c, e, number, submission, call));
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
            zo_buf_lit(&t, " (");
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
        zo_buf_lit(&t, " [nominal]");
    text[t.len] = 0;
    zo_buf_json_str(b, text);
}

static void u32x3(zo_buf_t *b, const uint32_t v[3])
{
    zo_buf_u64(b, v[0]);
    zo_buf_char(b, ',');
    zo_buf_u64(b, v[1]);
    zo_buf_char(b, ',');
    zo_buf_u64(b, v[2]);
}

/* ,"kind":"launch","call":..,"kernel":..,"primitive":..,"impl":..[,"memory":..] */
static void launch_fields(zo_buf_t *b, const zo_entry_t *e)
{
    zo_buf_lit(b, ",\"kind\":\"launch\",\"call\":");
    zo_buf_json_str(b, e->call ? e->call : "");
    zo_buf_lit(b, ",\"kernel\":");
    zo_buf_json_str(b, e->name && e->name[0] ? e->name : 0);
    zo_buf_lit(b, ",\"primitive\":");
    zo_buf_json_str(b, e->primitive && e->primitive[0] ? e->primitive : 0);
    zo_buf_lit(b, ",\"impl\":");
    zo_buf_json_str(b, e->impl && e->impl[0] ? e->impl : 0);
    if (e->memory_args && e->memory_args[0]) {
        zo_buf_lit(b, ",\"memory\":");
        zo_buf_json_str(b, e->memory_args);
    }
}

/* ],"group_size":[x,y,z] (after the group count's numbers) */
static void launch_group_size(zo_buf_t *b, const zo_entry_t *e)
{
    zo_buf_lit(b, "],\"group_size\":[");
    u32x3(b, e->group_size);
    zo_buf_char(b, ']');
}

/* A piece of store: what f writes there. */
static void piece(zo_buf_t *store, zo_text_piece_t *p, void (*f)(zo_buf_t *, const zo_entry_t *),
                  const zo_entry_t *e)
{
    size_t from = store->len;
    f(store, e);
    p->data = store->data + from;
    p->len = store->len - from;
}

static void name_device(zo_buf_t *b, const zo_entry_t *e)
{
    span_name(b, e, ZO_TIMING_DEVICE);
}

static void name_nominal(zo_buf_t *b, const zo_entry_t *e)
{
    span_name(b, e, ZO_TIMING_NOMINAL);
}

static void call_name(zo_buf_t *b, const zo_entry_t *e)
{
    zo_buf_json_str(b, e->call ? e->call : "");
}

int zo_format_launch_text(zo_buf_t *store, const zo_entry_t *e, zo_launch_text_t *text)
{
    piece(store, &text->name[ZO_TIMING_DEVICE], name_device, e);
    piece(store, &text->name[ZO_TIMING_NOMINAL], name_nominal, e);
    piece(store, &text->call, call_name, e);
    piece(store, &text->fields, launch_fields, e);
    piece(store, &text->group_size, launch_group_size, e);
    return zo_buf_ok(store) ? 0 : -1;
}

/* From "kind" to the group size, or the bytes: what the submission was
 * (for a launch, what its kept text holds, with its group count). */
static void what_ran(zo_buf_t *b, const zo_entry_t *e)
{
    if (e->record_kind == ZEIL_RECORD_LAUNCH) {
        launch_fields(b, e);
        zo_buf_lit(b, ",\"group_count\":[");
        u32x3(b, e->group_count);
        launch_group_size(b, e);
        return;
    }
    zo_buf_lit(b, ",\"kind\":\"");
    zo_buf_str(b, record_kind_name(e->record_kind));
    zo_buf_lit(b, "\",\"call\":");
    zo_buf_json_str(b, e->call ? e->call : "");
    if (e->record_kind == ZEIL_RECORD_COPY || e->record_kind == ZEIL_RECORD_FILL) {
        zo_buf_lit(b, ",\"bytes\":");
        zo_buf_u64(b, e->bytes);
    }
}

/* A launch's device span besides its text and waits_on, at most. */
#define DEVICE_SPAN_BYTES 512
/* The longest JSON zo_buf_json_str makes of n bytes (each escaped to at most
 * 6, and the quotes): a span's name, and what_ran's five strings. */
#define JSON_TEXT_BYTES(n) (6 * (n) + 2)
#define SPAN_NAME_BYTES JSON_TEXT_BYTES(2 * ZO_MAX_FOREIGN_STRING + 32)
#define WHAT_RAN_BYTES (5 * JSON_TEXT_BYTES(ZO_MAX_FOREIGN_STRING) + 256)
_Static_assert(SPAN_NAME_BYTES + WHAT_RAN_BYTES <= EVENT_MAX_BYTES &&
                   DEVICE_SPAN_BYTES + SPAN_NAME_BYTES + WHAT_RAN_BYTES +
                           ZO_ENTRY_MAX_WAITS * (ZO_U64_MAX_CHARS + 1) <=
                       EVENT_MAX_BYTES,
               "a span's pieces and the span fit the scratch");

static char *put_u32x3(char *p, const uint32_t v[3])
{
    p = zo_put_u64(p, v[0]);
    *p++ = ',';
    p = zo_put_u64(p, v[1]);
    *p++ = ',';
    return zo_put_u64(p, v[2]);
}

/* zo_format_device_span at a cursor: its name, then from "kind" to the
 * group size either from a launch's kept text (with its group count) or
 * from what (what_ran's text). */
static char *put_device_span(char *p, const zo_trace_clock_t *c, const zo_entry_t *e, uint32_t tid,
                             uint64_t start_ns, uint64_t end_ns, zo_span_timing_t timing,
                             const uint64_t *waits_on, uint32_t num_waits_on,
                             const zo_text_piece_t *name, const zo_launch_text_t *text,
                             const zo_text_piece_t *what)
{
    p = put_event_head(p, 'X', ZO_PID_DEVICE, tid);
    p = zo_put_lit(p, ",\"cat\":\"" ZO_CAT_SUBMISSION "\",\"name\":");
    p = zo_put_mem(p, name->data, name->len);
    p = zo_put_lit(p, ",\"ts\":");
    p = put_time(p, c, start_ns);
    p = zo_put_lit(p, ",\"dur\":");
    p = zo_put_us(p, end_ns > start_ns ? end_ns - start_ns : 0);
    p = zo_put_lit(p, ",\"args\":{\"seq\":");
    p = zo_put_u64(p, e->seq);
    if (text) {
        p = zo_put_mem(p, text->fields.data, text->fields.len);
        p = zo_put_lit(p, ",\"group_count\":[");
        p = put_u32x3(p, e->group_count);
        p = zo_put_mem(p, text->group_size.data, text->group_size.len);
    } else {
        p = zo_put_mem(p, what->data, what->len);
    }
    p = zo_put_lit(p, ",\"thread\":");
    p = zo_put_u64(p, e->thread);
    p = zo_put_lit(p, ",\"wait_events\":");
    p = zo_put_u64(p, e->num_waits);
    if (e->waits_cut)
        p = zo_put_lit(p, ",\"wait_events_cut\":true");
    if (num_waits_on) {
        p = zo_put_lit(p, ",\"waits_on\":[");
        for (uint32_t i = 0; i < num_waits_on; i++) {
            if (i)
                *p++ = ',';
            p = zo_put_u64(p, waits_on[i]);
        }
        *p++ = ']';
    }
    p = zo_put_lit(p, ",\"host_ts\":");
    p = put_time(p, c, e->start_ns);
    if (timing == ZO_TIMING_DEVICE)
        return zo_put_lit(p, ",\"timing\":\"device\"}}");
    return zo_put_lit(p, ",\"timing\":\"nominal: submission order, 10 us each\"}}");
}

void zo_format_device_span(zo_buf_t *b, const zo_trace_clock_t *c, const zo_entry_t *e,
                           uint32_t tid, uint64_t start_ns, uint64_t end_ns,
                           zo_span_timing_t timing, const uint64_t *waits_on, uint32_t num_waits_on,
                           const zo_launch_text_t *text)
{
    zo_text_piece_t name, what = {0, 0};
    if (text) {
        name = text->name[timing];
    } else {
        zo_buf_t store;
        zo_buf_init(&store, made_store, sizeof made_store);
        span_name(&store, e, timing);
        name.data = made_store;
        name.len = store.len;
        what_ran(&store, e);
        what.data = made_store + name.len;
        what.len = store.len - name.len;
    }
    size_t pieces = name.len + what.len + (text ? text->fields.len + text->group_size.len : 0);
    char *start =
        event_room(b, DEVICE_SPAN_BYTES + pieces + (size_t)num_waits_on * (ZO_U64_MAX_CHARS + 1));
    event_done(b, start,
               put_device_span(start, c, e, tid, start_ns, end_ns, timing, waits_on, num_waits_on,
                               &name, text, &what));
}

#define FLOW_BYTES (EVENT_HEAD_BYTES + 64 + ZO_U64_MAX_CHARS + 6 + ZO_US_MAX_CHARS + 10)

void zo_format_flow(zo_buf_t *b, const zo_trace_clock_t *c, char phase, zo_arrow_t arrow,
                    uint64_t flow_id, int pid, uint32_t tid, uint64_t ns)
{
    char *start = event_room(b, FLOW_BYTES);
    char *p = put_event_head(start, phase, pid, tid);
    if (arrow == ZO_ARROW_SUBMIT)
        p = zo_put_lit(p, ",\"cat\":\"" ZO_CAT_SUBMISSION "\",\"name\":\"submit\",\"id\":");
    else
        p = zo_put_lit(p, ",\"cat\":\"" ZO_CAT_SUBMISSION "\",\"name\":\"event\",\"id\":");
    p = zo_put_u64(p, flow_id);
    /* At the span's start: DevTools binds by equal ts; "bp":"e" makes
     * Perfetto bind the end to the enclosing slice rather than the next. */
    p = zo_put_lit(p, ",\"ts\":");
    p = put_time(p, c, ns);
    if (phase == 'f')
        p = zo_put_lit(p, ",\"bp\":\"e\"");
    *p++ = '}';
    event_done(b, start, p);
}

void zo_format_trace_end(zo_buf_t *b, const char *reason, int signo, uint64_t dropped)
{
    begin_event(b, 'M', ZO_PID_HOST, 0);
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
