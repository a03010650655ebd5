/* names.c: labels of streams and command lists (names.h, zeil_set_name and
 * zeil_track_label in zeil.h). Kept for the whole process, so the exit
 * report names a list destroyed long before; bounded, beyond which labels
 * fall back to handle values. None of this is on the launch path: lists are
 * created, bound and named rarely, so one mutex is enough. */
#include "names.h"

#include "intercepts.h"
#include "out_of_memory.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zeil_output.h"

#define MAX_LABELS 65536u   /* lists, and streams, each */
#define MAX_DEVICES 16u     /* device names asked once each */
#define STREAM_SORT_BASE 0u /* streams first, in binding order */
#define LIST_SORT_BASE (1u << 20)

typedef struct list_label {
    UT_hash_handle hh;
    const void *list;
    uint32_t number; /* creation order, from 1 */
    uint32_t ordinal, index;
    int is_immediate;
    const char *device; /* interned, null when the driver would not say */
    const char *name;   /* the application's, interned */
    uint64_t stream_id;
} list_label_t;

typedef struct stream_label {
    UT_hash_handle hh;
    uint64_t stream_id;
    uint32_t number; /* binding order, from 1 */
    const void *list;
    const char *name;
} stream_label_t;

static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
static list_label_t *lists;
static stream_label_t *streams;
static uint32_t list_count, stream_count;
static struct {
    ze_device_handle_t device;
    const char *name;
} devices[MAX_DEVICES];

static const char *device_name(const zeil_next_t *next, ze_device_handle_t device)
{
    for (uint32_t i = 0; i < MAX_DEVICES && devices[i].device; i++)
        if (devices[i].device == device)
            return devices[i].name;
    ze_device_properties_t props = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    if (!next || !NEXT(ze_device_dditable_t, pfnGetProperties) ||
        NEXT(ze_device_dditable_t, pfnGetProperties)(device, &props) != ZE_RESULT_SUCCESS)
        return NULL;
    props.name[sizeof props.name - 1] = 0;
    const char *name = registry_intern(props.name);
    for (uint32_t i = 0; i < MAX_DEVICES; i++) {
        if (!devices[i].device) {
            devices[i].device = device;
            devices[i].name = name;
            break;
        }
    }
    return name;
}

/* The label of a stream's track (s non-null) or of a list's; l may be null
 * for a stream whose list zeil never saw created. */
static size_t compose(char *buf, size_t size, const stream_label_t *s, const list_label_t *l)
{
    const char *name = s && s->name ? s->name : l ? l->name : NULL;
    size_t n = 0;
#define ADD(...) \
    do { \
        int k = snprintf(buf + n, n < size ? size - n : 0, __VA_ARGS__); \
        if (k > 0) \
            n += (size_t)k; \
    } while (0)
    if (size)
        buf[0] = 0;
    else
        buf = NULL;
    if (name)
        ADD("\"%s\": ", name);
    if (s)
        ADD("stream %u", s->number);
    if (l) {
        if (s)
            ADD(" on ");
        else
            ADD("list #%u on ", l->number);
        if (l->device)
            ADD("\"%s\"", l->device);
        else
            ADD("device ?");
        if (s)
            ADD(", list #%u", l->number);
        else if (l->is_immediate)
            ADD(", ordinal %u index %u", l->ordinal, l->index);
        else
            ADD(", ordinal %u", l->ordinal);
    }
#undef ADD
    return n < size ? n : size ? size - 1 : 0;
}

static list_label_t *find_list(const void *list)
{
    list_label_t *l = NULL;
    if (list)
        HASH_FIND_PTR(lists, &list, l);
    return l;
}

static stream_label_t *find_stream(uint64_t stream_id)
{
    stream_label_t *s = NULL;
    if (stream_id)
        HASH_FIND(hh, streams, &stream_id, sizeof stream_id, s);
    return s;
}

/* Under names_lock: tells the trace the track's label. */
static void publish(const stream_label_t *s, const list_label_t *l)
{
    if (!zo_trace_enabled() || !l)
        return;
    char text[512] = "";
    compose(text, sizeof text, s, l);
    const char *label = registry_intern(text);
    if (s)
        zo_trace_track_name((ze_command_list_handle_t)l->list, s->stream_id, label,
                            STREAM_SORT_BASE + s->number);
    else
        zo_trace_track_name((ze_command_list_handle_t)l->list, 0, label,
                            LIST_SORT_BASE + l->number);
}

void names_list_created(const zeil_next_t *next, const zeil_obj_t *obj, uint32_t index)
{
    pthread_mutex_lock(&names_lock);
    list_label_t *l = find_list(obj->handle);
    if (!l && list_count < MAX_LABELS) {
        l = calloc(1, sizeof *l);
        if (!l) {
            pthread_mutex_unlock(&names_lock);
            oom_dropped(OOM_OTHER, 1, obj->created_by, "naming a command list");
            return;
        }
        l->list = obj->handle;
        HASH_ADD_PTR(lists, list, l);
        if (!l->hh.tbl) { /* uthash could not grow its table */
            free(l);
            pthread_mutex_unlock(&names_lock);
            oom_dropped(OOM_OTHER, 1, obj->created_by, "naming a command list");
            return;
        }
    }
    if (l) {
        /* A new list at the address of a destroyed one is a new list. */
        l->number = ++list_count;
        l->ordinal = obj->ordinal;
        l->index = index;
        l->is_immediate = obj->is_immediate;
        l->device = device_name(next, obj->device);
        l->name = NULL;
        l->stream_id = 0;
        publish(NULL, l);
    }
    pthread_mutex_unlock(&names_lock);
}

void names_stream_bound(ze_command_list_handle_t list, uint64_t stream_id, const char *name)
{
    pthread_mutex_lock(&names_lock);
    stream_label_t *s = find_stream(stream_id);
    if (!s && stream_count < MAX_LABELS) {
        s = calloc(1, sizeof *s);
        if (!s) {
            pthread_mutex_unlock(&names_lock);
            oom_dropped(OOM_OTHER, 1, "zeil_bind_list_to_stream", "naming a stream");
            return;
        }
        s->stream_id = stream_id;
        HASH_ADD(hh, streams, stream_id, sizeof s->stream_id, s);
        if (!s->hh.tbl) { /* uthash could not grow its table */
            free(s);
            pthread_mutex_unlock(&names_lock);
            oom_dropped(OOM_OTHER, 1, "zeil_bind_list_to_stream", "naming a stream");
            return;
        }
        s->number = ++stream_count;
    }
    list_label_t *l = find_list(list);
    if (l)
        l->stream_id = stream_id;
    if (s) {
        s->list = list;
        if (name)
            s->name = registry_intern(name);
        publish(s, l);
    }
    pthread_mutex_unlock(&names_lock);
}

int zeil_set_name(const void *list_or_stream, const char *name)
{
    if (!list_or_stream)
        return -1;
    const char *interned = name ? registry_intern(name) : NULL;
    pthread_mutex_lock(&names_lock);
    stream_label_t *s = find_stream((uint64_t)(uintptr_t)list_or_stream);
    list_label_t *l = find_list(list_or_stream);
    int found = s || l;
    if (s) {
        s->name = interned;
        publish(s, find_list(s->list));
    } else if (l) {
        l->name = interned;
        publish(NULL, l);
        stream_label_t *bound = find_stream(l->stream_id);
        if (bound && !bound->name)
            publish(bound, l);
    }
    pthread_mutex_unlock(&names_lock);
    return found ? 0 : -1;
}

size_t zeil_track_label(uint64_t stream_id, ze_command_list_handle_t list, char *buf, size_t size)
{
    pthread_mutex_lock(&names_lock);
    stream_label_t *s = find_stream(stream_id);
    list_label_t *l = find_list(list ? (const void *)list : s ? s->list : NULL);
    size_t n = s || l ? compose(buf, size, s, l) : 0;
    pthread_mutex_unlock(&names_lock);
    if (!n && buf && size)
        buf[0] = 0;
    return n;
}
