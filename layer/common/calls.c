/* Call numbering, thread numbering and the calls log (ZEIL_LOG=calls). */
#include "calls.h"

#include "env.h"
#include "log_sink.h"

#include <zeil/zeil.h>

#include "zeil_output.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

launch_cache_generation_t launch_cache_generation = {1};

void launch_cache_forget_all(void)
{
    /* seq_cst: ordered before whatever the caller then frees or changes. */
    atomic_fetch_add(&launch_cache_generation.value, 1);
}
_Atomic int calls_quiet;
static _Atomic uint32_t thread_counter;
_Thread_local calls_thread_t calls_thread = {.key_low = CALLS_KEY_NONE};

uint64_t calls_now_ns(void)
{
    return zo_now_ns(); /* the trace's clock, cheaper than clock_gettime */
}

uint32_t calls_number_this_thread(void)
{
    calls_thread.number = atomic_fetch_add(&thread_counter, 1) + 1;
    return calls_thread.number;
}

void calls_settle(void)
{
    int quiet = zeil_settings()->log_level < ZEIL_LOG_CALLS && !zo_trace_enabled();
    atomic_store_explicit(&calls_quiet, quiet, memory_order_relaxed);
}

void calls_begin_timed(zeil_call_t *call, const char *name)
{
    call->name = name;
    call->number = calls_take_number();
    call->start_ns = calls_timed() ? calls_now_ns() : 0;
    call->thread = NULL;
}

void calls_begin_unnumbered_timed(zeil_call_t *call, const char *name)
{
    call->name = name;
    call->number = zeil_settings()->log_level >= ZEIL_LOG_CALLS ? calls_take_number() : 0;
    call->start_ns = calls_timed() ? calls_now_ns() : 0;
    call->thread = NULL;
}

uint64_t calls_order_key_numbered(void)
{
    calls_thread_t *t = &calls_thread;
    uint32_t thread = calls_thread_number();
    /* k restarts after this number, above every g read so far. */
    t->key_low =
        thread < (1u << CALLS_KEY_THREAD_BITS) ? thread << CALLS_KEY_COUNT_BITS : CALLS_KEY_NONE;
    return calls_take_number() << ZEIL_RECORD_SEQ_SHIFT;
}

uint64_t zeil_call_number(void)
{
    return calls_last_number();
}

ze_result_t calls_end_span(const zeil_call_t *call, ze_result_t result)
{
    if (call->start_ns && zo_trace_enabled()) {
        uint64_t end = calls_now_ns();
        zo_trace_api_call(calls_thread_number(), call->name, call->number, call->start_ns,
                          end < call->start_ns ? call->start_ns : end);
    }
    return result;
}

ze_result_t calls_end(const zeil_call_t *call, ze_result_t result, const char *fmt, ...)
{
    if (!call->start_ns)
        return result;
    uint64_t end = calls_now_ns();
    if (end < call->start_ns) /* a clock recalibration in between, by a few ns */
        end = call->start_ns;
    if (zo_trace_enabled())
        zo_trace_api_call(calls_thread_number(), call->name, call->number, call->start_ns, end);
    if (zeil_settings()->log_level < ZEIL_LOG_CALLS)
        return result;
    char args[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    if (n < 0)
        args[0] = 0;
    zo_log_call(calls_thread_number(), call->name, args, result, call->start_ns, end);
    return result;
}

const char *calls_result_name(ze_result_t result)
{
    switch (result) {
/* One case a line. */
/* clang-format off */
#define RESULT_NAME(r) case r: return #r;
    RESULT_NAME(ZE_RESULT_SUCCESS)
    RESULT_NAME(ZE_RESULT_NOT_READY)
    RESULT_NAME(ZE_RESULT_ERROR_DEVICE_LOST)
    RESULT_NAME(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY)
    RESULT_NAME(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
    RESULT_NAME(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE)
    RESULT_NAME(ZE_RESULT_ERROR_UNINITIALIZED)
    RESULT_NAME(ZE_RESULT_ERROR_UNSUPPORTED_VERSION)
    RESULT_NAME(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
    RESULT_NAME(ZE_RESULT_ERROR_INVALID_ARGUMENT)
    RESULT_NAME(ZE_RESULT_ERROR_INVALID_NULL_HANDLE)
    RESULT_NAME(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE)
    RESULT_NAME(ZE_RESULT_ERROR_INVALID_NULL_POINTER)
    RESULT_NAME(ZE_RESULT_ERROR_INVALID_SIZE)
    RESULT_NAME(ZE_RESULT_ERROR_UNSUPPORTED_SIZE)
    RESULT_NAME(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT)
    RESULT_NAME(ZE_RESULT_ERROR_INVALID_ENUMERATION)
    RESULT_NAME(ZE_RESULT_ERROR_INVALID_KERNEL_NAME)
    RESULT_NAME(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE)
    RESULT_NAME(ZE_RESULT_ERROR_UNKNOWN)
#undef RESULT_NAME
        /* clang-format on */
    default:
        return "ZE_RESULT_(other)";
    }
}
