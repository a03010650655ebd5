/* Empty prologue/epilogue callbacks registered with the loader's tracing layer. */
#include "bench_stock_tracing.h"

#include "bench_ze.h"

#include <level_zero/layers/zel_tracing_api.h>
#include <level_zero/layers/zel_tracing_register_cb.h>

static zel_tracer_handle_t tracer;
static int calls_seen; /* written by the callbacks so they are not folded away */

#define EMPTY_CALLBACK(name, params_t) \
    static void ZE_APICALL name(params_t *params, ze_result_t result, void *user, void **instance) \
    { \
        (void)params; \
        (void)result; \
        (void)instance; \
        *(volatile int *)user += 1; \
    }

EMPTY_CALLBACK(on_launch, ze_command_list_append_launch_kernel_params_t)
EMPTY_CALLBACK(on_alloc_device, ze_mem_alloc_device_params_t)
EMPTY_CALLBACK(on_free, ze_mem_free_params_t)
EMPTY_CALLBACK(on_host_signal, ze_event_host_signal_params_t)
EMPTY_CALLBACK(on_host_reset, ze_event_host_reset_params_t)

void bench_stock_tracing_enable(void)
{
    zel_tracer_desc_t desc = {ZEL_STRUCTURE_TYPE_TRACER_DESC, NULL, &calls_seen};
    BENCH_ZE_OK(zelTracerCreate(&desc, &tracer));
    static const zel_tracer_reg_t both[] = {ZEL_REGISTER_PROLOGUE, ZEL_REGISTER_EPILOGUE};
    for (int i = 0; i < 2; i++) {
        BENCH_ZE_OK(
            zelTracerCommandListAppendLaunchKernelRegisterCallback(tracer, both[i], on_launch));
        BENCH_ZE_OK(zelTracerMemAllocDeviceRegisterCallback(tracer, both[i], on_alloc_device));
        BENCH_ZE_OK(zelTracerMemFreeRegisterCallback(tracer, both[i], on_free));
        BENCH_ZE_OK(zelTracerEventHostSignalRegisterCallback(tracer, both[i], on_host_signal));
        BENCH_ZE_OK(zelTracerEventHostResetRegisterCallback(tracer, both[i], on_host_reset));
    }
    BENCH_ZE_OK(zelTracerSetEnabled(tracer, 1));
}

void bench_stock_tracing_disable(void)
{
    if (!tracer)
        return;
    BENCH_ZE_OK(zelTracerSetEnabled(tracer, 0));
    BENCH_ZE_OK(zelTracerDestroy(tracer));
    tracer = NULL;
    if (calls_seen == 0)
        bench_fail("the stock tracing layer never called the registered callbacks");
}
