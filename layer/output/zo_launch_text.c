/* zo_launch_text.c: the writer's table of launch texts (see zo_launch_text.h). */
#include "zo_launch_text.h"
#include "zo_hash.h"

#include <stdatomic.h>

#define TEXT_SLOTS 1024u               /* power of two; filled to 3/4 at most */
#define TEXT_STORE_BYTES (256u * 1024) /* a launch's text is typically ~300 bytes */

typedef struct text_slot {
    const zo_launch_shared_t *shared; /* the key, with call; null: free */
    const char *call;
    zo_launch_text_t text;
} text_slot_t;

static text_slot_t slots[TEXT_SLOTS];
static uint32_t slots_used;
static char store_data[TEXT_STORE_BYTES];
static size_t store_used;
static int store_full;
static const text_slot_t *last_slot; /* a launch asks twice */

/* Makes the slot's text; the key is set last, so a fatal signal that cuts
 * this short (its handler drains on this very thread) finds the slot free. */
static const zo_launch_text_t *make(text_slot_t *slot, const zo_entry_t *e)
{
    if (store_full || slots_used >= TEXT_SLOTS / 4 * 3)
        return 0;
    zo_buf_t store;
    zo_buf_init(&store, store_data + store_used, sizeof store_data - store_used);
    if (zo_format_launch_text(&store, e, &slot->text) != 0) {
        store_full = 1;
        return 0;
    }
    store_used += store.len;
    slot->call = e->call;
    atomic_signal_fence(memory_order_seq_cst);
    slot->shared = e->shared;
    slots_used++;
    return &slot->text;
}

const zo_launch_text_t *zo_launch_text_of(const zo_entry_t *e)
{
    if (!e->shared)
        return 0;
    const text_slot_t *last = last_slot;
    if (last && last->shared == e->shared && last->call == e->call)
        return &last->text;
    uint64_t key = (uint64_t)(uintptr_t)e->shared ^ (uint64_t)(uintptr_t)e->call * 31;
    for (uint32_t i = (uint32_t)zo_hash_mix(key), probe = 0; probe < TEXT_SLOTS; probe++, i++) {
        text_slot_t *slot = &slots[i % TEXT_SLOTS];
        if (!slot->shared)
            return make(slot, e);
        if (slot->shared == e->shared && slot->call == e->call) {
            last_slot = slot;
            return &slot->text;
        }
    }
    return 0;
}
