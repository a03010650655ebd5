/*
 * Out of memory inside zeil: counted, said once (ZEIL-W070), never fatal.
 *
 * The call that was being intercepted always goes to the driver and returns
 * what the driver returned; zeil only loses what it could not keep. The one
 * loss that could change a result is an object or USM allocation zeil failed
 * to register: a later check would find nothing and call a valid handle
 * unknown. So oom_incomplete is set with the first such loss, and from then
 * on every check that needs a complete registry to refuse lets the call
 * through (counted as unchecked). Rule by rule (layer/common/rules.def, then
 * interop/rules.def, which reads the flag through zeil_registry_is_incomplete):
 *
 * - E001 unknown handle, E010 free of a pointer that is no USM allocation:
 *   only a complete registry can say "unknown". Let through when incomplete.
 * - E002 destroyed, E003 wrong kind: the object found is one zeil saw created
 *   (and destroyed). A stale entry could stand for a handle value the driver
 *   reused for an object zeil failed to register, so registry_insert removes
 *   the old entry from the index when it fails; then the handle is unknown
 *   (E001 above). Kept.
 * - E004 contexts mixed: compares contexts zeil recorded from the creating
 *   call's arguments or from a parent it saw; an unknown parent leaves the
 *   context null, which is never compared. Kept.
 * - E005 device outside the context, E023 list and queue of other devices:
 *   the context's device list is what zeil saw (a context whose list could
 *   not be copied counts as covering all of its driver's devices, as
 *   zeContextCreate does); a sub-device's parent chain can be broken by a
 *   device zeil did not register, so an unknown link counts as related when
 *   incomplete (check_handles.c). Kept otherwise.
 * - E011 interior pointer, E013 freed in another context, E014 range past the
 *   allocation: about a live allocation zeil saw; an allocation zeil failed
 *   to register cannot overlap a live one. Kept.
 * - E012 double free, E015 freed memory (and W040): a tombstone is memory
 *   zeil saw freed. When registering an allocation fails, the tombstones it
 *   overlaps are dropped (registry_allocs.c), so none stands for memory the
 *   driver handed out again. A tombstone zeil could not keep is simply not
 *   there: the pointer is then unknown. Kept.
 * - E020, E021, E022, E024, E041: state of lists, queues, fences and kernels
 *   zeil saw, updated without allocating (close, reset, set argument). Kept.
 * - E030 pool with live events: counts events zeil saw alive; a lost event
 *   only makes the count smaller. Kept. W031, W050, W051, W052: warnings.
 * - Interop: E103, E106, E112, E130 for an unknown handle and E120 for a
 *   pointer unknown to the registry let the call through when incomplete;
 *   E102 and E131 when the device's driver or the event's context is unknown
 *   (their parent went unregistered) likewise. Destroyed, wrong kind, of
 *   another context or too small: about objects zeil saw, kept.
 *
 * Submission records and counters (OOM_RECORD) and everything else
 * (OOM_OTHER) only make the report and zeil.h answers smaller.
 */
#include "out_of_memory.h"

#include "diag.h"

#include <zeil/zeil.h>

#include <stdio.h>

_Atomic int oom_incomplete;
static _Atomic uint64_t lost[OOM_LOSSES];
static _Atomic uint64_t unchecked;
static _Atomic int said;

static const char *const loss_names[OOM_LOSSES] = {"objects", "USM allocations",
                                                   "submission records", "other items"};

void oom_dropped(oom_loss_t loss, uint64_t n, const char *call, const char *doing)
{
    if ((unsigned)loss >= OOM_LOSSES || n == 0)
        return;
    if (loss == OOM_OBJECT || loss == OOM_ALLOCATION)
        atomic_store_explicit(&oom_incomplete, 1, memory_order_release);
    atomic_fetch_add_explicit(&lost[loss], n, memory_order_relaxed);
    if (atomic_exchange(&said, 1))
        return;
    diag_report(ZEIL_RULE_W070, call,
                "zeil ran out of memory %s; from now on what zeil cannot keep is dropped and "
                "counted (first: %s), and handles or USM pointers unknown to zeil are let "
                "through",
                doing ? doing : "", loss_names[loss]);
}

void oom_dropped_allocation(const char *call, const void *ptr, size_t size)
{
    char doing[96];
    snprintf(doing, sizeof doing, "registering USM allocation %p (%zu bytes)", ptr, size);
    oom_dropped(OOM_ALLOCATION, 1, call, doing);
}

void oom_unchecked(void)
{
    atomic_fetch_add_explicit(&unchecked, 1, memory_order_relaxed);
}

void zeil_get_dropped_counts(zeil_dropped_counts_t *counts)
{
    if (!counts)
        return;
    counts->objects = atomic_load_explicit(&lost[OOM_OBJECT], memory_order_relaxed);
    counts->allocations = atomic_load_explicit(&lost[OOM_ALLOCATION], memory_order_relaxed);
    counts->records = atomic_load_explicit(&lost[OOM_RECORD], memory_order_relaxed);
    counts->other = atomic_load_explicit(&lost[OOM_OTHER], memory_order_relaxed);
    counts->unchecked = atomic_load_explicit(&unchecked, memory_order_relaxed);
}

int zeil_registry_is_incomplete(void)
{
    return oom_registry_incomplete();
}
