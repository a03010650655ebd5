/* zo_report.c: asking for the counters and writing the report and summary
 * (see zo_report.h). */
#include "zo_report.h"
#include "zo_buf.h"
#include "zo_file.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t process_pid;
static int process_rank = -1;

/* ---- collecting: the runtime fills a snapshot ---- */

static zo_snapshot_source_t source;

void zo_report_set_source(const zo_snapshot_source_t *from)
{
    source = *from;
}

int zo_report_collect(zo_report_data_t *d, uint64_t dropped_records)
{
    memset(d, 0, sizeof *d);
    int incomplete = source.fill && source.fill(d) != 0;
    d->dropped_records = dropped_records;
    d->pid = process_pid;
    d->rank = process_rank;
    return incomplete ? -1 : 0;
}

void zo_report_release(zo_report_data_t *d)
{
    if (source.release)
        source.release(d);
    memset(d, 0, sizeof *d);
}

/* ---- writing ---- */

static int report_fd = -1;
static int summary_fd = -1;
void zo_report_set_process(uint64_t pid, int rank)
{
    process_pid = pid;
    process_rank = rank;
}

void zo_report_set_outputs(int report, int summary)
{
    report_fd = report;
    summary_fd = summary;
}

/* Formats both texts; returns 0, or -1 when memory ran out. */
static int render(const zo_report_data_t *d, char **report, size_t *report_len, char **summary,
                  size_t *summary_len)
{
    *report = *summary = 0;
    FILE *r = open_memstream(report, report_len);
    FILE *s = open_memstream(summary, summary_len);
    if (r)
        zo_format_report_body(r, d);
    if (s)
        zo_format_summary_body(s, d);
    int ok = r && s;
    if (r)
        ok &= fclose(r) == 0;
    if (s)
        ok &= fclose(s) == 0;
    return ok ? 0 : -1;
}

/* The whole summary file, replacing the running copy written before. */
static void write_summary(const char *summary, size_t summary_len, int signo)
{
    char status[64];
    size_t status_len = zo_format_summary_status(status, sizeof status, signo);
    if (lseek(summary_fd, 0, SEEK_SET) != 0)
        return;
    if (zo_write_all(summary_fd, summary, summary_len) == 0 &&
        zo_write_all(summary_fd, status, status_len) == 0)
        (void)!ftruncate(summary_fd, (off_t)(summary_len + status_len));
}

static void write_outputs(const char *title, const char *report, size_t report_len,
                          const char *summary, size_t summary_len, int signo)
{
    if (report_fd >= 0 && report) {
        zo_write_all(report_fd, title, strlen(title));
        zo_write_all(report_fd, report, report_len);
    }
    if (summary_fd >= 0 && summary)
        write_summary(summary, summary_len, signo);
}

static void close_outputs(void)
{
    if (report_fd > STDERR_FILENO)
        close(report_fd);
    if (summary_fd >= 0)
        close(summary_fd);
    report_fd = summary_fd = -1;
}

/* When stdio could not format them (out of memory): the counts alone,
 * formatted on the stack, so a starved process still tells what it lost. */
static void write_minimal_outputs(const zo_report_data_t *d)
{
    char report[512], summary[1024];
    size_t report_len = zo_format_report_minimal(report, sizeof report, d);
    size_t summary_len = zo_format_summary_minimal(summary, sizeof summary, d);
    write_outputs("zeil report (incomplete: out of memory; counts only)\n", report, report_len,
                  summary, summary_len, 0);
}

void zo_report_write(uint64_t dropped_records)
{
    if (report_fd < 0 && summary_fd < 0)
        return;
    zo_report_data_t d;
    char *report, *summary;
    size_t report_len = 0, summary_len = 0;
    int incomplete = zo_report_collect(&d, dropped_records) != 0;
    if (render(&d, &report, &report_len, &summary, &summary_len) != 0) {
        zo_warn("out of memory writing the report", 0, 0);
        write_minimal_outputs(&d);
    } else {
        write_outputs(incomplete ? "zeil report (incomplete: out of memory while collecting)\n"
                                 : "zeil report\n",
                      report, report_len, summary, summary_len, 0);
    }
    free(report);
    free(summary);
    zo_report_release(&d);
    close_outputs();
}

/* ---- preformatted copies for the signal handler ---- */

#define SNAPSHOT_BYTES (256 * 1024)

typedef struct snapshot {
    char report[SNAPSHOT_BYTES];
    char summary[SNAPSHOT_BYTES];
    size_t report_len, summary_len;
} snapshot_t;

static snapshot_t snapshots[2];
static _Atomic int current_snapshot = -1;
static _Atomic int signal_writing;
static _Atomic int snapshot_writing;

/* kill -9 gives no chance to write anything: keep a copy in the file. The
 * signal handler waits for this to end before it writes its own. */
static void write_running_summary(const snapshot_t *s)
{
    if (summary_fd < 0)
        return;
    atomic_store(&snapshot_writing, 1);
    if (!atomic_load(&signal_writing))
        write_summary(s->summary, s->summary_len, ZO_STATUS_RUNNING);
    atomic_store(&snapshot_writing, 0);
}

void zo_report_snapshot(uint64_t dropped_records)
{
    if ((report_fd < 0 && summary_fd < 0) || atomic_load(&signal_writing))
        return;
    zo_report_data_t d;
    char *report = 0, *summary = 0;
    size_t report_len = 0, summary_len = 0;
    int ok = zo_report_collect(&d, dropped_records) == 0 &&
             render(&d, &report, &report_len, &summary, &summary_len) == 0;
    /* A snapshot that does not fit whole is not kept: a cut JSON is no use. */
    if (ok && report_len <= SNAPSHOT_BYTES && summary_len <= SNAPSHOT_BYTES) {
        int next = atomic_load(&current_snapshot) == 0 ? 1 : 0;
        snapshot_t *s = &snapshots[next];
        memcpy(s->report, report, report_len);
        memcpy(s->summary, summary, summary_len);
        s->report_len = report_len;
        s->summary_len = summary_len;
        atomic_store(&current_snapshot, next);
        write_running_summary(s);
    }
    free(report);
    free(summary);
    zo_report_release(&d);
}

void zo_report_write_from_signal(int signo)
{
    atomic_store(&signal_writing, 1);
    int i = atomic_load(&current_snapshot);
    if (i < 0)
        return;
    /* The flusher may be writing the running copy (a few ms at most). */
    for (int waited_ms = 0; waited_ms < 200 && atomic_load(&snapshot_writing); waited_ms++) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, 0);
    }
    char title[128];
    zo_buf_t b;
    zo_buf_init(&b, title, sizeof title - 1);
    zo_buf_str_u64(&b, "zeil report (incomplete: the process got signal ", (uint64_t)signo);
    zo_buf_str(&b, "; counters as of up to 1 s before)\n");
    title[b.len] = 0;
    const snapshot_t *s = &snapshots[i];
    write_outputs(title, s->report, s->report_len, s->summary, s->summary_len, signo);
}
