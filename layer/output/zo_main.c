/* zo_main.c: start and end of the output side (zeil_output.h zo_init,
 * zo_finish, zo_finish_from_signal, zo_flush). */
#include "zeil_output.h"
#include "zo_crash.h"
#include "zo_file.h"
#include "zo_flusher.h"
#include "zo_log_internal.h"
#include "zo_report.h"
#include "zo_ring.h"
#include "zo_trace_internal.h"
#include "zo_trace_writer.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static _Atomic int initialised;
static _Atomic int finished;
/* A forked child shares the parent's files: it writes none of them. */
static _Atomic int forked_child;
/* What the flusher does, set by zo_init; started once. */
static zo_flusher_hook background_drain, background_snapshot;
static _Atomic int background_started;

static void drain_hook(void)
{
    zo_writer_drain();
}

static void snapshot_hook(void)
{
    zo_report_snapshot(zo_ring_dropped_total());
}

static void in_forked_child(void)
{
    atomic_store(&forked_child, 1);
    zo_trace_stop();
    zo_flusher_forget();
}

static int open_if(const char *path, const char *what)
{
    return path && path[0] ? zo_open_output(path, ZO_OPEN_TRUNCATE, what) : -1;
}

void zo_init(const zo_config_t *config)
{
    if (atomic_exchange(&initialised, 1))
        return;
    uint64_t base_ns = zo_now_ns();
    zo_log_configure(config->log_level, config->log_file, base_ns);

    int report_fd = -1;
    if (config->report)
        report_fd = config->report_file && config->report_file[0]
                        ? open_if(config->report_file, "ZEIL_REPORT")
                        : STDERR_FILENO;
    int summary_fd = open_if(config->summary_file, "ZEIL_SUMMARY");
    zo_report_set_outputs(report_fd, summary_fd);
    zo_report_set_source(&config->snapshot);
    zo_report_set_process((uint64_t)getpid(), config->rank);
    int want_report_or_summary = report_fd >= 0 || summary_fd >= 0;

    int tracing = config->trace_file && config->trace_file[0] &&
                  zo_trace_start(config->trace_file, base_ns, config->timing, config->rank) == 0;
    background_drain = tracing ? drain_hook : 0;
    background_snapshot = want_report_or_summary ? snapshot_hook : 0;
    zo_crash_handlers_install();
    pthread_atfork(0, 0, in_forked_child);
    if (!config->defer_background)
        zo_start_background();
}

void zo_start_background(void)
{
    if (!atomic_load(&initialised) || atomic_load(&forked_child) ||
        (!background_drain && !background_snapshot) || atomic_exchange(&background_started, 1))
        return;
    if (zo_flusher_start(background_drain, background_snapshot) != 0)
        zo_warn("cannot start the output thread: trace records beyond the buffers are dropped, a "
                "crash leaves no report",
                0, 0);
}

void zo_flush(void)
{
    if (atomic_load(&forked_child))
        return;
    for (int tries = 0; tries < 1000 && zo_writer_is_open(); tries++) {
        if (zo_writer_drain_now())
            return;
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, 0);
    }
}

void zo_finish(void)
{
    if (!atomic_load(&initialised) || atomic_load(&forked_child) || atomic_exchange(&finished, 1))
        return;
    zo_trace_stop();
    zo_flusher_stop();
    zo_writer_close("exit", 0);
    zo_report_write(zo_ring_dropped_total());
}

void zo_finish_from_signal(int signo)
{
    if (!atomic_load(&initialised) || atomic_load(&forked_child) || atomic_exchange(&finished, 1))
        return;
    zo_trace_stop();
    zo_writer_close("signal", signo);
    zo_report_write_from_signal(signo);
}
