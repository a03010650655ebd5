/*
 * bench_stock_tracing.h: the stock_tracing configuration's tracer: the
 * loader's tracing layer (ZE_ENABLE_TRACING_LAYER=1) with an empty prologue
 * and epilogue on every call the benchmark times, so the figure is the cost
 * of the layer's dispatch and not of any work a real tracer would do.
 */
#ifndef ZEIL_BENCH_STOCK_TRACING_H
#define ZEIL_BENCH_STOCK_TRACING_H

/* Creates and enables the tracer; call after zeInit. Exits on failure. */
void bench_stock_tracing_enable(void);
void bench_stock_tracing_disable(void);

#endif
