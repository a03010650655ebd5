/*
 * future_canary.h: how the driver from the future (future_driver.c) marks
 * the entries it fills that the reference driver does not implement, and
 * how tests recognise them. A canary takes no arguments that it reads and
 * returns a result code that names its table and place, so a call through
 * any table shows which entry it reached.
 */
#ifndef ZEIL_FUTURE_CANARY_H
#define ZEIL_FUTURE_CANARY_H

#include <level_zero/ze_api.h>
#include <stdint.h>

/* Entries the future driver adds past every entry zeil knows, when a loader
 * asks for a version newer than zeil knows: what zeil cannot know of must
 * still reach the loader unchanged. */
#define FUTURE_UNKNOWN_ENTRIES 2

static inline ze_result_t future_canary_result(const char *table, unsigned index)
{
    uint32_t h = 2166136261u;
    for (; *table; table++)
        h = (h ^ (uint8_t)*table) * 16777619u;
    return (ze_result_t)(0x7ec00000u | ((h & 0x3ffu) << 8) | (index & 0xffu));
}

/* Exported by the future driver (a test driver may): the result a canary
 * returns, or 0 when fn is none of its canaries. */
typedef uint32_t (*future_canary_of_fn)(const void *fn);
#define FUTURE_CANARY_OF "zeil_future_canary_of"

#endif
