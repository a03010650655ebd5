/* dnnl_ze_interop_primitive_execute: validate, then append a launch of
 * zeil's kernel that runs the primitive (host backend) or forward. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <oneapi/dnnl/dnnl_debug.h>
#include <zeil/zeil.h>

#include "checks.h"
#include "dnnl_compat.h"
#include "engine.h"
#include "export.h"
#include "forward.h"
#include "hazard_accesses.h"
#include "real_dnnl.h"
#include "rules.h"
#include "stream.h"

/* Runs on a driver worker thread when the launch executes. The worker CPU
 * stream is in order and only this stream's launches use it, which run one
 * after another because the command list is in order. */
static void run_packet(zeil_interop_launch_t *launch)
{
    launch_packet_t *packet = (launch_packet_t *)launch;
    dnnl_stream_t worker = packet->stream->worker;
    /* Its waits are over: their events may be reused. */
    event_ring_waiters(packet->nwaits, packet->waits, -1);
    dnnl_primitive_t instance = NULL;
    dnnl_status_t status = compat_instance_for_this_thread(packet->primitive, &instance);
    if (status == dnnl_success)
        status = real_dnnl_primitive_execute(instance ? instance : packet->primitive, worker,
                                             packet->nargs, packet->args);
    if (status == dnnl_success)
        status = real_dnnl_stream_wait(worker);
    if (instance)
        dnnl_primitive_destroy(instance);
    if (status != dnnl_success)
        interop_report(INTEROP_RULE_E134, "zeil_interop_kernel",
                       "dnnl_primitive_execute(%s) returned %s", packet->kind,
                       dnnl_status2str(status));
    /* Last access: from here on the stream may reuse the packet. */
    atomic_store_explicit(&packet->done, 1, memory_order_release);
}

/* How messages name an argument. Built only for a message: formatting it
 * cost more than all checks of an execute together. */
static void arg_label(char *out, size_t cap, int arg)
{
    snprintf(out, cap, "argument %d (%s)", arg, compat_arg_name(arg));
}

static dnnl_status_t check_args(const char *execute_call, const interop_stream_t *stream, int nargs,
                                const dnnl_exec_arg_t *args)
{
    if (nargs < 0 || (nargs > 0 && !args)) {
        interop_report(INTEROP_RULE_E101, execute_call, "nargs is %d with args %p", nargs,
                       (const void *)args);
        return dnnl_invalid_arguments;
    }
    const interop_engine_t *engine = stream->engine;
    for (int i = 0; i < nargs; i++) {
        char what[64];
        if (!args[i].memory) {
            arg_label(what, sizeof what, args[i].arg);
            return check_not_null(execute_call, args[i].memory, what);
        }
        dnnl_engine_t owner = NULL;
        if (dnnl_memory_get_engine(args[i].memory, &owner) != dnnl_success ||
            owner != engine->engine) {
            arg_label(what, sizeof what, args[i].arg);
            interop_report(INTEROP_RULE_E125, execute_call,
                           "%s is memory of engine %p, the stream's engine is %p", what,
                           (void *)owner, (void *)engine->engine);
            return dnnl_invalid_arguments;
        }
        void *handle = NULL;
        if (dnnl_memory_get_data_handle(args[i].memory, &handle) != dnnl_success || !handle)
            continue; /* no buffer: oneDNN itself refuses it if the primitive needs one */
        size_t size = compat_memory_size(args[i].memory);
        if (check_usm_passes(handle, size, engine->context, engine->device))
            continue;
        arg_label(what, sizeof what, args[i].arg);
        dnnl_status_t status = check_usm(execute_call, handle, size, engine->context,
                                         engine->device, engine->system_memory, what);
        if (status != dnnl_success)
            return status;
    }
    return dnnl_success;
}

/* deps without event: -1 when out of memory, else the count, *out being a
 * new array (free it) or null when event is not among deps. Rare: only an
 * execute that reuses a slot can find its own event among its deps. */
static int drop_dependency(const ze_event_handle_t *deps, int ndeps, ze_event_handle_t event,
                           ze_event_handle_t **out)
{
    *out = NULL;
    int found = 0;
    for (int i = 0; i < ndeps; i++)
        found += deps[i] == event;
    if (!found)
        return ndeps;
    *out = malloc((size_t)ndeps * sizeof **out);
    if (!*out)
        return -1;
    int n = 0;
    for (int i = 0; i < ndeps; i++)
        if (deps[i] != event)
            (*out)[n++] = deps[i];
    return n;
}

static dnnl_status_t append_launch(const char *execute_call, interop_stream_t *stream,
                                   const_dnnl_primitive_t primitive,
                                   const compat_primitive_info_t *info, int nargs,
                                   const dnnl_exec_arg_t *args, int ndeps,
                                   const ze_event_handle_t *deps, int handed,
                                   ze_event_handle_t *done)
{
    pthread_mutex_lock(&stream->lock);
    ze_result_t result = ZE_RESULT_SUCCESS;
    launch_packet_t *packet = packet_ring_acquire(&stream->ring);
    event_slot_t *slot =
        packet ? event_ring_take(&stream->events, stream->executes + 1, info->kind, &result) : NULL;
    if (!slot) {
        if (packet)
            packet_ring_unused(&stream->ring, packet);
        pthread_mutex_unlock(&stream->lock);
        if (!packet || result == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY)
            return dnnl_out_of_memory;
        interop_report(INTEROP_RULE_E133, execute_call, "creating the launch's event returned 0x%x",
                       (unsigned)result);
        return dnnl_runtime_error;
    }
    if (launch_packet_set_args(packet, nargs, args) != 0) {
        event_slot_unused(slot);
        packet_ring_unused(&stream->ring, packet);
        pthread_mutex_unlock(&stream->lock);
        return dnnl_out_of_memory;
    }
    /* A dependency on the event whose slot this execute reuses has completed
     * (taking the slot waited for it); waiting on the reset event would
     * wait on this very launch. */
    ze_event_handle_t *kept = NULL;
    int nkept = drop_dependency(deps, ndeps, slot->event, &kept);
    if (nkept < 0) {
        event_slot_unused(slot);
        packet_ring_unused(&stream->ring, packet);
        pthread_mutex_unlock(&stream->lock);
        return dnnl_out_of_memory;
    }
    if (kept) {
        deps = kept;
        ndeps = nkept;
    }
    if (launch_packet_set_waits(packet, ndeps, deps) != 0) {
        free(kept);
        event_slot_unused(slot);
        packet_ring_unused(&stream->ring, packet);
        pthread_mutex_unlock(&stream->lock);
        return dnnl_out_of_memory;
    }
    packet->event = slot->event;
    packet->launch.run = run_packet;
    packet->stream = stream;
    packet->primitive = primitive;
    packet->kind = info->kind;
    /* The kernel object is this stream's and the lock is held: no other
     * thread sets its argument between here and the append. */
    result = zeKernelSetArgumentValue(stream->kernel, 0, sizeof packet, &packet);
    if (result == ZE_RESULT_SUCCESS) {
        zeil_attribution_t attribution = {(uint64_t)(uintptr_t)stream->stream, info->kind,
                                          info->impl, info->memory_args};
        ze_group_count_t one_group = {1, 1, 1};
        zeil_attribution_push(&attribution);
        hazard_accesses_declare(primitive, nargs, args);
        /* Counted before the launch can run (and uncount itself). */
        event_ring_waiters(ndeps, deps, 1);
        result =
            zeCommandListAppendLaunchKernel(stream->list, stream->kernel, &one_group, packet->event,
                                            (uint32_t)ndeps, (ze_event_handle_t *)deps);
        if (result != ZE_RESULT_SUCCESS)
            event_ring_waiters(ndeps, deps, -1);
        zeil_attribution_pop();
    }
    free(kept);
    if (result != ZE_RESULT_SUCCESS) {
        event_slot_unused(slot);
        packet_ring_unused(&stream->ring, packet);
        pthread_mutex_unlock(&stream->lock);
        interop_report(INTEROP_RULE_E133, execute_call, "appending the launch of %s returned 0x%x",
                       info->kind, (unsigned)result);
        return result == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY ? dnnl_out_of_memory
                                                            : dnnl_runtime_error;
    }
    packet_ring_submitted(&stream->ring, packet);
    stream->executes++;
    if (handed)
        event_slot_handed(slot);
    *done = packet->event;
    pthread_mutex_unlock(&stream->lock);
    return dnnl_success;
}

static dnnl_status_t forward_execute(const char *execute_call, const_dnnl_primitive_t primitive,
                                     interop_stream_t *stream, const compat_primitive_info_t *info,
                                     int nargs, const dnnl_exec_arg_t *args, int ndeps,
                                     const ze_event_handle_t *deps, ze_event_handle_t *done)
{
    /* oneDNN's own kernels are appended inside this call: attribute them. */
    zeil_attribution_t attribution = {(uint64_t)(uintptr_t)stream->stream, info->kind, info->impl,
                                      info->memory_args};
    zeil_attribution_push(&attribution);
    dnnl_status_t status = forward_table()->primitive_execute(primitive, stream->stream, nargs,
                                                              args, ndeps, deps, done);
    zeil_attribution_pop();
    if (status != dnnl_success)
        interop_report(INTEROP_RULE_E152, execute_call, "forwarded call returned %s",
                       dnnl_status2str(status));
    return status;
}

/* Both executes: validate, then append (host) or forward. handed: the
 * program is given *done. */
static dnnl_status_t execute_on(const char *execute_call, const_dnnl_primitive_t primitive,
                                interop_stream_t *record, int nargs, const dnnl_exec_arg_t *args,
                                int ndeps, const ze_event_handle_t *deps, int handed,
                                ze_event_handle_t *done)
{
    compat_primitive_info_t info;
    dnnl_status_t status = compat_primitive_info(primitive, &info);
    if (status != dnnl_success)
        return status;
    if (info.engine != record->engine->engine) {
        interop_report(INTEROP_RULE_E132, execute_call,
                       "primitive (%s) was created on engine %p, the stream's engine is %p",
                       info.kind, (void *)info.engine, (void *)record->engine->engine);
        return dnnl_invalid_arguments;
    }
    if (ndeps < 0) {
        interop_report(INTEROP_RULE_E101, execute_call, "ndeps is %d", ndeps);
        return dnnl_invalid_arguments;
    }
    if ((status = check_list_alive(execute_call, record->list)) != dnnl_success ||
        (status = check_events(execute_call, ndeps, deps, record->engine->context)) !=
            dnnl_success ||
        (status = check_args(execute_call, record, nargs, args)) != dnnl_success)
        return status;
    event_ring_check_reuse(execute_call, "deps", 1, ndeps, deps);
    /* Shapes for the trace and the records: only zeil's layer reads them. */
    char memory_args[256];
    info.memory_args = NULL;
    if (zeil_is_active()) {
        compat_describe_args(nargs, args, memory_args, sizeof memory_args);
        info.memory_args = memory_args;
    }
    if (record->engine->backend == INTEROP_BACKEND_FORWARD)
        return forward_execute(execute_call, primitive, record, &info, nargs, args, ndeps, deps,
                               done);
    return append_launch(execute_call, record, primitive, &info, nargs, args, ndeps, deps, handed,
                         done);
}

INTEROP_EXPORT dnnl_status_t dnnl_ze_interop_primitive_execute(
    const_dnnl_primitive_t primitive, dnnl_stream_t stream, int nargs, const dnnl_exec_arg_t *args,
    int ndeps, const ze_event_handle_t *deps, ze_event_handle_t *return_event)
{
    const char *call = "dnnl_ze_interop_primitive_execute";
    if (check_not_null(call, primitive, "primitive"))
        return dnnl_invalid_arguments;
    interop_stream_t *record = interop_stream_require(call, stream);
    if (!record)
        return dnnl_invalid_arguments;
    ze_event_handle_t done = NULL;
    dnnl_status_t status =
        execute_on(call, primitive, record, nargs, args, ndeps, deps, return_event != NULL, &done);
    if (status == dnnl_success && return_event)
        *return_event = done;
    return status;
}

dnnl_status_t interop_execute_plain(const_dnnl_primitive_t primitive, interop_stream_t *stream,
                                    int nargs, const dnnl_exec_arg_t *args)
{
    const char *call = "dnnl_primitive_execute";
    if (check_not_null(call, primitive, "primitive"))
        return dnnl_invalid_arguments;
    ze_event_handle_t done = NULL;
    return execute_on(call, primitive, stream, nargs, args, 0, NULL, 0, &done);
}
