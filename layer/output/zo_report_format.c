/* zo_report_format.c: report text and summary JSON (see zo_report_format.h). */
#include "zo_report_format.h"
#include "zo_report_coverage.h"
#include "zo_buf.h"

#include <stdlib.h>
#include <string.h>

/* ---- common pieces ---- */

static const char *const kind_keys[ZEIL_KIND_COUNT] = {
    [ZEIL_KIND_UNKNOWN] = "unknown",
    [ZEIL_KIND_DRIVER] = "driver",
    [ZEIL_KIND_DEVICE] = "device",
    [ZEIL_KIND_CONTEXT] = "context",
    [ZEIL_KIND_COMMAND_QUEUE] = "command_queue",
    [ZEIL_KIND_COMMAND_LIST] = "command_list",
    [ZEIL_KIND_EVENT_POOL] = "event_pool",
    [ZEIL_KIND_EVENT] = "event",
    [ZEIL_KIND_FENCE] = "fence",
    [ZEIL_KIND_MODULE] = "module",
    [ZEIL_KIND_KERNEL] = "kernel",
};

int zo_kind_is_leak(zeil_kind_t kind)
{
    return kind > ZEIL_KIND_DEVICE && kind < ZEIL_KIND_COUNT;
}

const char *zo_kind_key(zeil_kind_t kind)
{
    return kind < ZEIL_KIND_COUNT ? kind_keys[kind] : "unknown";
}

static const char *severity_name(zeil_severity_t s)
{
    switch (s) {
    case ZEIL_SEVERITY_ERROR:
        return "error";
    case ZEIL_SEVERITY_WARNING:
        return "warning";
    default:
        return "info";
    }
}

/* Text cell: control characters replaced, length bounded. */
typedef struct cell {
    char text[ZO_MAX_FOREIGN_STRING + 8];
} cell_t;

static void cell_text(cell_t *c, const char *s)
{
    zo_buf_t b;
    zo_buf_init(&b, c->text, sizeof c->text - 1);
    zo_buf_safe_text(&b, s && s[0] ? s : "-");
    c->text[b.len] = 0;
}

static void cell_u64(cell_t *c, uint64_t v)
{
    zo_buf_t b;
    zo_buf_init(&b, c->text, sizeof c->text - 1);
    zo_buf_u64(&b, v);
    c->text[b.len] = 0;
}

static void cell_fixed(cell_t *c, int have, uint64_t v, uint64_t unit, int decimals)
{
    if (!have) {
        strcpy(c->text, "-");
        return;
    }
    zo_buf_t b;
    zo_buf_init(&b, c->text, sizeof c->text - 1);
    zo_buf_fixed(&b, v, unit, decimals);
    c->text[b.len] = 0;
}

static unsigned long long list_value(const zeil_kernel_stats_t *k)
{
    return (unsigned long long)(uintptr_t)k->list;
}

static int same_track(const zeil_kernel_stats_t *a, const zeil_kernel_stats_t *b)
{
    return a->stream_id == b->stream_id && a->list == b->list;
}

/* Rows of one track, busiest first; ties by launches then kernel name. */
static int by_device_time(const void *pa, const void *pb)
{
    const zeil_kernel_stats_t *a = *(const zeil_kernel_stats_t *const *)pa;
    const zeil_kernel_stats_t *b = *(const zeil_kernel_stats_t *const *)pb;
    if (a->total_device_ns != b->total_device_ns)
        return a->total_device_ns > b->total_device_ns ? -1 : 1;
    if (a->launches != b->launches)
        return a->launches > b->launches ? -1 : 1;
    return strcmp(a->kernel ? a->kernel : "", b->kernel ? b->kernel : "");
}

/* The rows of the track of kernels[first], in report order; returns how
 * many (0 when out of memory). */
static size_t track_rows(const zo_report_data_t *d, size_t first, const zeil_kernel_stats_t ***rows)
{
    size_t n = 0;
    for (size_t i = first; i < d->num_kernels; i++)
        n += same_track(&d->kernels[i], &d->kernels[first]);
    *rows = malloc(n * sizeof **rows);
    if (!*rows)
        return 0;
    n = 0;
    for (size_t i = first; i < d->num_kernels; i++)
        if (same_track(&d->kernels[i], &d->kernels[first]))
            (*rows)[n++] = &d->kernels[i];
    qsort(*rows, n, sizeof **rows, by_device_time);
    return n;
}

/* Whether kernels[i] is the first row of its track. */
static int starts_track(const zo_report_data_t *d, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (same_track(&d->kernels[j], &d->kernels[i]))
            return 0;
    return 1;
}

/* ---- report text ---- */

#define KERNEL_COLUMNS 6

static void print_table(FILE *out, const char *const head[], cell_t (*cells)[KERNEL_COLUMNS],
                        size_t n, int columns, const int right[])
{
    int width[KERNEL_COLUMNS];
    for (int c = 0; c < columns; c++) {
        width[c] = (int)strlen(head[c]);
        for (size_t r = 0; r < n; r++) {
            int w = (int)strlen(cells[r][c].text);
            if (w > width[c])
                width[c] = w;
        }
    }
    for (size_t r = 0; r <= n; r++) {
        fputs("  ", out);
        for (int c = 0; c < columns; c++) {
            const char *t = r == 0 ? head[c] : cells[r - 1][c].text;
            int last = c == columns - 1;
            if (right[c])
                fprintf(out, "%*s", width[c], t);
            else
                fprintf(out, "%-*s", last ? 0 : width[c], t);
            fputs(last ? "\n" : "  ", out);
        }
    }
}

/* The label of the track of a row, null when zeil had none. */
static const char *label_of(const zo_report_data_t *d, const zeil_kernel_stats_t *k)
{
    size_t i = (size_t)(k - d->kernels);
    return d->labels && i < d->num_kernels && d->labels[i] && d->labels[i][0] ? d->labels[i] : NULL;
}

static void print_track(FILE *out, const zo_report_data_t *d,
                        const zeil_kernel_stats_t *const *rows, size_t n)
{
    static const char *const head[KERNEL_COLUMNS] = {"kernel",   "primitive", "implementation",
                                                     "launches", "total ms",  "mean us"};
    static const int right[KERNEL_COLUMNS] = {0, 0, 0, 1, 1, 1};
    const char *label = label_of(d, rows[0]);
    if (label) {
        cell_t title;
        cell_text(&title, label);
        fprintf(out, "\n%s (", title.text);
        if (rows[0]->stream_id)
            fprintf(out, "stream 0x%llx, ", (unsigned long long)rows[0]->stream_id);
        fprintf(out, "list 0x%llx)\n", list_value(rows[0]));
    } else if (rows[0]->stream_id) {
        fprintf(out, "\nstream 0x%llx (list 0x%llx)\n", (unsigned long long)rows[0]->stream_id,
                list_value(rows[0]));
    } else {
        fprintf(out, "\nlist 0x%llx (no stream)\n", list_value(rows[0]));
    }
    cell_t(*cells)[KERNEL_COLUMNS] = calloc(n, sizeof *cells);
    if (!cells)
        return;
    for (size_t r = 0; r < n; r++) {
        const zeil_kernel_stats_t *k = rows[r];
        cell_text(&cells[r][0], k->kernel);
        cell_text(&cells[r][1], k->primitive);
        cell_text(&cells[r][2], k->impl);
        cell_u64(&cells[r][3], k->launches);
        cell_fixed(&cells[r][4], k->timed_launches > 0, k->total_device_ns, 1000000, 3);
        cell_fixed(&cells[r][5], k->timed_launches > 0,
                   k->timed_launches ? k->total_device_ns / k->timed_launches : 0, 1000, 1);
    }
    print_table(out, head, cells, n, KERNEL_COLUMNS, right);
    free(cells);
}

static void print_kernels(FILE *out, const zo_report_data_t *d)
{
    if (d->num_kernels == 0)
        fputs("\nno kernels were launched\n", out);
    for (size_t i = 0; i < d->num_kernels; i++) {
        if (!starts_track(d, i))
            continue;
        const zeil_kernel_stats_t **rows;
        size_t n = track_rows(d, i, &rows);
        if (n)
            print_track(out, d, rows, n);
        free(rows);
    }
}

static size_t fired_rules(const zo_report_data_t *d)
{
    size_t n = 0;
    for (size_t i = 0; i < d->num_rules; i++)
        n += d->rules[i].count > 0;
    return n;
}

static void print_rules(FILE *out, const zo_report_data_t *d)
{
    static const char *const head[] = {"rule", "severity", "count", "summary"};
    static const int right[] = {0, 0, 1, 0};
    fprintf(out, "\nerrors and warnings: %llu error%s, %llu warning%s\n",
            (unsigned long long)d->errors, d->errors == 1 ? "" : "s",
            (unsigned long long)d->warnings, d->warnings == 1 ? "" : "s");
    size_t n = fired_rules(d);
    if (n == 0)
        return;
    cell_t(*cells)[KERNEL_COLUMNS] = calloc(n, sizeof *cells);
    if (!cells)
        return;
    size_t r = 0;
    for (size_t i = 0; i < d->num_rules; i++) {
        const zeil_rule_stats_t *s = &d->rules[i];
        if (!s->count)
            continue;
        cell_text(&cells[r][0], s->rule);
        cell_text(&cells[r][1], severity_name(s->severity));
        cell_u64(&cells[r][2], s->count);
        cell_text(&cells[r][3], s->summary);
        r++;
    }
    print_table(out, head, cells, n, 4, right);
    free(cells);
}

static void print_leaks(FILE *out, const zo_report_data_t *d)
{
    int any = 0;
    fputs("\nleaks:", out);
    for (int k = 0; k < ZEIL_KIND_COUNT; k++) {
        uint64_t n = d->live.handles[k];
        if (!zo_kind_is_leak((zeil_kind_t)k) || n == 0)
            continue;
        char name[32];
        strcpy(name, zo_kind_key((zeil_kind_t)k));
        for (char *p = name; *p; p++)
            if (*p == '_')
                *p = ' ';
        fprintf(out, "%s %llu %s%s", any ? "," : "", (unsigned long long)n, name,
                n == 1 ? "" : "s");
        any = 1;
    }
    if (d->live.allocations) {
        fprintf(out, "%s %llu USM allocation%s (%llu bytes)", any ? ";" : "",
                (unsigned long long)d->live.allocations, d->live.allocations == 1 ? "" : "s",
                (unsigned long long)d->live.allocation_bytes);
        any = 1;
    }
    fputs(any ? "\n" : " none\n", out);
}

/* "out of memory: zeil dropped 3 objects, ...": a line without allocation. */
static void out_of_memory_line(zo_buf_t *b, const zeil_dropped_counts_t *o)
{
    const struct {
        uint64_t n;
        const char *one, *many;
    } parts[] = {{o->objects, "object", "objects"},
                 {o->allocations, "USM allocation", "USM allocations"},
                 {o->records, "submission record", "submission records"},
                 {o->other, "other item", "other items"}};
    zo_buf_str(b, "\nout of memory: zeil dropped ");
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        zo_buf_str(b, i ? ", " : "");
        zo_buf_u64(b, parts[i].n);
        zo_buf_char(b, ' ');
        zo_buf_str(b, parts[i].n == 1 ? parts[i].one : parts[i].many);
    }
    zo_buf_str_u64(b, "; ", o->unchecked);
    zo_buf_str(b, o->unchecked == 1 ? " call" : " calls");
    zo_buf_str(b, " passed unchecked\n");
}

static int any_out_of_memory(const zeil_dropped_counts_t *o)
{
    return o->objects || o->allocations || o->records || o->other || o->unchecked;
}

void zo_format_report_body(FILE *out, const zo_report_data_t *d)
{
    print_kernels(out, d);
    print_rules(out, d);
    print_leaks(out, d);
    char coverage[512];
    zo_buf_t cb;
    zo_buf_init(&cb, coverage, sizeof coverage);
    zo_coverage_line(&cb, &d->coverage);
    fwrite(coverage, 1, cb.len, out);
    if (d->dropped_records)
        fprintf(out, "\ntrace: %llu records dropped (trace buffers were full)\n",
                (unsigned long long)d->dropped_records);
    if (any_out_of_memory(&d->out_of_memory)) {
        char line[256];
        zo_buf_t b;
        zo_buf_init(&b, line, sizeof line);
        out_of_memory_line(&b, &d->out_of_memory);
        fwrite(line, 1, b.len, out);
    }
}

size_t zo_format_report_minimal(char *buf, size_t cap, const zo_report_data_t *d)
{
    zo_buf_t b;
    zo_buf_init(&b, buf, cap);
    zo_buf_str_u64(&b, "\nerrors and warnings: ", d->errors);
    zo_buf_str(&b, d->errors == 1 ? " error, " : " errors, ");
    zo_buf_u64(&b, d->warnings);
    zo_buf_str(&b, d->warnings == 1 ? " warning\n" : " warnings\n");
    out_of_memory_line(&b, &d->out_of_memory);
    zo_coverage_line(&b, &d->coverage);
    return b.len;
}

/* ---- summary JSON ---- */

static void json_str(FILE *out, const char *s)
{
    char text[ZO_MAX_FOREIGN_STRING * 6 + 8];
    zo_buf_t b;
    zo_buf_init(&b, text, sizeof text);
    zo_buf_json_str(&b, s);
    fwrite(text, 1, b.len, out);
}

static void json_kernel(FILE *out, const zeil_kernel_stats_t *k, int last)
{
    fputs("        {\"kernel\": ", out);
    json_str(out, k->kernel);
    fputs(", \"primitive\": ", out);
    json_str(out, k->primitive);
    fputs(", \"impl\": ", out);
    json_str(out, k->impl);
    fprintf(out,
            ", \"launches\": %llu, \"total_device_ns\": %llu, \"max_device_ns\": %llu, "
            "\"timed_launches\": %llu}%s\n",
            (unsigned long long)k->launches, (unsigned long long)k->total_device_ns,
            (unsigned long long)k->max_device_ns, (unsigned long long)k->timed_launches,
            last ? "" : ",");
}

static void json_streams(FILE *out, const zo_report_data_t *d)
{
    fputs("  \"streams\": [", out);
    int first_track = 1;
    for (size_t i = 0; i < d->num_kernels; i++) {
        if (!starts_track(d, i))
            continue;
        const zeil_kernel_stats_t **rows;
        size_t n = track_rows(d, i, &rows);
        if (!n) {
            free(rows);
            continue;
        }
        fputs(first_track ? "\n" : ",\n", out);
        first_track = 0;
        fputs("    {\"name\": ", out);
        json_str(out, label_of(d, rows[0]));
        if (rows[0]->stream_id)
            fprintf(out, ", \"stream\": \"0x%llx\", ", (unsigned long long)rows[0]->stream_id);
        else
            fputs(", \"stream\": null, ", out);
        fprintf(out, "\"list\": \"0x%llx\", \"kernels\": [\n", list_value(rows[0]));
        for (size_t r = 0; r < n; r++)
            json_kernel(out, rows[r], r + 1 == n);
        fputs("    ]}", out);
        free(rows);
    }
    fputs(first_track ? "],\n" : "\n  ],\n", out);
}

static void json_rules(FILE *out, const zo_report_data_t *d)
{
    fputs("  \"rules\": [", out);
    size_t left = fired_rules(d);
    if (left)
        fputs("\n", out);
    for (size_t i = 0; i < d->num_rules; i++) {
        const zeil_rule_stats_t *s = &d->rules[i];
        if (!s->count)
            continue;
        fputs("    {\"rule\": ", out);
        json_str(out, s->rule);
        fprintf(out, ", \"severity\": \"%s\", \"count\": %llu, \"summary\": ",
                severity_name(s->severity), (unsigned long long)s->count);
        json_str(out, s->summary);
        fputs(--left ? "},\n" : "}\n", out);
    }
    fputs(fired_rules(d) ? "  ],\n" : "],\n", out);
}

static void json_leaks(FILE *out, const zo_report_data_t *d)
{
    fputs("  \"leaks\": {\"handles\": {", out);
    int any = 0;
    for (int k = 0; k < ZEIL_KIND_COUNT; k++) {
        if (!zo_kind_is_leak((zeil_kind_t)k) || !d->live.handles[k])
            continue;
        fprintf(out, "%s\"%s\": %llu", any ? ", " : "", zo_kind_key((zeil_kind_t)k),
                (unsigned long long)d->live.handles[k]);
        any = 1;
    }
    fprintf(out, "}, \"allocations\": %llu, \"allocation_bytes\": %llu},\n",
            (unsigned long long)d->live.allocations, (unsigned long long)d->live.allocation_bytes);
}

static void json_out_of_memory(zo_buf_t *b, const zeil_dropped_counts_t *o)
{
    zo_buf_str_u64(b, "  \"out_of_memory\": {\"objects\": ", o->objects);
    zo_buf_str_u64(b, ", \"allocations\": ", o->allocations);
    zo_buf_str_u64(b, ", \"records\": ", o->records);
    zo_buf_str_u64(b, ", \"other\": ", o->other);
    zo_buf_str_u64(b, ", \"unchecked\": ", o->unchecked);
    zo_buf_str(b, "},\n");
}

void zo_format_summary_body(FILE *out, const zo_report_data_t *d)
{
    fprintf(out, "{\n  \"zeil_version\": \"%d.%d.%d\",\n", ZEIL_VERSION_MAJOR, ZEIL_VERSION_MINOR,
            ZEIL_VERSION_PATCH);
    fprintf(out, "  \"pid\": %llu,\n", (unsigned long long)d->pid);
    if (d->rank >= 0)
        fprintf(out, "  \"rank\": %d,\n", d->rank);
    else
        fputs("  \"rank\": null,\n", out);
    json_streams(out, d);
    json_rules(out, d);
    json_leaks(out, d);
    fprintf(out, "  \"errors\": %llu,\n  \"warnings\": %llu,\n  \"dropped_records\": %llu,\n",
            (unsigned long long)d->errors, (unsigned long long)d->warnings,
            (unsigned long long)d->dropped_records);
    char oom[256];
    zo_buf_t b;
    zo_buf_init(&b, oom, sizeof oom);
    json_out_of_memory(&b, &d->out_of_memory);
    fwrite(oom, 1, b.len, out);
    char coverage[512];
    zo_buf_init(&b, coverage, sizeof coverage);
    zo_coverage_json(&b, &d->coverage);
    fwrite(coverage, 1, b.len, out);
    fputs("  \"status\": ", out);
}

/* Every key of the full summary, streams and rules empty (they need the
 * copies that could not be made). */
size_t zo_format_summary_minimal(char *buf, size_t cap, const zo_report_data_t *d)
{
    zo_buf_t b;
    zo_buf_init(&b, buf, cap);
    zo_buf_str_u64(&b, "{\n  \"zeil_version\": \"", ZEIL_VERSION_MAJOR);
    zo_buf_char(&b, '.');
    zo_buf_u64(&b, ZEIL_VERSION_MINOR);
    zo_buf_char(&b, '.');
    zo_buf_u64(&b, ZEIL_VERSION_PATCH);
    zo_buf_str_u64(&b, "\",\n  \"pid\": ", d->pid);
    zo_buf_str(&b, ",\n  \"rank\": ");
    if (d->rank >= 0)
        zo_buf_u64(&b, (uint64_t)d->rank);
    else
        zo_buf_str(&b, "null");
    zo_buf_str(&b, ",\n  \"incomplete\": \"out of memory\",\n  \"streams\": [],\n"
                   "  \"rules\": [],\n  \"leaks\": {\"handles\": {");
    int any = 0;
    for (int k = 0; k < ZEIL_KIND_COUNT; k++) {
        if (!zo_kind_is_leak((zeil_kind_t)k) || !d->live.handles[k])
            continue;
        zo_buf_str(&b, any ? ", \"" : "\"");
        zo_buf_str(&b, zo_kind_key((zeil_kind_t)k));
        zo_buf_str_u64(&b, "\": ", d->live.handles[k]);
        any = 1;
    }
    zo_buf_str_u64(&b, "}, \"allocations\": ", d->live.allocations);
    zo_buf_str_u64(&b, ", \"allocation_bytes\": ", d->live.allocation_bytes);
    zo_buf_str_u64(&b, "},\n  \"errors\": ", d->errors);
    zo_buf_str_u64(&b, ",\n  \"warnings\": ", d->warnings);
    zo_buf_str_u64(&b, ",\n  \"dropped_records\": ", d->dropped_records);
    zo_buf_str(&b, ",\n");
    json_out_of_memory(&b, &d->out_of_memory);
    zo_coverage_json(&b, &d->coverage);
    zo_buf_str(&b, "  \"status\": ");
    return b.len;
}

size_t zo_format_summary_status(char *buf, size_t cap, int signo)
{
    zo_buf_t b;
    zo_buf_init(&b, buf, cap);
    if (signo > 0) {
        zo_buf_str_u64(&b, "\"signal ", (uint64_t)signo);
        zo_buf_str(&b, "\"\n}\n");
    } else if (signo == ZO_STATUS_RUNNING) {
        zo_buf_str(&b, "\"running\"\n}\n");
    } else {
        zo_buf_str(&b, "\"exit\"\n}\n");
    }
    return b.len;
}
