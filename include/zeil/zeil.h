/*
 * zeil.h: the zeil layer's query and attribution API (libzeil.so).
 *
 * For the interop library, tests and users' own tools. Every function is safe
 * to call whether or not zeil is active: inactive, queries find nothing and
 * hooks do nothing. Handles are the ones zeil sees below the loader (driver
 * handles); translate loader handles with zelLoaderTranslateHandle first when
 * the loader wraps them.
 */
#ifndef ZEIL_ZEIL_H
#define ZEIL_ZEIL_H

#include <stddef.h>
#include <stdint.h>
#include <level_zero/ze_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ZEIL_VERSION_MAJOR 0
#define ZEIL_VERSION_MINOR 1
#define ZEIL_VERSION_PATCH 0

/* 1 when ZE_ENABLE_LAYERS names zeil and zeil wraps at least one driver. */
int zeil_is_active(void);
/* 1 when ZE_ENABLE_LAYERS names zeil (even if no driver could be wrapped). */
int zeil_is_enabled(void);
const char *zeil_version_string(void);

/* ---- handles ---------------------------------------------------------- */

typedef enum zeil_kind {
    ZEIL_KIND_UNKNOWN = 0,
    ZEIL_KIND_DRIVER,
    ZEIL_KIND_DEVICE,
    ZEIL_KIND_CONTEXT,
    ZEIL_KIND_COMMAND_QUEUE,
    ZEIL_KIND_COMMAND_LIST,
    ZEIL_KIND_EVENT_POOL,
    ZEIL_KIND_EVENT,
    ZEIL_KIND_FENCE,
    ZEIL_KIND_MODULE,
    ZEIL_KIND_KERNEL,
    ZEIL_KIND_COUNT
} zeil_kind_t;

const char *zeil_kind_name(zeil_kind_t kind);

typedef struct zeil_handle_info {
    zeil_kind_t kind;
    int alive;                 /* 0: a tombstone of a destroyed object */
    ze_driver_handle_t driver; /* parents, where the kind has them */
    ze_device_handle_t device;
    ze_context_handle_t context;
    void *parent;            /* pool of an event, module of a kernel */
    uint64_t created_call;   /* zeil call sequence numbers */
    uint64_t destroyed_call; /* 0 while alive */
    uint32_t created_thread; /* zeil's small thread numbers */
    uint32_t destroyed_thread;
    /* command lists */
    int is_immediate;
    int is_in_order;
    int is_closed;      /* regular lists: closed and not reset */
    uint32_t ordinal;   /* command queue group ordinal */
    uint64_t stream_id; /* bound oneDNN stream, 0 when none */
} zeil_handle_info_t;

/* Fills *info and returns 1 when zeil knows the handle (alive or tombstone),
 * returns 0 otherwise. */
int zeil_lookup_handle(const void *handle, zeil_handle_info_t *info);

/* For a handle zeil never saw created: when the loader's API version has
 * creators of that kind that zeil does not intercept (and only then), asks
 * the driver what the handle is (API 1.9+ queries), registers it as zeil
 * registers such handles at first sight (ZEIL-W080) and fills *info like
 * zeil_lookup_handle. Returns 1 when zeil knows the handle afterwards, 0
 * when it does not (the driver refused it, or no creator passes zeil by). */
int zeil_adopt_handle(const void *handle, zeil_kind_t kind, zeil_handle_info_t *info);

/* ---- USM allocations -------------------------------------------------- */

typedef struct zeil_alloc_info {
    void *base;
    size_t size;
    ze_memory_type_t type; /* HOST, DEVICE or SHARED */
    ze_context_handle_t context;
    ze_device_handle_t device; /* null for host allocations */
    int alive;                 /* 0: freed (a tombstone) */
    uint64_t created_call;
    uint64_t freed_call;
} zeil_alloc_info_t;

/* Finds the allocation that contains ptr (any interior pointer), in O(1)
 * expected time and without taking a lock. Returns 1 and fills *info for a
 * live allocation; returns 2 for a pointer that only a freed allocation's
 * tombstone covers (the newest one); 0 when unknown. */
int zeil_lookup_pointer(const void *ptr, zeil_alloc_info_t *info);

/* ---- attribution ------------------------------------------------------ */

/* Binds a command list to a oneDNN stream: submissions on the list are then
 * reported under the stream. stream_id is any non-zero number unique in the
 * process (the interop library uses the dnnl_stream_t value); name may be
 * null. Returns 0 on success, -1 when the list is unknown. */
int zeil_bind_list_to_stream(ze_command_list_handle_t list, uint64_t stream_id, const char *name);
int zeil_unbind_stream(uint64_t stream_id);

/* Names a command list or a oneDNN stream (the dnnl_stream_t, i.e. the
 * stream_id given to zeil_bind_list_to_stream) for the trace, the exit
 * report and the summary: "encoder", "rank 0 compute". The name is copied;
 * a later call replaces it, null removes it. Returns 0, or -1 when zeil
 * knows no such list or stream. */
int zeil_set_name(const void *list_or_stream, const char *name);

/* How the trace, the report and the summary name the track of a stream
 * (stream_id non-zero) or of a command list: the application's name if it
 * gave one, then where it runs, e.g.
 *   "encoder": stream 1 on "zeil CPU 0", list #3
 *   list #2 on "zeil CPU 0", ordinal 0 index 0
 * (streams numbered in the order they were bound, lists in the order they
 * were created). Writes at most size bytes with the terminating zero into
 * buf and returns the label's length; 0 when zeil knows neither. */
size_t zeil_track_label(uint64_t stream_id, ze_command_list_handle_t list, char *buf, size_t size);

typedef struct zeil_attribution {
    uint64_t stream_id;      /* the oneDNN stream executing */
    const char *primitive;   /* primitive kind, e.g. "convolution" */
    const char *impl;        /* implementation, e.g. "jit:avx2" */
    const char *memory_args; /* shapes and data types of the memory arguments,
                                 e.g. "src f32 4x3x16x16, dst f32 4x8x16x16";
                                 null when unknown */
} zeil_attribution_t;

/* Thread-local: submissions this thread makes between push and pop belong to
 * *attr. The strings are copied. Pushes nest. */
void zeil_attribution_push(const zeil_attribution_t *attr);
void zeil_attribution_pop(void);

/* ---- memory accesses (hazard checks) ---------------------------------- */

/* 1 when the hazard checks are on (the default; ZEIL_CHECKS=-hazards
 * switches them off): only then do declared accesses matter. */
int zeil_hazards_enabled(void);
/* 1 when they also guess (ZEIL_CHECKS names hazards, hazard-guesses or all):
 * a kernel's USM pointer arguments taken as its accesses (ZEIL-W091), and a
 * wait that expired (ZEIL-W095) or stays blocked (ZEIL-W097) on an event
 * nothing pending signals. */
int zeil_hazard_guesses_enabled(void);

typedef struct zeil_access {
    const void *ptr; /* into a USM allocation; other pointers are ignored */
    size_t size;     /* bytes from ptr */
    int written;     /* 0: read; 1: written (read too, in place) */
} zeil_access_t;

/* Thread-local: the next kernel launch this thread appends at the current
 * attribution depth reads and writes exactly these (copied; at most 16),
 * instead of what zeil would guess from the kernel's pointer arguments. The
 * interop library declares a primitive's arguments between
 * zeil_attribution_push and its launch. */
void zeil_declare_accesses(const zeil_access_t *accesses, size_t count);

/* ---- submission records ----------------------------------------------- */

typedef enum zeil_record_kind {
    ZEIL_RECORD_LAUNCH = 1,
    ZEIL_RECORD_COPY,
    ZEIL_RECORD_FILL,
    ZEIL_RECORD_BARRIER,
    ZEIL_RECORD_OTHER
} zeil_record_kind_t;

/* A record's seq >> ZEIL_RECORD_SEQ_SHIFT is a zeil call number (below). */
#define ZEIL_RECORD_SEQ_SHIFT 20

typedef struct zeil_record {
    uint64_t seq; /* the append's place in the process's order: unique,
                                   increasing with time. seq >> ZEIL_RECORD_SEQ_SHIFT
                                   is the append's zeil call number (zeil_call_number),
                                   as in the calls log; for a launch on the fast path,
                                   which takes no number of its own, the last number
                                   taken before it, and the low bits order it after
                                   that call */
    zeil_record_kind_t kind;
    const char *call; /* e.g. "zeCommandListAppendLaunchKernel" */
    ze_command_list_handle_t list;
    uint64_t stream_id;        /* 0 when no stream is bound or attributed */
    const char *kernel;        /* kernel name (launches), else null */
    const char *module_origin; /* library that created the module */
    const char *primitive;     /* from attribution, else null */
    const char *impl;
    uint32_t group_count[3];
    uint32_t group_size[3];
    size_t bytes; /* copies and fills */
    ze_event_handle_t signal_event;
    uint32_t num_wait_events;
    const ze_event_handle_t *wait_events;
    uint32_t thread;          /* zeil's small thread number */
    uint64_t host_ns;         /* CLOCK_MONOTONIC at submission; to the kernel
                                   tick (CLOCK_MONOTONIC_COARSE) unless ZEIL_TRACE
                                   or ZEIL_LOG=calls times every call */
    uint64_t device_start_ns; /* ZEIL_TIMING=1 and completed, else 0 */
    uint64_t device_end_ns;
    const char *memory_args; /* from attribution, else null */
} zeil_record_t;

/* Calls fn for every retained record of the list (or stream), oldest first,
 * until fn returns non-zero. Returns the number of records visited. The
 * record and its strings are valid only during the call. */
typedef int (*zeil_record_fn)(const zeil_record_t *record, void *user);
size_t zeil_records_of_list(ze_command_list_handle_t list, zeil_record_fn fn, void *user);
size_t zeil_records_of_stream(uint64_t stream_id, zeil_record_fn fn, void *user);
/* Total submissions ever recorded on a list, retained or folded. */
uint64_t zeil_submission_count(ze_command_list_handle_t list);

/* ---- counters (what the exit report shows) ----------------------------- */

/* Per stream (or list, when no stream is bound) and kernel: every launch ever
 * recorded, including those folded out of the retained window. */
typedef struct zeil_kernel_stats {
    uint64_t stream_id; /* 0 when the list has no stream */
    ze_command_list_handle_t list;
    const char *kernel;
    const char *primitive; /* null when not attributed */
    const char *impl;
    uint64_t launches;
    uint64_t timed_launches; /* launches with device times */
    uint64_t total_device_ns;
    uint64_t max_device_ns;
} zeil_kernel_stats_t;

typedef int (*zeil_kernel_stats_fn)(const zeil_kernel_stats_t *stats, void *user);
/* Calls fn for each (stream or list, kernel, primitive) row until fn returns
 * non-zero; returns the number of rows visited. */
size_t zeil_foreach_kernel_stats(zeil_kernel_stats_fn fn, void *user);

typedef struct zeil_live_counts {
    uint64_t handles[ZEIL_KIND_COUNT]; /* live objects by kind */
    uint64_t allocations;              /* live USM allocations */
    uint64_t allocation_bytes;
} zeil_live_counts_t;

void zeil_get_live_counts(zeil_live_counts_t *counts);

/* What zeil could not keep because its own allocations failed (ZEIL-W070).
 * zeil never refuses a call or changes its result for that: it drops what it
 * cannot track and counts it here. */
typedef struct zeil_dropped_counts {
    uint64_t objects;     /* handles zeil could not register */
    uint64_t allocations; /* USM allocations zeil could not register */
    uint64_t records;     /* submissions missing from the records or counters */
    uint64_t other;       /* names, freed-allocation history, timing state, ... */
    uint64_t unchecked;   /* calls let through that only a complete registry
                               could have refused */
} zeil_dropped_counts_t;

void zeil_get_dropped_counts(zeil_dropped_counts_t *counts);

/* What zeil covers of the Level Zero API version in use. Versions are
 * ZE_MAKE_VERSION values, 0 when not known (no driver wrapped yet). With
 * several drivers, the highest version any loader table was asked for. */
typedef struct zeil_coverage {
    uint32_t requested_version; /* the version the loader asked the tables for */
    uint32_t driver_version;    /* the version the driver reports (zeDriverGetApiVersion) */
    uint32_t headers_version;   /* the version of the headers zeil was built with */
    uint32_t known_version;     /* the newest version zeil knows entries of */
    uint32_t intercepted;       /* entries of requested_version zeil intercepts */
    uint32_t unchecked;         /* entries newer than headers_version that zeil
                                   knows and passes through unchecked (listed
                                   under ZEIL_LOG=info at exit, ZEIL-W082) */
} zeil_coverage_t;

void zeil_get_coverage(zeil_coverage_t *coverage);
/* 1 once an object or USM allocation went unregistered for want of memory:
 * from then on a handle or pointer zeil does not know may still be valid. */
int zeil_registry_is_incomplete(void);

/* ---- diagnostics ------------------------------------------------------ */

typedef enum zeil_severity {
    ZEIL_SEVERITY_ERROR = 0,
    ZEIL_SEVERITY_WARNING = 1,
    ZEIL_SEVERITY_INFO = 2
} zeil_severity_t;

/* Emits one diagnostic line "zeil: error [RULE] CALL: message" through
 * zeil's log (honouring ZEIL_LOG, ZEIL_LOG_FILE, ZEIL_ON_ERROR) and counts it
 * for the report. Works when zeil is inactive too (then to stderr). */
void zeil_diagnostic(zeil_severity_t severity, const char *rule, const char *call, const char *fmt,
                     ...) __attribute__((format(printf, 4, 5)));

/* Makes a rule of another zeil library (the interop library's ZEIL-E1xx /
 * ZEIL-W1xx) known to zeil_foreach_rule before it first fires. */
void zeil_register_rule(const char *rule, zeil_severity_t severity, const char *summary);

uint64_t zeil_error_count(void);
uint64_t zeil_warning_count(void);
/* How often one rule fired. */
uint64_t zeil_rule_count(const char *rule);

typedef struct zeil_rule_stats {
    const char *rule; /* "ZEIL-E012" */
    zeil_severity_t severity;
    const char *summary; /* what the rule catches, one line */
    uint64_t count;      /* times it fired in this process */
} zeil_rule_stats_t;

typedef int (*zeil_rule_stats_fn)(const zeil_rule_stats_t *stats, void *user);
/* Every known rule, in ID order, fired or not. */
size_t zeil_foreach_rule(zeil_rule_stats_fn fn, void *user);

/* Current zeil call sequence number (for messages naming where things came
 * from). Every intercepted call that creates, destroys, frees or submits
 * takes the next number, except plain launches (a live open list, a ready
 * kernel, no events, no timing: see the records' seq); those and host-side
 * event signal, reset, wait and query take one only when the calls log is on
 * (ZEIL_LOG=calls), to stay off the shared counter. Numbers are unique and
 * increase with time. */
uint64_t zeil_call_number(void);

/* Writes buffered log, trace and record output now. */
void zeil_flush(void);

#ifdef __cplusplus
}
#endif

#endif
