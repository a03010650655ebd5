/*
 * The hazard suites' fixture: two in-order immediate lists of one context
 * and two USM allocations they share, with the fill and copy appends the
 * suites race or order.
 */
#ifndef ZEIL_HZ_TWO_LISTS_H
#define ZEIL_HZ_TWO_LISTS_H

#include "zl.h"

#include <stdint.h>

enum {
    HZ_BYTES = 4096 /* each allocation's size, and each fill's and copy's */
};

extern const uint64_t hz_forever;

typedef struct two_lists {
    zl_fixture_t f;
    ze_command_list_handle_t a, b;
    void *x, *y;
    void *extra; /* freed with x and y when set */
} two_lists_t;

void open_two(two_lists_t *t);
/* Drains both lists (events 6 and 7 of the fixture) before the frees, so
 * they are correct. */
void close_two(two_lists_t *t);

/* HZ_BYTES of a 32-bit pattern at ptr; a copy of HZ_BYTES. */
void hz_fill(ze_command_list_handle_t list, void *ptr, ze_event_handle_t signal, uint32_t nwaits,
             ze_event_handle_t *waits);
void hz_copy(ze_command_list_handle_t list, void *dst, const void *src, ze_event_handle_t signal,
             uint32_t nwaits, ze_event_handle_t *waits);

#endif
