/* The hazard suites' two-list fixture (hz_two_lists.h). */
#include "hz_two_lists.h"

const uint64_t hz_forever = UINT64_MAX;

void hz_fill(ze_command_list_handle_t list, void *ptr, ze_event_handle_t signal, uint32_t nwaits,
             ze_event_handle_t *waits)
{
    static const uint32_t pattern = 0x5a5a5a5a;
    ZT_OK(zeCommandListAppendMemoryFill(list, ptr, &pattern, sizeof pattern, HZ_BYTES, signal,
                                        nwaits, waits));
}

void hz_copy(ze_command_list_handle_t list, void *dst, const void *src, ze_event_handle_t signal,
             uint32_t nwaits, ze_event_handle_t *waits)
{
    ZT_OK(zeCommandListAppendMemoryCopy(list, dst, src, HZ_BYTES, signal, nwaits, waits));
}

void open_two(two_lists_t *t)
{
    zl_open(&t->f);
    t->a = zt_in_order_list(&t->f.env);
    t->b = zt_in_order_list(&t->f.env);
    t->x = zt_usm_alloc(&t->f.env, ZT_USM_DEVICE, HZ_BYTES, 64);
    t->y = zt_usm_alloc(&t->f.env, ZT_USM_DEVICE, HZ_BYTES, 64);
    t->extra = NULL;
}

void close_two(two_lists_t *t)
{
    ze_event_handle_t done[2] = {t->f.event[6], t->f.event[7]};
    ZT_OK(zeEventHostReset(done[0]));
    ZT_OK(zeEventHostReset(done[1]));
    ZT_OK(zeCommandListAppendBarrier(t->a, done[0], 0, NULL));
    ZT_OK(zeCommandListAppendBarrier(t->b, done[1], 0, NULL));
    ZT_OK(zeEventHostSynchronize(done[0], hz_forever));
    ZT_OK(zeEventHostSynchronize(done[1], hz_forever));
    ZT_OK(zeMemFree(t->f.env.context, t->x));
    ZT_OK(zeMemFree(t->f.env.context, t->y));
    if (t->extra)
        ZT_OK(zeMemFree(t->f.env.context, t->extra));
    ZT_OK(zeCommandListDestroy(t->a));
    ZT_OK(zeCommandListDestroy(t->b));
    zl_close(&t->f);
}
