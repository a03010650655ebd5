/* zo_call_text.c: the writer's table of call names as JSON (see zo_call_text.h). */
#include "zo_call_text.h"
#include "zo_hash.h"

#include <stdatomic.h>

#define CALL_SLOTS 512u               /* power of two; filled to 3/4 at most */
#define CALL_STORE_BYTES (32u * 1024) /* a name is some 30 bytes */

typedef struct call_slot {
    const char *call; /* the key; null: free */
    zo_text_piece_t text;
} call_slot_t;

static call_slot_t slots[CALL_SLOTS];
static uint32_t slots_used;
static char store_data[CALL_STORE_BYTES];
static size_t store_used;

/* Escapes the name into the store; the key is set last, so a fatal signal
 * that cuts this short (its handler drains on this very thread) finds the
 * slot free. */
static const zo_text_piece_t *make(call_slot_t *slot, const char *call)
{
    if (slots_used >= CALL_SLOTS / 4 * 3)
        return 0;
    zo_buf_t store;
    zo_buf_init(&store, store_data + store_used, sizeof store_data - store_used);
    zo_buf_json_str(&store, call);
    if (!zo_buf_ok(&store))
        return 0;
    slot->text.data = store.data;
    slot->text.len = store.len;
    store_used += store.len;
    atomic_signal_fence(memory_order_seq_cst);
    slot->call = call;
    slots_used++;
    return &slot->text;
}

const zo_text_piece_t *zo_call_text_of(const char *call)
{
    if (!call)
        return 0;
    for (uint32_t i = (uint32_t)zo_hash_mix((uint64_t)(uintptr_t)call), probe = 0;
         probe < CALL_SLOTS; probe++, i++) {
        call_slot_t *slot = &slots[i % CALL_SLOTS];
        if (!slot->call)
            return make(slot, call);
        if (slot->call == call)
            return &slot->text;
    }
    return 0;
}
