/* The definitions behind zeil's (oneDNN's and the loader's own; see
 * real_dnnl.h), and the check that zeil's come first. */
#include "real_dnnl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

#include "rules.h"

typedef dnnl_status_t (*memory_fn)(dnnl_memory_t);
typedef dnnl_status_t (*stream_fn)(dnnl_stream_t);
typedef dnnl_status_t (*engine_fn)(dnnl_engine_t);
typedef dnnl_status_t (*stream_create_fn)(dnnl_stream_t *, dnnl_engine_t, unsigned);
typedef dnnl_status_t (*execute_fn)(const_dnnl_primitive_t, dnnl_stream_t, int,
                                    const dnnl_exec_arg_t *);
typedef ze_result_t(ZE_APICALL *host_sync_fn)(ze_event_handle_t, uint64_t);
typedef dnnl_status_t (*engine_kind_fn)(dnnl_engine_t, dnnl_engine_kind_t *);
typedef dnnl_status_t (*memory_create_fn)(dnnl_memory_t *, dnnl_ze_interop_memory_desc_t,
                                          dnnl_engine_t, void *);

static struct {
    memory_fn memory_destroy;
    stream_fn stream_destroy;
    stream_fn stream_wait;
    engine_fn engine_destroy;
    stream_create_fn stream_create;
    execute_fn primitive_execute;
    memory_create_fn memory_create;
    host_sync_fn event_host_synchronize;
    engine_kind_fn engine_get_kind;
} real;
static pthread_once_t real_once = PTHREAD_ONCE_INIT;

/* The next definition behind zeil's; when the library that defines it
 * precedes libzeil_interop in lookup order RTLD_NEXT misses it, so ask that
 * library directly: the one that defines anchor, a function zeil does not
 * define (dnnl_version for oneDNN, zeInit for the loader). */
static void *next_symbol_beside(const char *name, void *anchor)
{
    void *symbol = dlsym(RTLD_NEXT, name);
    if (symbol)
        return symbol;
    Dl_info info;
    if (!dladdr(anchor, &info) || !info.dli_fname)
        return NULL;
    void *library = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (!library)
        return NULL;
    symbol = dlsym(library, name);
    dlclose(library);
    return symbol;
}

static void *next_symbol(const char *name)
{
    return next_symbol_beside(name, (void *)&dnnl_version);
}

static void resolve_real(void)
{
    *(void **)&real.memory_destroy = next_symbol("dnnl_memory_destroy");
    *(void **)&real.stream_destroy = next_symbol("dnnl_stream_destroy");
    *(void **)&real.stream_wait = next_symbol("dnnl_stream_wait");
    *(void **)&real.engine_destroy = next_symbol("dnnl_engine_destroy");
    *(void **)&real.stream_create = next_symbol("dnnl_stream_create");
    *(void **)&real.primitive_execute = next_symbol("dnnl_primitive_execute");
    *(void **)&real.memory_create = next_symbol("dnnl_memory_create");
    *(void **)&real.engine_get_kind = next_symbol("dnnl_engine_get_kind");
    *(void **)&real.event_host_synchronize =
        next_symbol_beside("zeEventHostSynchronize", (void *)&zeInit);
}

#define REAL(name) (pthread_once(&real_once, resolve_real), real.name)

dnnl_status_t real_dnnl_memory_destroy(dnnl_memory_t memory)
{
    memory_fn fn = REAL(memory_destroy);
    return fn ? fn(memory) : dnnl_runtime_error;
}

dnnl_status_t real_dnnl_stream_destroy(dnnl_stream_t stream)
{
    stream_fn fn = REAL(stream_destroy);
    return fn ? fn(stream) : dnnl_runtime_error;
}

dnnl_status_t real_dnnl_stream_wait(dnnl_stream_t stream)
{
    stream_fn fn = REAL(stream_wait);
    return fn ? fn(stream) : dnnl_runtime_error;
}

dnnl_status_t real_dnnl_engine_destroy(dnnl_engine_t engine)
{
    engine_fn fn = REAL(engine_destroy);
    return fn ? fn(engine) : dnnl_runtime_error;
}

dnnl_status_t real_dnnl_stream_create(dnnl_stream_t *stream, dnnl_engine_t engine, unsigned flags)
{
    stream_create_fn fn = REAL(stream_create);
    return fn ? fn(stream, engine, flags) : dnnl_runtime_error;
}

dnnl_status_t real_dnnl_primitive_execute(const_dnnl_primitive_t primitive, dnnl_stream_t stream,
                                          int nargs, const dnnl_exec_arg_t *args)
{
    execute_fn fn = REAL(primitive_execute);
    return fn ? fn(primitive, stream, nargs, args) : dnnl_runtime_error;
}

dnnl_status_t real_dnnl_memory_create(dnnl_memory_t *memory, dnnl_ze_interop_memory_desc_t md,
                                      dnnl_engine_t engine, void *handle)
{
    memory_create_fn fn = REAL(memory_create);
    return fn ? fn(memory, md, engine, handle) : dnnl_runtime_error;
}

dnnl_status_t real_dnnl_engine_get_kind(dnnl_engine_t engine, dnnl_engine_kind_t *kind)
{
    engine_kind_fn fn = REAL(engine_get_kind);
    return fn ? fn(engine, kind) : dnnl_runtime_error;
}

ze_result_t real_zeEventHostSynchronize(ze_event_handle_t event, uint64_t timeout)
{
    host_sync_fn fn = REAL(event_host_synchronize);
    return fn ? fn(event, timeout) : ZE_RESULT_ERROR_UNINITIALIZED;
}

/* What the application's own calls bind to: the global scope in load order
 * (RTLD_DEFAULT would search this -Bsymbolic library first). */
static void *global_definition(const char *name)
{
    void *program = dlopen(NULL, RTLD_LAZY | RTLD_NOLOAD);
    void *symbol = program ? dlsym(program, name) : NULL;
    if (program)
        dlclose(program);
    return symbol;
}

/* zeil's own definition of name (interpose.c): this library's, asked of
 * this library alone, so that this file need not name them. */
static void *our_definition(const char *name)
{
    Dl_info info;
    if (!dladdr((void *)&our_definition, &info) || !info.dli_fname)
        return NULL;
    void *library = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (!library)
        return NULL;
    void *symbol = dlsym(library, name);
    dlclose(library);
    return symbol;
}

/* Every name zeil defines in front of oneDNN (interpose.c). */
static const char *const interposed[] = {
    "dnnl_stream_create", "dnnl_primitive_execute", "dnnl_memory_create",  "dnnl_memory_destroy",
    "dnnl_stream_wait",   "dnnl_stream_destroy",    "dnnl_engine_destroy", "dnnl_engine_get_kind",
};
#define INTERPOSED_COUNT (sizeof interposed / sizeof interposed[0])

static const char *missed_name; /* the first one that binds elsewhere */
static pthread_once_t check_once = PTHREAD_ONCE_INIT;

static void find_missed(void)
{
    for (size_t i = 0; i < INTERPOSED_COUNT && !missed_name; i++) {
        void *ours = our_definition(interposed[i]);
        if (!ours || global_definition(interposed[i]) != ours)
            missed_name = interposed[i];
    }
}

dnnl_status_t interpose_check(const char *call)
{
    pthread_once(&check_once, find_missed);
    if (!missed_name)
        return dnnl_success;
    Dl_info info = {0};
    void *theirs = global_definition(missed_name);
    const char *where =
        theirs && dladdr(theirs, &info) && info.dli_fname ? info.dli_fname : "another library";
    interop_report(INTEROP_RULE_E126, call,
                   "%s resolves to %s, not to libzeil_interop: libdnnl precedes libzeil_interop "
                   "in symbol lookup order, so streams, executes and memory of interop engines "
                   "would not go through Level Zero; link zeil_interop before dnnl "
                   "(pkg-config zeil-interop or CMake zeil::zeil_interop give that order)",
                   missed_name, where);
    return dnnl_runtime_error;
}
