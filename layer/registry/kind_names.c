/*
 * kind_names.c: the one table of the names of the kinds of object zeil
 * tracks: alone ("command list", zeil_kind_name and the leak counts) and
 * with their article ("a command list", in findings).
 */
#include "registry.h"

typedef struct kind_name {
    const char *name;
    const char *article;
} kind_name_t;

static const kind_name_t kind_names[ZEIL_KIND_COUNT] = {
    [ZEIL_KIND_UNKNOWN] = {"unknown", "an unknown object"},
    [ZEIL_KIND_DRIVER] = {"driver", "a driver"},
    [ZEIL_KIND_DEVICE] = {"device", "a device"},
    [ZEIL_KIND_CONTEXT] = {"context", "a context"},
    [ZEIL_KIND_COMMAND_QUEUE] = {"command queue", "a command queue"},
    [ZEIL_KIND_COMMAND_LIST] = {"command list", "a command list"},
    [ZEIL_KIND_EVENT_POOL] = {"event pool", "an event pool"},
    [ZEIL_KIND_EVENT] = {"event", "an event"},
    [ZEIL_KIND_FENCE] = {"fence", "a fence"},
    [ZEIL_KIND_MODULE] = {"module", "a module"},
    [ZEIL_KIND_KERNEL] = {"kernel", "a kernel"},
};

static const kind_name_t *kind_name_of(zeil_kind_t kind)
{
    return (unsigned)kind < ZEIL_KIND_COUNT ? &kind_names[kind] : &kind_names[ZEIL_KIND_UNKNOWN];
}

const char *registry_kind_name(zeil_kind_t kind)
{
    return kind_name_of(kind)->name;
}

const char *registry_kind_article(zeil_kind_t kind)
{
    return kind_name_of(kind)->article;
}
