/*
 * W031 (a second signal without a reset between) judged in the order work
 * runs: an immediate list runs what is appended, so its appends are judged
 * at once (check_lists.c); a regular list only records its signals and
 * resets here, and each execution replays them in turn, after the host's
 * resets made between executions. Two regular lists built up front that
 * signal one event, run alternately with a host reset between, are correct.
 */
#include "checks.h"

#include "diag.h"
#include "out_of_memory.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct signal_op {
    const void *event;
    uint64_t call; /* the append */
    int reset;     /* zeCommandListAppendEventReset */
} signal_op_t;

struct zeil_signal_ops {
    size_t count, capacity;
    int lost; /* a record failed (out of memory): this list is not judged */
    signal_op_t op[];
};

/* Appends and executions of one list come from one thread at a time in a
 * valid program; the lock keeps a misuse from corrupting the records. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void record(zeil_obj_t *list, const void *event, uint64_t call, int reset)
{
    pthread_mutex_lock(&lock);
    struct zeil_signal_ops *ops = list->signal_ops;
    if (!ops || ops->count == ops->capacity) {
        size_t capacity = ops ? 2 * ops->capacity : 8;
        struct zeil_signal_ops *grown =
            realloc(ops, sizeof *grown + capacity * sizeof grown->op[0]);
        if (!grown) {
            if (ops)
                ops->lost = 1;
            else
                oom_unchecked();
            pthread_mutex_unlock(&lock);
            return;
        }
        if (!ops)
            grown->count = 0, grown->lost = 0;
        grown->capacity = capacity;
        list->signal_ops = ops = grown;
    }
    ops->op[ops->count++] = (signal_op_t){event, call, reset};
    pthread_mutex_unlock(&lock);
}

void check_signal_appended(zeil_obj_t *list, zeil_obj_t *event, uint64_t call, int reset)
{
    if (!event)
        return;
    if (list && !list->is_immediate) {
        record(list, event->handle, call, reset);
        return;
    }
    atomic_store_explicit(&event->signalled_by_call, reset ? 0 : call, memory_order_release);
}

static void replay(const zeil_call_t *call, const zeil_obj_t *list,
                   const struct zeil_signal_ops *ops)
{
    for (size_t i = 0; i < ops->count; i++) {
        zeil_obj_t *e = registry_find(ops->op[i].event);
        if (!e || e->kind != ZEIL_KIND_EVENT || !atomic_load(&e->alive))
            continue;
        if (ops->op[i].reset) {
            atomic_store_explicit(&e->signalled_by_call, 0, memory_order_release);
            continue;
        }
        uint64_t previous = atomic_load(&e->signalled_by_call);
        if (previous && !ops->lost && diag_rule_enabled(ZEIL_RULE_W031))
            diag_report(ZEIL_RULE_W031, call->name,
                        "signal event %p of command list %p (appended at call #%llu) was already "
                        "signalled by call #%llu and not reset since",
                        ops->op[i].event, list->handle, (unsigned long long)ops->op[i].call,
                        (unsigned long long)previous);
        atomic_store_explicit(&e->signalled_by_call, ops->op[i].call, memory_order_release);
    }
}

void check_signals_executed(const zeil_call_t *call, uint32_t count,
                            const ze_command_list_handle_t *lists)
{
    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; lists && i < count; i++) {
        zeil_obj_t *list = lists[i] ? registry_find(lists[i]) : NULL;
        if (list && list->kind == ZEIL_KIND_COMMAND_LIST && list->signal_ops)
            replay(call, list, list->signal_ops);
    }
    pthread_mutex_unlock(&lock);
}

void check_signals_forget(zeil_obj_t *list)
{
    if (!list || list->kind != ZEIL_KIND_COMMAND_LIST)
        return;
    pthread_mutex_lock(&lock);
    free(list->signal_ops);
    list->signal_ops = NULL;
    pthread_mutex_unlock(&lock);
}
