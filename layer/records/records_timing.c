/*
 * ZEIL_TIMING=1: device times of launches on immediate command lists.
 *
 * Each timed list gets a zeil-owned pool of kernel-timestamp events. A launch
 * signals one of them; when the application asked for its own signal event,
 * a barrier that waits on zeil's event signals the application's, so the
 * application sees its event signalled after the kernel, as before. Finished
 * events are read (never waited for) at the list's next timed launch, at
 * zeil_flush and when the list is destroyed. Regular lists are not timed: an
 * execute can replay a launch any number of times on one event.
 */
#include "timing.h"

#include "env.h"
#include "intercepts.h"
#include "out_of_memory.h"
#include "records_state.h"

#include <stdlib.h>

#define TIMING_EVENTS 64

typedef struct records_timing {
    pthread_mutex_t lock;
    const zeil_next_t *next;
    ze_event_pool_handle_t pool;
    ze_event_handle_t events[TIMING_EVENTS];
    uint64_t pending_seq[TIMING_EVENTS]; /* 0: free */
    uint64_t ns_per_tick_num;            /* timerResolution, ns per tick */
    uint32_t valid_bits;
    int unusable; /* the driver refused: never retry */
} records_timing_t;

static int timing_open(records_timing_t *t, const zeil_next_t *next, const zeil_obj_t *list)
{
    t->next = next;
    ze_device_properties_t props = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    if (NEXT(ze_device_dditable_t, pfnGetProperties)(list->device, &props) != ZE_RESULT_SUCCESS)
        return -1;
    t->ns_per_tick_num = props.timerResolution ? props.timerResolution : 1;
    t->valid_bits = props.kernelTimestampValidBits ? props.kernelTimestampValidBits : 64;
    ze_event_pool_desc_t desc = {
        ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
        ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP, TIMING_EVENTS};
    ze_device_handle_t device = list->device;
    if (NEXT(ze_event_pool_dditable_t, pfnCreate)(list->context, &desc, 1, &device, &t->pool) !=
        ZE_RESULT_SUCCESS)
        return -1;
    for (uint32_t i = 0; i < TIMING_EVENTS; i++) {
        ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, i, ZE_EVENT_SCOPE_FLAG_HOST,
                              ZE_EVENT_SCOPE_FLAG_HOST};
        if (NEXT(ze_event_dditable_t, pfnCreate)(t->pool, &ed, &t->events[i]) != ZE_RESULT_SUCCESS)
            return -1;
    }
    return 0;
}

static uint64_t ticks_to_ns(const records_timing_t *t, uint64_t ticks)
{
    return ticks * t->ns_per_tick_num;
}

/* Under t->lock: reads every finished timed launch, frees its event. */
static void timing_read_finished(records_timing_t *t, zeil_list_state_t *state)
{
    const zeil_next_t *next = t->next;
    for (uint32_t i = 0; i < TIMING_EVENTS; i++) {
        if (!t->pending_seq[i])
            continue;
        if (NEXT(ze_event_dditable_t, pfnQueryStatus)(t->events[i]) != ZE_RESULT_SUCCESS)
            continue;
        ze_kernel_timestamp_result_t ts;
        if (NEXT(ze_event_dditable_t, pfnQueryKernelTimestamp)(t->events[i], &ts) ==
            ZE_RESULT_SUCCESS) {
            uint64_t start = ts.global.kernelStart, end = ts.global.kernelEnd;
            if (end < start && t->valid_bits < 64)
                end += 1ull << t->valid_bits;
            records_set_device_times(state, t->pending_seq[i], ticks_to_ns(t, start),
                                     ticks_to_ns(t, end));
        }
        NEXT(ze_event_dditable_t, pfnHostReset)(t->events[i]);
        t->pending_seq[i] = 0;
    }
}

/* The list's timing state, made at its first timed launch; null if unusable
 * (or out of memory: this launch goes untimed, the next one tries again). */
static records_timing_t *timing_of(const zeil_next_t *next, zeil_obj_t *list, const char *call)
{
    zeil_list_state_t *state = list->records;
    records_timing_t *t = state->timing;
    if (t)
        return t->unusable ? NULL : t;
    t = calloc(1, sizeof *t);
    if (!t) {
        oom_dropped(OOM_OTHER, 1, call, "setting up device timing of a command list");
        return NULL;
    }
    pthread_mutex_init(&t->lock, NULL);
    if (timing_open(t, next, list) != 0)
        t->unusable = 1;
    state->timing = t;
    return t->unusable ? NULL : t;
}

ze_result_t timing_launch(const zeil_next_t *next, zeil_obj_t *list, const zeil_submission_t *s,
                          ze_pfnCommandListAppendLaunchKernel_t forward, ze_kernel_handle_t kernel)
{
    ze_command_list_handle_t handle = (ze_command_list_handle_t)list->handle;
    ze_event_handle_t *waits = (ze_event_handle_t *)s->wait_events;
    records_timing_t *t = timing_of(next, list, s->call->name);
    if (!t) {
        ze_result_t r =
            forward(handle, kernel, s->group_count, s->signal_event, s->num_wait_events, waits);
        if (r == ZE_RESULT_SUCCESS)
            records_add(list, s);
        return r;
    }
    pthread_mutex_lock(&t->lock);
    timing_read_finished(t, list->records);
    int slot = -1;
    for (int i = 0; i < TIMING_EVENTS && slot < 0; i++)
        if (!t->pending_seq[i])
            slot = i;
    ze_result_t r;
    if (slot < 0) { /* every event still in flight: this one goes untimed */
        r = forward(handle, kernel, s->group_count, s->signal_event, s->num_wait_events, waits);
        if (r == ZE_RESULT_SUCCESS)
            records_add(list, s);
    } else {
        ze_event_handle_t ours = t->events[slot];
        r = forward(handle, kernel, s->group_count, ours, s->num_wait_events, waits);
        if (r == ZE_RESULT_SUCCESS && s->signal_event)
            r = NEXT(ze_command_list_dditable_t, pfnAppendBarrier)(handle, s->signal_event, 1,
                                                                   &ours);
        if (r == ZE_RESULT_SUCCESS)
            t->pending_seq[slot] = records_add(list, s);
    }
    pthread_mutex_unlock(&t->lock);
    return r;
}

void timing_collect(zeil_obj_t *list)
{
    pthread_mutex_lock(&records_states_lock);
    for (zeil_list_state_t *s = records_states; s; s = s->next) {
        if ((list && s->obj != list) || !s->timing || s->timing->unusable)
            continue;
        pthread_mutex_lock(&s->timing->lock);
        timing_read_finished(s->timing, s);
        pthread_mutex_unlock(&s->timing->lock);
    }
    pthread_mutex_unlock(&records_states_lock);
}

void timing_list_destroyed(zeil_obj_t *list)
{
    zeil_list_state_t *state = list->records;
    if (!state)
        return;
    /* Detached under the states lock, so no zeil_flush still reads it. */
    pthread_mutex_lock(&records_states_lock);
    records_timing_t *t = state->timing;
    state->timing = NULL;
    pthread_mutex_unlock(&records_states_lock);
    if (!t)
        return;
    if (!t->unusable) {
        pthread_mutex_lock(&t->lock);
        timing_read_finished(t, state);
        pthread_mutex_unlock(&t->lock);
    }
    const zeil_next_t *next = t->next;
    for (uint32_t i = 0; next && i < TIMING_EVENTS; i++)
        if (t->events[i])
            NEXT(ze_event_dditable_t, pfnDestroy)(t->events[i]);
    if (next && t->pool)
        NEXT(ze_event_pool_dditable_t, pfnDestroy)(t->pool);
    pthread_mutex_destroy(&t->lock);
    free(t);
}
