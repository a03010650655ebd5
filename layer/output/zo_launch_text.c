/* zo_launch_text.c: the writer's table of kept texts (see zo_launch_text.h). */
#include "zo_launch_text.h"
#include "zo_hash.h"

#include <stdatomic.h>

#define TEXT_SLOTS 1024u               /* power of two; filled to 3/4 at most */
#define TEXT_STORE_BYTES (256u * 1024) /* a launch's text is typically ~300 bytes */

/* Keyed by (shared, call): a launch's text, or with shared null a call's
 * name alone (only text.call set). */
typedef struct text_slot {
    const zo_launch_shared_t *shared;
    const char *call; /* with shared; null: free */
    zo_launch_text_t text;
} text_slot_t;

static text_slot_t slots[TEXT_SLOTS];
static uint32_t slots_used;
static char store_data[TEXT_STORE_BYTES];
static size_t store_used;
static int store_full;
static const text_slot_t *last_slot; /* a launch asks twice */

/* Makes the slot's text (launch e's, or with e null call's name); the key
 * is set last, so a fatal signal that cuts this short (its handler drains
 * on this very thread) finds the slot free. */
static const zo_launch_text_t *make(text_slot_t *slot, const zo_entry_t *e, const char *call)
{
    if (store_full || slots_used >= TEXT_SLOTS / 4 * 3)
        return 0;
    zo_buf_t store;
    zo_buf_init(&store, store_data + store_used, sizeof store_data - store_used);
    int failed;
    if (e) {
        failed = zo_format_launch_text(&store, e, &slot->text);
    } else {
        zo_buf_json_str(&store, call);
        slot->text.call.data = store.data;
        slot->text.call.len = store.len;
        failed = !zo_buf_ok(&store);
    }
    if (failed) {
        store_full = 1;
        return 0;
    }
    store_used += store.len;
    slot->shared = e ? e->shared : 0;
    atomic_signal_fence(memory_order_seq_cst);
    slot->call = call;
    slots_used++;
    return &slot->text;
}

/* The slot of (shared, call), made from e (or call alone) when new. */
static const text_slot_t *find(const zo_launch_shared_t *shared, const char *call,
                               const zo_entry_t *e)
{
    uint64_t key = (uint64_t)(uintptr_t)shared ^ (uint64_t)(uintptr_t)call * 31;
    for (uint32_t i = (uint32_t)zo_hash_mix(key), probe = 0; probe < TEXT_SLOTS; probe++, i++) {
        text_slot_t *slot = &slots[i % TEXT_SLOTS];
        if (!slot->call)
            return make(slot, e, call) ? slot : 0;
        if (slot->shared == shared && slot->call == call)
            return slot;
    }
    return 0;
}

const zo_launch_text_t *zo_launch_text_of(const zo_entry_t *e)
{
    if (!e->shared || !e->call)
        return 0;
    const text_slot_t *last = last_slot;
    if (last && last->shared == e->shared && last->call == e->call)
        return &last->text;
    const text_slot_t *slot = find(e->shared, e->call, e);
    if (slot)
        last_slot = slot;
    return slot ? &slot->text : 0;
}

const zo_text_piece_t *zo_call_text_of(const char *call)
{
    const text_slot_t *slot = call ? find(0, call, 0) : 0;
    return slot ? &slot->text.call : 0;
}
