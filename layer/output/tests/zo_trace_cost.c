/* zo_trace_cost.c: measures what tracing costs (report only, not a test).
 *   zo_trace_cost [TRACE_FILE]   (default /dev/null)
 * Prints the median ns per zo_trace_submission over batches that fit in a
 * ring (the launch path itself), and how many entries per second the
 * consumer writes (the flusher's side). */
#include "zo_test_snapshot.h"
#include "zeil_output.h"
#include "zo_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define BATCH 1000
#define RUNS 15

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    zo_config_t config = {.trace_file = argc > 1 ? argv[1] : "/dev/null", .report = 0};
    zo_init(&config);
    ze_event_handle_t wait = (ze_event_handle_t)0xe1;
    double per_call[RUNS];
    uint64_t seq = 0;
    for (int run = 0; run < RUNS; run++) {
        uint64_t t0 = zo_now_ns();
        for (int i = 0; i < BATCH; i++) {
            zeil_record_t r = zo_test_launch(++seq, 0x100, 0x10, "gemm_kernel_f32", t0);
            r.primitive = "matmul";
            r.impl = "ref:any";
            r.signal_event = (ze_event_handle_t)0xe2;
            r.num_wait_events = 1;
            r.wait_events = &wait;
            zo_trace_submission(&r);
        }
        per_call[run] = (double)(zo_now_ns() - t0) / BATCH;
        zo_flush(); /* the next batch starts on an empty ring */
    }
    qsort(per_call, RUNS, sizeof per_call[0], by_value);
    printf("zo_trace_submission: median %.0f ns per call (min %.0f, max %.0f; %d runs of %d)\n",
           per_call[RUNS / 2], per_call[0], per_call[RUNS - 1], RUNS, BATCH);

    for (int run = 0; run < RUNS; run++) {
        uint64_t t0 = zo_now_ns();
        for (int i = 0; i < BATCH; i++) {
            zeil_record_t r = zo_test_launch(++seq, 0x100, 0x10, "gemm_kernel_f32", t0);
            zo_trace_submission(&r);
        }
        uint64_t d0 = zo_now_ns();
        zo_flush();
        per_call[run] = (double)(zo_now_ns() - d0) / BATCH;
    }
    qsort(per_call, RUNS, sizeof per_call[0], by_value);
    printf("consumer: median %.0f ns per entry written (%.1f M entries/s)\n", per_call[RUNS / 2],
           1000.0 / per_call[RUNS / 2]);
    zo_finish();
    return 0;
}
