/*
 * The hooks the intercepts call (hazards.h): each turns its call into ops,
 * host knowledge or a hang check, under hz_lock, and says its findings after
 * the lock is given back.
 */
#include "hz_state.h"
#include "hz_launch_again.h"

#include "diag.h"
#include "out_of_memory.h"
#include "records.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- accesses declared through zeil.h ----------------------------------- */

static _Thread_local hz_access_t declared[HZ_OP_ACCESSES];
static _Thread_local uint32_t declared_count;
/* The attribution depth they were declared at, plus one (0: none). An append
 * refused before it reached zeil's hook leaves them behind; the next execute
 * declares anew, and a plain append at another depth does not take them. */
static _Thread_local unsigned declared_depth;
/* Threads with declared accesses not yet taken (hazards.h). */
atomic_uint hazards_declares_pending;

static void set_declared_depth(unsigned depth)
{
    if (!declared_depth != !depth)
        atomic_fetch_add_explicit(&hazards_declares_pending, depth ? 1u : (unsigned)-1,
                                  memory_order_relaxed);
    declared_depth = depth;
}

int hz_access_of(const void *ptr, size_t size, int write, int guess, hz_access_t *out)
{
    zeil_alloc_t a;
    if (!ptr || registry_find_alloc(ptr, &a) != 1)
        return 0; /* host memory zeil does not track, or not USM at all */
    uintptr_t base = (uintptr_t)a.base, end = base + a.size;
    uintptr_t lo = guess ? base : (uintptr_t)ptr;
    uintptr_t hi = guess || size > end - (uintptr_t)ptr ? end : (uintptr_t)ptr + size;
    *out = (hz_access_t){
        .base = base, .lo = lo, .hi = hi, .write = (uint8_t) !!write, .guess = (uint8_t)guess};
    return 1;
}

int zeil_hazards_enabled(void)
{
    return zeil_settings()->hazards;
}

int zeil_hazard_guesses_enabled(void)
{
    return zeil_settings()->hazard_guesses;
}

void zeil_declare_accesses(const zeil_access_t *accesses, size_t count)
{
    declared_count = 0;
    set_declared_depth(0);
    if (!zeil_settings()->hazards || !accesses)
        return;
    for (size_t i = 0; i < count && declared_count < HZ_OP_ACCESSES; i++)
        if (hz_access_of(accesses[i].ptr, accesses[i].size, accesses[i].written, 0,
                         &declared[declared_count]))
            declared_count++;
    set_declared_depth(records_attribution_depth() + 1);
}

static void launch_accesses(const zeil_obj_t *kernel, hz_op_t *op)
{
    if (declared_depth && declared_depth == records_attribution_depth() + 1) {
        memcpy(op->access, declared, declared_count * sizeof declared[0]);
        op->naccess = declared_count;
        set_declared_depth(0);
        return;
    }
    const hz_kernel_t *k =
        kernel && hazards_guessing()
            ? __atomic_load_n((hz_kernel_t *const *)&kernel->hazard, __ATOMIC_ACQUIRE)
            : NULL;
    for (uint64_t bits = k ? HZ_LOAD(k->pointer_args) : 0; bits && op->naccess < HZ_OP_ACCESSES;
         bits &= bits - 1) {
        const hz_access_t *arg = &k->arg[__builtin_ctzll(bits)];
        op->access[op->naccess++] = (hz_access_t){.base = HZ_LOAD(arg->base),
                                                  .lo = HZ_LOAD(arg->lo),
                                                  .hi = HZ_LOAD(arg->hi),
                                                  .write = HZ_LOAD(arg->write),
                                                  .guess = HZ_LOAD(arg->guess),
                                                  .gen = HZ_LOAD(arg->gen),
                                                  .history = HZ_LOAD(arg->history)};
    }
}

/* A launch on an immediate list: the accesses of its kernel's arguments as
 * the list's last launch of that kernel found them, while they have not
 * changed (the list's appends are its only writers of the memo). */
static inline __attribute__((always_inline)) void memo_accesses(hz_timeline_t *t,
                                                                const zeil_obj_t *kernel,
                                                                hz_op_t *op)
{
    /* The global first: no thread has declarations pending, as a rule. */
    if (atomic_load_explicit(&hazards_declares_pending, memory_order_relaxed) && declared_depth &&
        declared_depth == records_attribution_depth() + 1) {
        launch_accesses(kernel, op); /* declared: they are the op's */
        return;
    }
    const hz_kernel_t *k =
        kernel && hazards_guessing()
            ? __atomic_load_n((hz_kernel_t *const *)&kernel->hazard, __ATOMIC_ACQUIRE)
            : NULL;
    if (!k)
        return;
    uint32_t version = HZ_LOAD(k->version);
    if (t->memo_kernel != k || t->memo_version != version) {
        launch_accesses(kernel, op);
        memcpy(t->memo, op->access, op->naccess * sizeof op->access[0]);
        t->memo_kernel = k;
        t->memo_version = version;
        t->memo_count = op->naccess;
        t->memo_ready = 0;
        op->accesses = t->memo;
        return;
    }
    op->accesses = t->memo;
    op->naccess = t->memo_count;
}

/* ---- appends ------------------------------------------------------------ */

static void who_of(hz_who_t *who, const zeil_call_t *call, const zeil_obj_t *list,
                   const zeil_obj_t *kernel)
{
    const zeil_attribution_t *attr = records_current_attribution();
    *who = (hz_who_t){
        .call = call->number,
        .call_name = call->name,
        .list = list->handle,
        .stream_id = atomic_load_explicit(&((zeil_obj_t *)list)->stream_id, memory_order_relaxed),
        .what = kernel ? kernel->name : NULL};
    if (attr && attr->primitive) {
        who->what = attr->primitive;
        who->is_primitive = 1;
        if (attr->stream_id)
            who->stream_id = attr->stream_id;
    }
}

static int keep_program_op(hz_timeline_t *t, const hz_op_t *op)
{
    if (op->many_waits) { /* rare; an op without its waits would invent races */
        HZ_STORE(hz_degraded, 1);
        return -1;
    }
    if (t->count == t->capacity) {
        size_t capacity = t->capacity ? 2 * t->capacity : 64;
        hz_op_t *grown = realloc(t->program, capacity * sizeof *grown);
        if (!grown) {
            hz_lost("recording a regular command list's submissions for the hazard checks");
            return -1;
        }
        t->program = grown;
        t->capacity = capacity;
    }
    t->program[t->count++] = *op;
    return 0;
}

/* Work on an immediate list that has its slot, waits on nothing and
 * signals nothing touches only its own timeline and the histories: no lock
 * (README.md, "Cost"). */
static int unlocked(const hz_timeline_t *t, const hz_op_t *op)
{
    return t && !t->is_regular && t->slot < HZ_SLOTS && !HZ_LOAD(t->synchronous) &&
           op->kind == HZ_OP_WORK && !op->nwaits && !op->signal && !op->reset &&
           !HZ_LOAD(hz_degraded) && !oom_registry_incomplete();
}

/* The list's timeline, when a launch on it may be applied without the lock
 * as far as the whole checks go (not synchronous, not degraded, the registry
 * complete), else null. */
static inline __attribute__((always_inline)) hz_timeline_t *lock_free_timeline(zeil_obj_t *list)
{
    hz_timeline_t *t = __atomic_load_n((hz_timeline_t **)&list->hazard, __ATOMIC_ACQUIRE);
    return t && !HZ_LOAD(t->synchronous) && !HZ_LOAD(hz_degraded) && !oom_registry_incomplete()
               ? t
               : NULL;
}

/* Whether this launch (by the call named name, numbered number) is the
 * list's memo again: no declarations pending, the same kernel with the same
 * arguments (version), by the same who as the launch that kept memo_who and
 * memo_hold (then its call number is set). attr is the calling thread's
 * attribution. A ready memo is an in-order immediate list's with its slot
 * (only hz_access_check_launch readies it), kept with the guesses on; its
 * kernel and version tell the kernel (a version is never reused) and its
 * list is the list's. */
static inline __attribute__((always_inline)) int launch_again(hz_timeline_t *t, const char *name,
                                                              uint64_t number,
                                                              const zeil_attribution_t *attr,
                                                              const zeil_obj_t *list,
                                                              const zeil_obj_t *kernel)
{
    if (!t->memo_ready || !kernel ||
        atomic_load_explicit(&hazards_declares_pending, memory_order_relaxed))
        return 0;
    const hz_kernel_t *k = __atomic_load_n((hz_kernel_t *const *)&kernel->hazard, __ATOMIC_ACQUIRE);
    if (t->memo_kernel != k || t->memo_version != HZ_LOAD(k->version))
        return 0;
    const hz_who_t *w = &t->memo_who;
    if ((attr && attr->primitive) || w->is_primitive || w->call_name != name ||
        w->what != kernel->name ||
        w->stream_id !=
            atomic_load_explicit(&((zeil_obj_t *)list)->stream_id, memory_order_relaxed))
        return 0;
    t->memo_who.call = number;
    return 1;
}

/* The usual launch of a loop (launch_again on a list the checks may judge
 * without a lock), applied (1), or 0. */
static inline __attribute__((always_inline)) int plain_launch_again(const char *name,
                                                                    uint64_t number,
                                                                    const zeil_attribution_t *attr,
                                                                    zeil_obj_t *list,
                                                                    const zeil_obj_t *kernel)
{
    hz_timeline_t *t = lock_free_timeline(list);
    if (!t || !launch_again(t, name, number, attr, list, kernel))
        return 0;
    hz_findings_t findings;
    findings.count = 0; /* the texts are written only when found */
    hz_apply_launch_again(t, &findings);
    if (__builtin_expect(findings.count, 0))
        hz_findings_say(&findings, name);
    return 1;
}

/* A launch of one kernel that waits on nothing and signals nothing, on an
 * in-order immediate list with its slot: the usual launch, applied with no
 * lock and nothing else to build (1), or 0. */
static __attribute__((noinline)) int plain_launch(const zeil_call_t *call, zeil_obj_t *list,
                                                  const zeil_obj_t *kernel)
{
    hz_timeline_t *t = lock_free_timeline(list);
    if (!t || !t->in_order || t->is_regular || t->slot >= HZ_SLOTS)
        return 0;
    hz_findings_t findings;
    findings.count = 0; /* the texts are written only when found */
    hz_op_t op;
    op.kind = HZ_OP_WORK;
    op.naccess = 0;
    op.nwaits = 0;
    op.signal = op.reset = NULL;
    op.accesses = NULL;
    memo_accesses(t, kernel, &op);
    who_of(&op.who, call, list, kernel);
    hz_apply_work_in_order(t, &op, hz_next_epoch(t), &findings);
    if (findings.count)
        hz_findings_say(&findings, call->name);
    return 1;
}

void hazards_plain_launched(const char *call_name, zeil_obj_t *list, const zeil_obj_t *kernel,
                            const zeil_attribution_t *attribution)
{
    if (list->kind != ZEIL_KIND_COMMAND_LIST ||
        plain_launch_again(call_name, 0, attribution, list, kernel))
        return;
    const zeil_call_t call = {.name = call_name};
    if (!plain_launch(&call, list, kernel))
        hazards_appended(&(hazards_append_t){
            .call = &call, .list = list, .kind = HAZARDS_LAUNCH, .kernel = kernel});
}

void hazards_appended(const hazards_append_t *a)
{
    zeil_obj_t *list = a->list;
    if (!list || list->kind != ZEIL_KIND_COMMAND_LIST)
        return;
    if (a->kind == HAZARDS_LAUNCH && !a->signal && !(a->waits && a->num_waits) && !a->kernels &&
        (plain_launch_again(a->call->name, a->call->number, records_current_attribution(), list,
                            a->kernel) ||
         plain_launch(a->call, list, a->kernel)))
        return;
    hz_op_t op;
    op.kind = a->kind == HAZARDS_BARRIER  ? HZ_OP_BARRIER
              : a->kind == HAZARDS_SIGNAL ? HZ_OP_SIGNAL
              : a->kind == HAZARDS_WAIT   ? HZ_OP_WAIT
              : a->kind == HAZARDS_RESET  ? HZ_OP_RESET
                                          : HZ_OP_WORK;
    who_of(&op.who, a->call, list, a->kernel);
    op.naccess = 0;
    if (a->kind == HAZARDS_COPY || a->kind == HAZARDS_FILL)
        op.naccess += (uint32_t)hz_access_of(a->dst, a->size, 1, 0, &op.access[op.naccess]);
    if (a->kind == HAZARDS_COPY)
        op.naccess += (uint32_t)hz_access_of(a->src, a->src_size ? a->src_size : a->size, 0, 0,
                                             &op.access[op.naccess]);
    op.nwaits = a->waits ? a->num_waits : 0;
    op.many_waits = op.nwaits > HZ_OP_WAITS ? a->waits : NULL;
    for (uint32_t i = 0; i < op.nwaits && !op.many_waits; i++)
        op.waits[i] = a->waits[i];
    op.signal = a->kind == HAZARDS_RESET ? NULL : a->signal;
    op.reset = a->kind == HAZARDS_RESET ? a->signal : NULL;

    op.accesses = NULL;
    hz_findings_t findings;
    findings.count = 0; /* the texts are written only when found */
    hz_timeline_t *t = __atomic_load_n((hz_timeline_t **)&list->hazard, __ATOMIC_ACQUIRE);
    int free_of_locks = unlocked(t, &op);
    if (a->kind == HAZARDS_LAUNCH && free_of_locks && !a->kernels)
        memo_accesses(t, a->kernel, &op);
    else if (a->kind == HAZARDS_LAUNCH)
        launch_accesses(a->kernel, &op);
    for (uint32_t i = 0; a->kind == HAZARDS_LAUNCH && a->kernels && i < a->num_kernels; i++) {
        zeil_obj_t *k = registry_find(a->kernels[i]);
        if (k && k->kind == ZEIL_KIND_KERNEL && atomic_load(&k->alive))
            launch_accesses(k, &op);
    }
    if (free_of_locks) {
        hz_apply(t, &op, &findings);
    } else {
        if (!hz_enter())
            return;
        t = hz_timeline_of(list);
        if (t && t->is_regular)
            keep_program_op(t, &op); /* out of memory: this op goes unchecked */
        else if (t)
            hz_apply(t, &op, &findings);
        hz_unlock();
    }
    hz_findings_say(&findings, a->call->name);
}

void hazards_executed(const zeil_call_t *call, zeil_obj_t *queue, uint32_t count,
                      const ze_command_list_handle_t *lists, ze_fence_handle_t fence)
{
    hz_findings_t findings;
    findings.count = 0; /* the texts are written only when found */
    if (!hz_enter())
        return;
    hz_timeline_t *q = hz_timeline_of(queue);
    for (uint32_t i = 0; q && lists && i < count; i++) {
        zeil_obj_t *list = registry_find(lists[i]);
        hz_timeline_t *t = list && list->kind == ZEIL_KIND_COMMAND_LIST ? list->hazard : NULL;
        for (size_t n = 0; t && t->is_regular && n < t->count; n++)
            hz_apply(q, &t->program[n], &findings);
    }
    zeil_obj_t *fence_obj = fence ? registry_find(fence) : NULL;
    if (q && fence_obj && fence_obj->kind == ZEIL_KIND_FENCE) {
        hz_fence_t *f = fence_obj->hazard;
        if (!f && !(f = fence_obj->hazard = calloc(1, sizeof *f)))
            hz_lost("keeping the hazard state of a fence");
        if (f) {
            f->slot = q->slot;
            f->epoch = q->last_epoch;
            f->clock = q->clock;
            f->valid = 1;
            f->timeout_warned = 0;
        }
    }
    if (q && q->synchronous)
        hz_host_learns(&q->clock);
    hz_unlock();
    hz_findings_say(&findings, call->name);
}

/* ---- host synchronizations ------------------------------------------------ */

static void say_dead_wait(const zeil_call_t *call, int rule, const char *what, const void *handle,
                          const char *path, uint64_t blocked_ms)
{
    if (rule == ZEIL_RULE_E094)
        diag_report(ZEIL_RULE_E094, call->name,
                    "waits for ever on %s %p: %s; its work waits on itself, this never "
                    "returns",
                    what, handle, path);
    else if (rule == ZEIL_RULE_W097)
        diag_report(ZEIL_RULE_W097, call->name,
                    "blocked for %llu ms waiting on %s %p: %s; unless another thread signals "
                    "it (zeEventHostSignal), this never returns",
                    (unsigned long long)blocked_ms, what, handle, path);
    else
        diag_report(ZEIL_RULE_W095, call->name,
                    "timed out waiting on %s %p: %s; waiting again will not help unless "
                    "something signals it",
                    what, handle, path);
}

/* Which op a host wait on obj waits for: 0 when none is pending. */
static int waited_op(zeil_obj_t *obj, uint32_t *slot, uint64_t *epoch, int **warned)
{
    if (obj->kind == ZEIL_KIND_FENCE) {
        hz_fence_t *f = obj->hazard;
        if (!f || !f->valid)
            return 0;
        *slot = f->slot, *epoch = f->epoch;
        *warned = &f->timeout_warned;
        return 1;
    }
    hz_timeline_t *t = obj->hazard;
    if (!t || t->slot == HZ_NO_SLOT)
        return 0;
    *slot = t->slot, *epoch = t->last_epoch;
    *warned = &t->timeout_warned;
    return 1;
}

/* What a host wait on obj is stuck on (HZ_HANG_*), its path; once: only
 * if the object's W095 was not said yet (and then it is). */
static int walk_wait(zeil_obj_t *obj, int once, char *path, size_t size)
{
    int found = 0;
    if (obj->kind == ZEIL_KIND_EVENT) {
        hz_event_t *e = hz_event_obj(obj);
        if (e && (!once || !e->timeout_warned)) {
            found = hz_hang_dead_event(obj->handle, path, size);
            if (found && once)
                e->timeout_warned = 1;
        }
        return found;
    }
    uint32_t slot;
    uint64_t epoch;
    int *warned;
    if (waited_op(obj, &slot, &epoch, &warned) && (!once || !*warned)) {
        found = hz_hang_dead_op(slot, epoch, path, size);
        if (found && once)
            *warned = 1;
    }
    return found;
}

/* rule: E094 (before a wait without timeout: a cycle only, which zeil can
 * prove), W097 (such a wait blocked blocked_ms: any hang, which another
 * thread may still end) or W095 (a finite wait expired, once per object). */
static void check_wait(const zeil_call_t *call, zeil_obj_t *obj, int rule, uint64_t blocked_ms)
{
    char path[512];
    const char *what = obj->kind == ZEIL_KIND_EVENT           ? "event"
                       : obj->kind == ZEIL_KIND_FENCE         ? "fence"
                       : obj->kind == ZEIL_KIND_COMMAND_QUEUE ? "command queue"
                                                              : "command list";
    if (!hz_enter())
        return;
    int found = walk_wait(obj, rule == ZEIL_RULE_W095, path, sizeof path);
    hz_unlock();
    /* A finite wait that expired on a dead end is a suspicion only (a valid
     * program polls what it signals later): said with the guesses. */
    if (rule == ZEIL_RULE_E094   ? found == HZ_HANG_CYCLE
        : rule == ZEIL_RULE_W097 ? found == HZ_HANG_DEAD_END
                                 : found == HZ_HANG_CYCLE || (found && hazards_guessing()))
        say_dead_wait(call, rule, what, obj->handle, path, blocked_ms);
}

static void host_learns_from(zeil_obj_t *obj)
{
    if (!hz_enter())
        return;
    if (obj->kind == ZEIL_KIND_EVENT) {
        hz_event_t *e = hz_event_obj(obj);
        if (e && e->state == HZ_EV_PENDING) /* the host's own signal tells it nothing */
            hz_host_learns(&e->clock);
    } else if (obj->kind == ZEIL_KIND_FENCE) {
        hz_fence_t *f = obj->hazard;
        if (f && f->valid)
            hz_host_learns(&f->clock);
    } else if (obj->hazard) {
        hz_timeline_t *t = obj->hazard;
        if (!t->is_regular) {
            hz_vector_clock_t done = t->clock;
            hz_join(&done, &t->all);
            if (t->slot < HZ_SLOTS)
                done.at[t->slot] = t->last_epoch;
            hz_host_learns(&done);
        }
    }
    hz_unlock();
}

static void before_wait(const zeil_call_t *call, zeil_obj_t *obj, uint64_t timeout)
{
    if (obj && timeout == UINT64_MAX)
        check_wait(call, obj, ZEIL_RULE_E094, 0);
}

void hazards_wait_blocked(const zeil_call_t *call, zeil_obj_t *obj, uint64_t blocked_ms)
{
    if (obj)
        check_wait(call, obj, ZEIL_RULE_W097, blocked_ms);
}

static void after_wait(const zeil_call_t *call, zeil_obj_t *obj, uint64_t timeout,
                       ze_result_t result)
{
    if (!obj)
        return;
    if (result == ZE_RESULT_SUCCESS)
        host_learns_from(obj);
    else if (result == ZE_RESULT_NOT_READY && timeout != UINT64_MAX && timeout != 0)
        check_wait(call, obj, ZEIL_RULE_W095, 0);
}

void hazards_event_sync_before(const zeil_call_t *call, zeil_obj_t *event, uint64_t timeout)
{
    before_wait(call, event, timeout);
}

void hazards_event_synced(const zeil_call_t *call, zeil_obj_t *event, uint64_t timeout,
                          ze_result_t result)
{
    after_wait(call, event, timeout, result);
}

void hazards_event_queried(zeil_obj_t *event, ze_result_t result)
{
    if (event && result == ZE_RESULT_SUCCESS)
        host_learns_from(event);
}

void hazards_queue_sync_before(const zeil_call_t *call, zeil_obj_t *queue, uint64_t timeout)
{
    before_wait(call, queue, timeout);
}

void hazards_queue_synced(const zeil_call_t *call, zeil_obj_t *queue, uint64_t timeout,
                          ze_result_t result)
{
    after_wait(call, queue, timeout, result);
}

void hazards_fence_sync_before(const zeil_call_t *call, zeil_obj_t *fence, uint64_t timeout)
{
    before_wait(call, fence, timeout);
}

void hazards_fence_synced(const zeil_call_t *call, zeil_obj_t *fence, uint64_t timeout,
                          ze_result_t result)
{
    after_wait(call, fence, timeout, result);
}

void hazards_list_sync_before(const zeil_call_t *call, zeil_obj_t *list, uint64_t timeout)
{
    before_wait(call, list, timeout);
}

void hazards_list_synced(const zeil_call_t *call, zeil_obj_t *list, uint64_t timeout,
                         ze_result_t result)
{
    after_wait(call, list, timeout, result);
}

/* ---- host signals and resets ---------------------------------------------- */

/* The first host signal of an event without state: its state, then the
 * signal (hazards.h); the waits recorded before any signal end with it. */
void hazards_event_host_first(zeil_obj_t *event)
{
    if (!hz_enter())
        return;
    hz_event_t *e = hz_event_obj(event);
    hz_unlock();
    if (e)
        hazards_event_host_signalled(event);
}

/* ---- frees --------------------------------------------------------------- */

ze_result_t hazards_free_checked(const zeil_call_t *call, const void *ptr)
{
    zeil_alloc_t a;
    if (!ptr || registry_find_alloc(ptr, &a) != 1 || a.base != ptr)
        return ZE_RESULT_SUCCESS; /* the USM rules' to judge */
    char text[512];
    if (HZ_LOAD(hz_degraded) || oom_registry_incomplete())
        return ZE_RESULT_SUCCESS;
    /* No lock: the histories are read through their seqlocks. */
    int in_flight = hz_access_in_flight((uintptr_t)a.base, text, sizeof text);
    if (!in_flight)
        hz_access_forget((uintptr_t)a.base);
    if (!in_flight)
        return ZE_RESULT_SUCCESS;
    return diag_report(ZEIL_RULE_E092, call->name, "%s", text);
}
